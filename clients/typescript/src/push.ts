// Following one game: push where the server offers it, polling that backs off otherwise (the same
// on AWS and locally). The one copy of the push protocol's client side: the SDK's watchGame
// (watch.ts) and the reference web client (web/src/live.ts) both use followGame. No imports of
// the generated documents: the caller says how to fetch the game and its version.
//
// Push: the push protocol (docs/correspondence.md, "Live updates: push on AWS and locally"): a WebSocket to
// `pushUrl?token=...` (AWS: the stack's `PushUrl` output; locally `ws://localhost:4000/push`),
// `{"action":"subscribe","gameId"}`, then a `game` message after every commit carrying the
// caller's own view (the `game` query's fields); only when a view was too big to push (or the
// caller asks for fields a push leaves out: `pushedViews: false`) does the client fetch it. A
// ping every 8 minutes keeps the socket open (API Gateway closes idle ones after 10). A socket
// that closes is reopened with backoff 1, 2, 4 ... 60 s.
//
// Polling, while there is no open socket (no push endpoint, or it is down): the version only (a
// few bytes), and the whole game only when the version moved, every
//   2 s   while it is the caller's turn or a bot is to move (something is about to happen),
//   10 s  while other players are to move,
//   60 s  in games with a decision time limit of an hour or more (correspondence),
// stopping when the game is over; after an error the interval doubles, up to 60 s. In a browser,
// polling pauses while the page is hidden and checks at once when it shows again.

export const POLL_INTERVALS = { yourTurnMs: 2_000, othersMs: 10_000, correspondenceMs: 60_000, maxBackoffMs: 60_000 };
/** Pings keep an idle socket open (API Gateway closes it after 10 minutes; browsers may run a background timer up to a minute late). */
export const PUSH_PING_MS = 8 * 60_000;
export const PUSH_RECONNECT_MAX_MS = 60_000;

/** What the intervals look at (the SDK's Game and the web client's Game both have it). */
export interface GameShape {
  version: number;
  status: string;
  awaiting: readonly number[];
  decisionTimeLimitHours?: number | null;
  me?: { seat: number } | null;
  seats: readonly { seat: number; isBot: boolean }[];
}

export interface Watch {
  stop(): void;
  /** Whether updates arrive by push right now (else by polling). */
  pushing(): boolean;
}

/** How to fetch, over HTTP, what the push would bring. */
export interface GameSource<G> {
  /** The whole game as the caller sees it (null: there is no such game). */
  game(): Promise<G | null | undefined>;
  /** Only its version (the cheap poll). */
  version(): Promise<number | null | undefined>;
}

export interface FollowOptions {
  /** The push endpoint (`wss://...`); null: polling only. */
  pushUrl: string | null;
  /** The bearer token for the push connection, asked before each connect. */
  token: () => Promise<string | null | undefined> | string | null | undefined;
  /** A WebSocket class outside browsers (e.g. the `ws` package); default: the global WebSocket. */
  webSocketImpl?: unknown;
  /** Overrides of POLL_INTERVALS (tests, or gentler polling). */
  intervals?: Partial<typeof POLL_INTERVALS>;
  /** Errors of fetches and of the socket (following goes on). */
  onError?: (e: unknown) => void;
  /**
   * true (default): a push's view is passed on as it is. false: a push only says that there is
   * a newer version, which is then fetched with `source.game()` (for callers that show fields a
   * push leaves out, such as `lootLegend`).
   */
  pushedViews?: boolean;
  /** Called when push starts or stops carrying the updates. */
  onPushing?: (pushing: boolean) => void;
}

