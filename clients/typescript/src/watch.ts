// watchGame: the game as the caller sees it, now and after every change, with push where the
// server offers it and polling that backs off otherwise (the same on AWS and locally).
//
// Push: the push protocol (README, "Live updates: push on AWS and locally"): a WebSocket to
// `pushUrl?token=...` (AWS: the stack's `PushUrl` output; locally `ws://localhost:4000/push`, the
// default derived from the API URL), `{"action":"subscribe","gameId"}`, then a `game` message
// after every commit carrying the caller's own view (the `game` query's fields; a superset of
// the SDK's GameParts); only when a view was too big to push does the client fetch it. A ping every 8 minutes keeps the socket open (API Gateway closes idle ones
// after 10). A socket that closes is reopened with backoff 1, 2, 4 ... 60 s.
//
// Polling, while there is no open socket (no push endpoint, or it is down): `game { version }`
// (a few bytes), and the whole game only when the version moved, every
//   2 s   while it is the caller's turn or a bot is to move (something is about to happen),
//   10 s  while other players are to move,
//   60 s  in games with a decision time limit of an hour or more (correspondence),
// stopping when the game is over; after an error the interval doubles, up to 60 s.
import type { Game, LibertaliaClient } from './client.js';
import { GameDocument, GameVersionDocument } from './generated.js';

export const POLL_INTERVALS = { yourTurnMs: 2_000, othersMs: 10_000, correspondenceMs: 60_000, maxBackoffMs: 60_000 };
/** Pings keep an idle socket open (API Gateway closes it after 10 minutes; browsers may run a background timer up to a minute late). */
export const PUSH_PING_MS = 8 * 60_000;
export const PUSH_RECONNECT_MAX_MS = 60_000;

export interface WatchOptions {
  /**
   * The push endpoint (`wss://...` on AWS: the `PushUrl` output); default: `/push` on the API's
   * host (the local server). null: polling only.
   */
  pushUrl?: string | null;
  /** A WebSocket class outside browsers (e.g. the `ws` package); default: the global WebSocket. */
  webSocketImpl?: unknown;
  /** Overrides of POLL_INTERVALS (tests, or gentler polling). */
  intervals?: Partial<typeof POLL_INTERVALS>;
  /** Errors of fetches and of the socket (watching goes on). */
  onError?: (e: unknown) => void;
}

export interface Watch {
  stop(): void;
  /** Whether updates arrive by push right now (else by polling). */
  pushing(): boolean;
}

/** The poll interval for a game as last seen (null: stop, the game is over). */
export function pollInterval(game: Pick<Game, 'status' | 'awaiting' | 'decisionTimeLimitHours' | 'me' | 'seats'> | null, intervals = POLL_INTERVALS): number | null {
  if (game && (game.status === 'FINISHED' || game.status === 'CANCELLED')) return null;
  if (!game) return intervals.othersMs;
  const mine = game.me !== null && game.me !== undefined && game.awaiting.includes(game.me.seat);
  const bot = game.awaiting.some((s) => game.seats.find((x) => x.seat === s)?.isBot);
  if (mine || bot) return intervals.yourTurnMs;
  if ((game.decisionTimeLimitHours ?? 0) >= 1) return intervals.correspondenceMs;
  return intervals.othersMs;
}

type Socket = {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
};

