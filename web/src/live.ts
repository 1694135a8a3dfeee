// How the client learns that something changed. A game: gameUpdates, the SDK's followGame (push
// where it is available, on AWS and locally; polling with back-off otherwise). Lists (the
// lobby): pollingUpdates, paused while the tab is hidden (and checked at once when it shows).
import { followGame, type GameShape, type GameSource, type Watch } from '../../clients/typescript/src/push';
import { bearerToken } from './session';

export interface Updates {
  /** Calls onChange whenever something may have changed. */
  start(onChange: () => void | Promise<void>): void;
  stop(): void;
}

/**
 * Polls `check` (true: something changed) every `ms` (a number, or asked before each wait: e.g.
 * slower while push is open) while the page is visible.
 */
export function pollingUpdates(check: () => Promise<boolean>, ms: number | (() => number)): Updates {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let notify: (() => void | Promise<void>) | null = null;
  const interval = () => (typeof ms === 'number' ? ms : ms());
  const tick = async () => {
    if (running || document.hidden || !notify) return;
    running = true;
    try {
      if (await check()) await notify();
    } catch {
      // the next tick tries again
    } finally {
      running = false;
    }
  };
  const schedule = () => {
    if (!notify) return;
    timer = setTimeout(() => {
      void tick().finally(schedule);
    }, interval());
  };
  const onVisible = () => {
    if (!document.hidden) void tick();
  };
  return {
    start(onChange) {
      notify = onChange;
      schedule();
      document.addEventListener('visibilitychange', onVisible);
    },
    stop() {
      notify = null;
      if (timer) clearTimeout(timer);
      timer = null;
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}

/**
 * Where the push endpoint is: `VITE_PUSH_URL` at build time (on AWS: the stack's `PushUrl`
 * output, `wss://...`), else `/push` on the page's own host (the local server, or a static host
 * that forwards `/push` like `/graphql`). `VITE_PUSH_URL=none`: polling only.
 */
export function pushUrl(): string | null {
  const configured = (import.meta.env.VITE_PUSH_URL as string | undefined)?.trim();
  if (configured === 'none') return null;
  return configured || `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/push`;
}

/**
 * One game's updates, the same way as the TypeScript SDK's watchGame (its followGame, one copy
 * of the protocol): push where it is available, each push telling the version to fetch (the
 * table shows fields a push leaves out, so it fetches its own view and the new log events);
 * polling the version otherwise with the SDK's intervals (2 s your turn or a bot's, 10 s others,
 * 60 s correspondence, doubling after errors up to 60 s), paused while the tab is hidden.
 */
export function gameUpdates<G extends GameShape>(
  gameId: string,
  source: GameSource<G>,
  onGame: (game: G) => void,
  opts: { onPushing?: (pushing: boolean) => void; onError?: (e: unknown) => void; pollMs?: number },
): Watch {
  const p = opts.pollMs;
  return followGame(gameId, source, onGame, {
    pushUrl: pushUrl(),
    token: bearerToken,
    pushedViews: false,
    onPushing: opts.onPushing,
    onError: opts.onError,
    intervals: p ? { yourTurnMs: p, othersMs: p, correspondenceMs: p } : undefined,
  });
}
