// The sweep (every few minutes on AWS, on an interval in the local server): makes the default
// move for overdue decisions (games found in the due-work index GSI3), finishes what an
// interrupted request left undone (the outbox copy, done by loading, and bot moves) and retries
// webhook deliveries whose next attempt is due. Every step is a conditional write: overlapping
// sweeps are harmless.
import { awaitedBot } from './bots.js';
import { commitChange, continueBots } from './commit.js';
import { BOUNDS } from './ratelimit.js';
import type { Services } from './context.js';
import { enforceDeadlines } from './deadlines.js';
import type { GameDoc } from './doc.js';
import { count, logger, METRIC } from './telemetry.js';
import { attempt } from './webhooks.js';

/** Games (and deliveries) visited per run; the rest waits for the next run. */
const SWEEP_LIMIT = 1000;

export interface SweepResult {
  gamesChecked: number;
  /** Games whose bot moves an interrupted request left undone were advanced. */
  advanced: number;
  /** Default moves made for late seats. */
  timeouts: number;
  /** Webhook attempts made (delivered or not). */
  deliveries: number;
  /** Items whose step failed (logged with the error, counted in `SweepFailures`); retried next run. */
  failures: number;
  /** Lobbies cancelled because nobody touched them for BOUNDS.lobbyExpiryDays. */
  lobbiesExpired: number;
}

/**
 * Runs `fn` for each id, `parallel` at a time; one failure never stops the others, but each is
 * logged as an error and counted; returns the number of failures.
 */
async function each(ids: string[], what: string, fn: (id: string) => Promise<void>, parallel = 1): Promise<number> {
  let failures = 0;
  for (let i = 0; i < ids.length; i += parallel) {
    await Promise.all(
      ids.slice(i, i + parallel).map(async (id) => {
        try {
          await fn(id);
        } catch (e) {
          failures++;
          logger.error(`sweep step failed for a ${what}`, { ...(what === 'game' ? { gameId: id } : { deliveryId: id }), error: e as Error });
        }
      }),
    );
  }
  if (failures > 0) count(METRIC.sweepFailures, failures);
  return failures;
}

export async function sweep(services: Services): Promise<SweepResult> {
  const now = services.now();
  let timeouts = 0;
  let advanced = 0;
  let deliveries = 0;
  let failures = 0;
  let expired = 0;
  const due = await services.store.listDue('GAME', now, SWEEP_LIMIT);
  failures += await each(due, 'game', async (id) => {
    timeouts += await enforceDeadlines(services, id);
  });
  const ids = await services.store.listGameIdsByStatus('ACTIVE', SWEEP_LIMIT);
  failures += await each(ids, 'game', async (id) => {
    const rec = await services.store.loadGame<GameDoc>(id);
    if (rec && rec.status === 'ACTIVE' && awaitedBot(rec.doc) !== undefined && (await continueBots(services, rec)) > 0) advanced++;
  });
  // Stale lobbies: unchanged for BOUNDS.lobbyExpiryDays, cancelled (oldest first).
  const cutoff = new Date(now.getTime() - BOUNDS.lobbyExpiryDays * 86_400_000).toISOString();
  const lobbies = await services.store.listGameIdsByStatus('LOBBY', SWEEP_LIMIT, true);
  await each(lobbies, 'lobby', async (id) => {
    const rec = await services.store.loadGame<GameDoc>(id);
    if (!rec || rec.status !== 'LOBBY' || rec.updatedAt > cutoff) return;
    await commitChange(services, id, {
      needed: (r) => r.status === 'LOBBY' && r.updatedAt <= cutoff,
      apply: () => [{ type: 'gameCancelled', data: { reason: 'expired', days: BOUNDS.lobbyExpiryDays } }],
      status: () => 'CANCELLED',
    });
    expired++;
  });
  const retries = await services.store.listDue('DELIVERY', now, SWEEP_LIMIT);
  // Due work found this run: overdue decisions and webhook retries (the alarm's input; at
  // SWEEP_LIMIT the sweep is falling behind).
  count(METRIC.sweepBacklog, due.length + retries.length);
  failures += await each(retries, 'delivery', async (id) => {
    const d = await services.store.getDelivery(id);
    if (d && d.status === 'pending' && d.nextAt !== null && d.nextAt <= now.toISOString() && (await attempt(services, d)) !== 'skipped') deliveries++;
  }, 16); // each attempt waits at most the webhook timeout
  const result = { gamesChecked: ids.length, advanced, timeouts, deliveries, lobbiesExpired: expired, failures };
  logger.info('sweep done', { ...result, dueGames: due.length, dueDeliveries: retries.length });
  return result;
}