export function watchGame(client: LibertaliaClient, apiUrl: string, token: () => Promise<string | null | undefined>, gameId: string, onGame: (game: Game) => void, options: WatchOptions = {}): Watch {
  const intervals = { ...POLL_INTERVALS, ...options.intervals };
  const onError = options.onError ?? (() => {});
  const pushUrl = options.pushUrl === undefined ? `${apiUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/push` : options.pushUrl;
  const WS = (options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket) as (new (url: string) => Socket) | undefined;
  let stopped = false;
  let last: Game | null = null;
  let socket: Socket | null = null;
  let open = false;
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let reconnectMs = 1_000;
  let backoffMs = 0;
  /** Serializes fetches: one at a time, and one more if a newer version was announced meanwhile. */
  let fetching: Promise<void> | null = null;
  let wanted = 0;

  const fetchGame = async (): Promise<void> => {
    const game = (await client.request(GameDocument, { id: gameId })).game;
    if (!game) throw new Error(`no game ${gameId}`);
    if (!last || game.version > last.version) {
      last = game;
      onGame(game);
    }
  };
  /** Brings the view to at least `version` (null: refreshes it once). */
  const catchUp = (version: number | null): Promise<void> => {
    if (version !== null) wanted = Math.max(wanted, version);
    if (version !== null && last && last.version >= wanted) return Promise.resolve();
    fetching ??= (async () => {
      try {
        // A version announced while a fetch was in flight is fetched after it (a few times at most).
        for (let i = 0; i < 5; i++) {
          await fetchGame();
          if (stopped || !last || last.version >= wanted) break;
        }
      } finally {
        fetching = null;
      }
    })();
    return fetching;
  };

  const schedulePoll = () => {
    if (stopped || open) return;
    const base = pollInterval(last, intervals);
    if (base === null) return;
    const ms = backoffMs > 0 ? backoffMs : base;
    pollTimer = setTimeout(async () => {
      pollTimer = null;
      if (stopped || open) return;
      try {
        const v = (await client.request(GameVersionDocument, { id: gameId })).game;
        if (v && (!last || v.version > last.version)) await catchUp(v.version);
        backoffMs = 0;
      } catch (e) {
        backoffMs = Math.min(intervals.maxBackoffMs, backoffMs > 0 ? backoffMs * 2 : base * 2);
        onError(e);
      }
      schedulePoll();
    }, ms);
  };

  const connect = async () => {
    if (stopped || !pushUrl || !WS) return;
    const t = await token();
    let ws: Socket;
    try {
      ws = new WS(`${pushUrl}${t ? `${pushUrl.includes('?') ? '&' : '?'}token=${encodeURIComponent(t)}` : ''}`);
    } catch (e) {
      onError(e);
      return;
    }
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ action: 'subscribe', gameId }));
    ws.onmessage = (ev) => {
      let m: { type?: string; gameId?: string; version?: number; status?: string; message?: string; game?: Game };
      try {
        m = JSON.parse(String(ev.data)) as typeof m;
      } catch {
        return;
      }
      // The push carries the caller's own view (the `game` query's fields): no fetch needed.
      if ((m.type === 'subscribed' || m.type === 'game') && m.gameId === gameId && m.game && typeof m.version === 'number' && (!last || m.version > last.version)) {
        last = m.game;
        onGame(m.game);
      }
      if (m.type === 'subscribed' && m.gameId === gameId) {
        // From here on every version is pushed; catch up on what changed before.
        open = true;
        reconnectMs = 1_000;
        if (pollTimer) clearTimeout(pollTimer);
        pollTimer = null;
        pingTimer = setInterval(() => ws.send(JSON.stringify({ action: 'ping' })), PUSH_PING_MS);
        void catchUp(m.version ?? null).catch(onError);
      } else if (m.type === 'game' && m.gameId === gameId && typeof m.version === 'number') {
        void catchUp(m.version).catch(onError);
      } else if (m.type === 'error') onError(new Error(`push: ${m.message ?? m.type}`));
    };
    ws.onerror = (e) => onError(e);
    ws.onclose = () => {
      const wasOpen = open;
      open = false;
      socket = null;
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (stopped) return;
      if (last && pollInterval(last, intervals) === null) return; // over: nothing more will come
      schedulePoll();
      if (!wasOpen) reconnectMs = Math.min(PUSH_RECONNECT_MAX_MS, reconnectMs * 2);
      setTimeout(() => void connect(), wasOpen ? 1_000 : reconnectMs);
    };
  };

  void catchUp(null)
    .catch(onError)
    .finally(() => {
      schedulePoll();
      void connect();
    });

  return {
    pushing: () => open,
    stop() {
      stopped = true;
      if (pollTimer) clearTimeout(pollTimer);
      if (pingTimer) clearInterval(pingTimer);
      socket?.close();
      socket = null;
      open = false;
    },
  };
}
