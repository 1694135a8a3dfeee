// The push protocol, the same on AWS (API Gateway WebSocket API) and on the local server
// (ws://localhost:4000/push). Commands stay on HTTP; the push says "game X is at version V" and
// carries the game as that connection's player may see it (`game`: the fields of the `game`
// query, rendered by the same function, functions/api/view/render.ts, through the engine's one view
// filter), so a client needs no fetch after a push. A view too big for one message is left out:
// the client then fetches it with `game(id)`.
//
// Connect: `wss://<PushUrl>?token=<bearer token>` (no token: a spectator).
// Client -> server (JSON text frames):
//   { "action": "subscribe", "gameId": "..." }     at most MAX_SUBSCRIPTIONS games per connection
//   { "action": "unsubscribe", "gameId": "..." }
//   { "action": "ping" }                           keeps an idle connection open (API Gateway closes
//                                                  it after 10 minutes without a message)
// Server -> client:
//   { "type": "subscribed", "gameId", "version", "status", "game" }   the game when the subscription began
//   { "type": "game", "gameId", "version", "status", "game" }         after every commit to the game
//   { "type": "chat", "gameId", "message" }                         a chat message posted or hidden
//                                                  (the ChatMessage fields; not sent to who muted its author)
//   { "type": "pong" }
//   { "type": "error", "code", "message", "gameId"?, "retryAfterSeconds"? }
//        e.g. FORBIDDEN (also pushed, once, when the connection's player may no longer see a game it
//        watched: the subscription ends), NOT_FOUND, BAD_USER_INPUT, RATE_LIMITED (every message
//        counts as a read, in the same per-player (or per-address) buckets as HTTP reads)
// A connection that does not read what it is sent is closed with CLOSE_SLOW (PUSH_LIMITS).

export const MAX_SUBSCRIPTIONS = 20;

/** API Gateway closes a WebSocket after 2 hours; subscription items expire a little later. */
export const CONNECTION_TTL_SECONDS = 2 * 3600 + 15 * 60;

/**
 * Views above this size (bytes of JSON) are not pushed (the client fetches): a WebSocket message
 * is billed per 32 KB, and API Gateway takes at most 128 KB per post.
 */
export const MAX_VIEW_BYTES = 28 * 1024;

/** The bounds of one push connection (documented in the README, "Threat model and limits"). */
export const PUSH_LIMITS = {
  /**
   * Bytes a socket may have waiting unsent (ws `bufferedAmount`, past what the kernel took); a
   * message that would go past it closes the socket (CLOSE_SLOW): nobody waits for a reader.
   */
  sendQueueBytes: 256 * 1024,
  /** Messages of one connection waiting to be handled (they are handled one at a time); more are answered RATE_LIMITED unread. */
  pendingMessagesPerConnection: 8,
  /** Time one fan-out (one game version to all its subscribers) may take before it is abandoned. */
  fanoutBudgetMs: 5000,
  /** Time a slow socket is given to take its close frame before it is cut. */
  closeGraceMs: 1000,
};

/** Close code for a socket that does not read what it is sent (/push and /graphql). */
export const CLOSE_SLOW = 4008;

export type PushMessage =
  | { type: 'subscribed'; gameId: string; version: number; status: string; game?: unknown }
  | { type: 'game'; gameId: string; version: number; status: string; game?: unknown }
  | { type: 'chat'; gameId: string; message: unknown }
  | { type: 'pong' }
  | { type: 'error'; code: string; message: string; gameId?: string; retryAfterSeconds?: number };

/** Where messages go: API Gateway's management API on AWS, the open sockets locally. */
export interface PushGateway {
  /** Sends one message; 'gone' when the connection no longer exists. */
  post(connectionId: string, message: PushMessage): Promise<'ok' | 'gone'>;
  /** Closes a connection (its player signed out): DeleteConnection on AWS, CLOSE_SIGNED_OUT locally. */
  close(connectionId: string): Promise<void>;
}

/** Close code for a connection whose session ended (signOut, revokeTokens, a reused refresh token): /push and /graphql. */
export const CLOSE_SIGNED_OUT = 4401;
