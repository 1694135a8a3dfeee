// How the client learns that a game changed: push where the server offers it (graphql-ws on the
// local server), polling otherwise, paused while the tab is hidden (and checked at once when it
// shows again); while push is open, polling only checks now and then (a safety net).
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
 * Adds push to `base` where the server offers it: a graphql-ws (`graphql-transport-ws`)
 * subscription on /graphql (the local server; see the README for AWS). Each message calls
 * onChange at once; if the socket cannot open or closes, `base` (polling) carries on alone.
 */
export function withPush(base: Updates, subscription: string, variables: Record<string, unknown>, token: () => Promise<string | null>): Updates & { pushing(): boolean } {
  let socket: WebSocket | null = null;
  let open = false;
  let stopped = false;
  return {
    pushing: () => open,
    start(onChange) {
      base.start(onChange);
      void (async () => {
        const auth = await token();
        if (stopped || typeof WebSocket === 'undefined') return;
        try {
          socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`, 'graphql-transport-ws');
        } catch {
          return;
        }
        const send = (m: unknown) => socket?.send(JSON.stringify(m));
        socket.onopen = () => send({ type: 'connection_init', payload: auth ? { authorization: `Bearer ${auth}` } : {} });
        socket.onmessage = (ev) => {
          let m: { type?: string };
          try {
            m = JSON.parse(String(ev.data)) as { type?: string };
          } catch {
            return;
          }
          if (m.type === 'connection_ack') {
            send({ id: '1', type: 'subscribe', payload: { query: subscription, variables } });
            // Catch up on anything that changed before the subscription was in place (one
            // HTTP round trip after the subscribe message); push counts from then on.
            void (async () => {
              await onChange();
              open = socket?.readyState === WebSocket.OPEN;
              if (open) await onChange();
            })();
          } else if (m.type === 'next') void onChange();
          else if (m.type === 'ping') send({ type: 'pong' });
          else if (m.type === 'error' || m.type === 'complete') socket?.close();
        };
        socket.onclose = () => {
          open = false;
        };
      })();
    },
    stop() {
      stopped = true;
      base.stop();
      socket?.close();
      socket = null;
    },
  };
}
