// watchGame: the game as the caller sees it, now and after every change, with push where the
// server offers it and polling that backs off otherwise (the same on AWS and locally). The
// protocol, the intervals and the back-off are followGame's (push.ts, shared with the web client):
//   push    a WebSocket to `pushUrl?token=...` (AWS: the `PushUrl` output; locally
//           `ws://localhost:4000/push`, the default derived from the API URL); every push carries
//           the caller's own view, so the game is fetched once at the start only.
//   polling `game { version }` every 2 s (your turn or a bot's), 10 s (others), 60 s
//           (correspondence), doubling after errors up to 60 s; paused in hidden browser pages.
import {
  GameDocument,
  type GamePartsFragment as Game,
  GameVersionDocument,
  type TypedDocumentString,
} from './generated.js';
import { followGame, type FollowOptions, type Watch } from './push.js';

export {
  POLL_INTERVALS,
  PUSH_PING_MS,
  PUSH_RECONNECT_MAX_MS,
  pollInterval,
  followGame,
  type FollowOptions,
  type GameShape,
  type GameSource,
  type Watch,
} from './push.js';

/** What watchGame asks of a client (LibertaliaClient is one): typed requests, nothing else. */
export interface GameRequester {
  request<R, V>(document: TypedDocumentString<R, V>, variables: V): Promise<R>;
}

export interface WatchOptions extends Partial<Omit<FollowOptions, 'pushUrl' | 'token'>> {
  /**
   * The push endpoint (`wss://...` on AWS: the `PushUrl` output); default: `/push` on the API's
   * host (the local server). null: polling only.
   */
  pushUrl?: string | null;
}

export function watchGame(
  client: GameRequester,
  apiUrl: string,
  token: () => Promise<string | null | undefined>,
  gameId: string,
  onGame: (game: Game) => void,
  options: WatchOptions = {},
): Watch {
  const pushUrl =
    options.pushUrl === undefined ? `${apiUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/push` : options.pushUrl;
  return followGame<Game>(
    gameId,
    {
      game: async () => (await client.request(GameDocument, { id: gameId })).game,
      version: async () => (await client.request(GameVersionDocument, { id: gameId })).game?.version,
    },
    onGame,
    { ...options, pushUrl, token },
  );
}
