// The fan-out: "game X is at version V" to every connection subscribed to X. Called after a
// commit (functions/api/notify.ts); a failure never fails the move: it is logged and counted,
// and clients still converge (their next fetch, or polling where push is not available).
import { count, logger, METRIC } from '../api/telemetry.js';
import type { PushGateway, PushMessage } from './protocol.js';
import type { PushStore } from './store.js';

export interface Pusher {
  gameChanged(gameId: string, version: number, status: string): Promise<void>;
}

/** Posts in flight at once per fan-out. */
const PARALLEL = 16;

export function createFanout(store: PushStore, gateway: PushGateway): Pusher {
  return {
    async gameChanged(gameId, version, status) {
      try {
        const connections = await store.subscribers(gameId);
        if (connections.length === 0) return;
        const message: PushMessage = { type: 'game', gameId, version, status };
        let sent = 0;
        let gone = 0;
        for (let i = 0; i < connections.length; i += PARALLEL) {
          await Promise.all(connections.slice(i, i + PARALLEL).map(async (c) => {
            if ((await gateway.post(c, message)) === 'gone') {
              gone++;
              await store.forget(gameId, c);
            } else sent++;
          }));
        }
        count(METRIC.pushSent, sent);
        if (gone > 0) count(METRIC.pushGone, gone);
      } catch (e) {
        logger.error('push fan-out failed', { gameId, version, error: e as Error });
      }
    },
  };
}
