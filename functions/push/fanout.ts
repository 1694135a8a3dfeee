// The fan-out: "game X is at version V", with the game as each connection's player may see it,
// to every connection subscribed to X. Called after a commit (functions/api/commit.ts); a
// failure never fails the move: it is logged and counted, and clients still converge (their
// next fetch, or polling where push is not available).
//
// The view is rendered here per subscriber with `pushView` (renderGame: the engine's one view
// filter, exactly what the `game` query answers that player), once per distinct player.
import type { GameRec } from '../api/commit.js';
import { renderGame } from '../api/render.js';
import { count, logger, METRIC } from '../api/telemetry.js';
import { MAX_VIEW_BYTES, type PushGateway, type PushMessage } from './protocol.js';
import type { PushStore } from './store.js';

export interface Pusher {
  /** Tells the game's subscribers; with `rec`, each message carries that subscriber's own view. */
  gameChanged(gameId: string, version: number, status: string, rec?: GameRec): Promise<void>;
}

/**
 * The game as `playerId` (null: a spectator) may see it, as plain JSON (the `game` query's
 * fields; fields computed on demand, such as `scenario` and `lootLegend`, are left out), or
 * undefined if it is too big for one message.
 */
export function pushView(rec: GameRec, playerId: string | null): unknown {
  const json = JSON.stringify(renderGame(rec, playerId));
  return Buffer.byteLength(json) <= MAX_VIEW_BYTES ? (JSON.parse(json) as unknown) : undefined;
}

/** Posts in flight at once per fan-out. */
const PARALLEL = 16;

export function createFanout(store: PushStore, gateway: PushGateway): Pusher {
  return {
    async gameChanged(gameId, version, status, rec) {
      try {
        const connections = await store.subscribers(gameId);
        if (connections.length === 0) return;
        const messages = new Map<string, PushMessage>();
        const messageFor = (playerId: string | null): PushMessage => {
          const key = playerId ?? '';
          let m = messages.get(key);
          if (!m) {
            const game = rec ? pushView(rec, playerId) : undefined;
            m = { type: 'game', gameId, version, status, ...(game === undefined ? {} : { game }) };
            messages.set(key, m);
          }
          return m;
        };
        let sent = 0;
        let gone = 0;
        for (let i = 0; i < connections.length; i += PARALLEL) {
          await Promise.all(connections.slice(i, i + PARALLEL).map(async ({ connectionId, playerId }) => {
            if ((await gateway.post(connectionId, messageFor(playerId))) === 'gone') {
              gone++;
              await store.forget(gameId, connectionId);
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
