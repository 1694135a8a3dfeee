// How the client learns that a game changed. Today: polling, paused while the tab is hidden
// (and checked at once when it shows again). A push transport (e.g. WebSocket subscriptions)
// can replace it behind the same interface: start(onChange) / stop().
export interface Updates {
  /** Calls onChange whenever something may have changed. */
  start(onChange: () => void | Promise<void>): void;
  stop(): void;
}

/** Polls `check` (true: something changed) every `ms` while the page is visible. */
export function pollingUpdates(check: () => Promise<boolean>, ms: number): Updates {
  let timer: ReturnType<typeof setInterval> | null = null;
  let running = false;
  let notify: (() => void | Promise<void>) | null = null;
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
  const onVisible = () => {
    if (!document.hidden) void tick();
  };
  return {
    start(onChange) {
      notify = onChange;
      timer = setInterval(() => void tick(), ms);
      document.addEventListener('visibilitychange', onVisible);
    },
    stop() {
      notify = null;
      if (timer) clearInterval(timer);
      timer = null;
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
