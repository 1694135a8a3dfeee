// In-process "this game changed" signals for live subscriptions (the local server's
// WebSocket). On AWS each Lambda has its own process, so nothing is shared: clients poll
// `events(after)` or use webhooks there.
export interface GameChanges {
  publish(gameId: string): void;
  /** Calls `listener` after each commit to the game; returns the unsubscribe function. */
  subscribe(gameId: string, listener: () => void): () => void;
}

export function createChanges(): GameChanges {
  const listeners = new Map<string, Set<() => void>>();
  return {
    publish(gameId) {
      for (const l of listeners.get(gameId) ?? []) l();
    },
    subscribe(gameId, listener) {
      const set = listeners.get(gameId) ?? new Set();
      set.add(listener);
      listeners.set(gameId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(gameId);
      };
    },
  };
}