/** The poll interval for a game as last seen (null: stop, the game is over). */
export function pollInterval(game: Omit<GameShape, 'version'> | null, intervals = POLL_INTERVALS): number | null {
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
type Doc = {
  hidden?: boolean;
  addEventListener(t: string, f: () => void): void;
  removeEventListener(t: string, f: () => void): void;
};

/** Calls onGame with the game now, and with every newer version after it, until stop(). */
export function followGame<G extends GameShape>(
  gameId: string,
  source: GameSource<G>,
  onGame: (game: G) => void,
  options: FollowOptions,
): Watch {
  const intervals = { ...POLL_INTERVALS, ...options.intervals };
  const onError = options.onError ?? (() => {});
  const pushedViews = options.pushedViews ?? true;
  const pushUrl = options.pushUrl;
  const WS = (options.webSocketImpl ?? (globalThis as { WebSocket?: unknown }).WebSocket) as
    | (new (
        url: string,
      ) => Socket)
    | undefined;
  const doc = (globalThis as { document?: Doc }).document;
  const hidden = () => doc?.hidden === true;
  let stopped = false;
  let last: G | null = null;
  let socket: Socket | null = null;
  let open = false;
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let reconnectMs = 1_000;
  let backoffMs = 0;
  /** Serializes fetches: one at a time, and one more if a newer version was announced meanwhile. */
  let fetching: Promise<void> | null = null;
  let wanted = 0;

  const setOpen = (v: boolean) => {
    if (open === v) return;
    open = v;
    options.onPushing?.(v);
  };
  const fetchGame = async (): Promise<void> => {
    const game = await source.game();
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

  const poll = async () => {
    if (stopped || open) return;
    const base = pollInterval(last, intervals) ?? intervals.othersMs;
    try {
      const v = await source.version();
      if (typeof v === 'number' && (!last || v > last.version)) await catchUp(v);
      backoffMs = 0;
    } catch (e) {
      backoffMs = Math.min(intervals.maxBackoffMs, backoffMs > 0 ? backoffMs * 2 : base * 2);
      onError(e);
    }
  };
  const schedulePoll = () => {
    if (stopped || open || pollTimer) return;
    const base = pollInterval(last, intervals);
    if (base === null) return;
    pollTimer = setTimeout(
      async () => {
        pollTimer = null;
        if (stopped || open) return;
        if (!hidden()) await poll(); // a hidden page checks when it shows again
        schedulePoll();
      },
      backoffMs > 0 ? backoffMs : base,
    );
  };
  const onVisible = () => {
    if (hidden() || stopped || open || !pollTimer) return;
    clearTimeout(pollTimer);
    pollTimer = null;
    void poll().finally(schedulePoll);
  };

  const connect = async () => {
    if (stopped || !pushUrl || !WS) return;
    let t: string | null | undefined;
    try {
      t = await options.token();
    } catch (e) {
      onError(e);
    }
    if (stopped) return;
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
      let m: { type?: string; gameId?: string; version?: number; status?: string; message?: string; game?: G };
      try {
        m = JSON.parse(String(ev.data)) as typeof m;
      } catch {
        return;
      }
      // The push carries the caller's own view (the `game` query's fields): no fetch needed.
      if (
        pushedViews &&
        (m.type === 'subscribed' || m.type === 'game') &&
        m.gameId === gameId &&
        m.game &&
        typeof m.version === 'number' &&
        (!last || m.version > last.version)
      ) {
        last = m.game;
        onGame(m.game);
      }
      if (m.type === 'subscribed' && m.gameId === gameId) {
        // From here on every version is pushed; catch up on what changed before.
        reconnectMs = 1_000;
        if (pollTimer) clearTimeout(pollTimer);
        pollTimer = null;
        pingTimer = setInterval(() => ws.send(JSON.stringify({ action: 'ping' })), PUSH_PING_MS);
        setOpen(true);
        void catchUp(m.version ?? null).catch(onError);
      } else if (m.type === 'game' && m.gameId === gameId && typeof m.version === 'number') {
        void catchUp(m.version).catch(onError);
      } else if (m.type === 'error') onError(new Error(`push: ${m.message ?? m.type}`));
    };
    ws.onerror = (e) => onError(e);
    ws.onclose = () => {
      const wasOpen = open;
      socket = null;
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (stopped) return;
      setOpen(false);
      if (last && pollInterval(last, intervals) === null) return; // over: nothing more will come
      schedulePoll();
      if (!wasOpen) reconnectMs = Math.min(PUSH_RECONNECT_MAX_MS, reconnectMs * 2);
      setTimeout(() => void connect(), wasOpen ? 1_000 : reconnectMs);
    };
  };

  doc?.addEventListener('visibilitychange', onVisible);
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
      doc?.removeEventListener('visibilitychange', onVisible);
      if (pollTimer) clearTimeout(pollTimer);
      if (pingTimer) clearInterval(pingTimer);
      pollTimer = null;
      socket?.close();
      socket = null;
      open = false;
    },
  };
}
