// The push protocol, the same on AWS (API Gateway WebSocket API) and on the local server
// (ws://localhost:4000/push). Commands stay on HTTP; the push only says "game X is at version V",
// and each client then fetches its own view with `game(id)` (or `events(after)`).
//
// Connect: `wss://<PushUrl>?token=<bearer token>` (no token: a spectator).
// Client -> server (JSON text frames):
//   { "action": "subscribe", "gameId": "..." }     at most MAX_SUBSCRIPTIONS games per connection
//   { "action": "unsubscribe", "gameId": "..." }
//   { "action": "ping" }                           keeps an idle connection open (API Gateway closes
//                                                  it after 10 minutes without a message)
// Server -> client:
//   { "type": "subscribed", "gameId", "version", "status" }   the version when the subscription began
//   { "type": "game", "gameId", "version", "status" }         after every commit to the game
//   { "type": "pong" }
//   { "type": "error", "code", "message", "gameId"? }          e.g. FORBIDDEN, NOT_FOUND, BAD_USER_INPUT

export const MAX_SUBSCRIPTIONS = 20;

/** API Gateway closes a WebSocket after 2 hours; subscription items expire a little later. */
export const CONNECTION_TTL_SECONDS = 2 * 3600 + 15 * 60;

export type PushMessage =
  | { type: 'subscribed'; gameId: string; version: number; status: string }
  | { type: 'game'; gameId: string; version: number; status: string }
  | { type: 'pong' }
  | { type: 'error'; code: string; message: string; gameId?: string };

/** Where messages go: API Gateway's management API on AWS, the open sockets locally. */
export interface PushGateway {
  /** Sends one message; 'gone' when the connection no longer exists. */
  post(connectionId: string, message: PushMessage): Promise<'ok' | 'gone'>;
}
