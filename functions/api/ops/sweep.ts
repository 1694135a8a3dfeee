// The sweep (every few minutes on AWS, on an interval in the local server): makes the default
// move for overdue decisions (games found in the sharded due-work index GSI3) and brings
// forward what an interrupted request left behind (a snapshot behind its log, with the notices
// of the commits past it; bot moves not made), and hands again to the notice queue the notices
// left in commits' outboxes (a queue that was down). Every step is a conditional write:
// overlapping sweeps are harmless. Webhook deliveries are not its business: the notice queue
// retries them.
import { awaitedBot } from '../play/bots.js';
import { commitChangeResult, continueBots, load, repair } from '../play/commit.js';
import { BOUNDS } from '../http/ratelimit.js';
import { releaseLobby } from '../lobby/lobbies.js';
import type { Services } from '../services.js';
import { enforceDeadlines } from '../play/deadlines.js';
import { archiveLog } from './retention.js';
import { count, logger, METRIC } from '../http/telemetry.js';
import { attempt } from '../notify/webhooks.js';
import { remindDue } from '../notify/reminders.js';
import { resendOutboxes } from '../notify/notices.js';

/** Games (and deliveries) visited per run; the rest waits for the next run. */
const SWEEP_LIMIT = 1000;

export interface SweepResult {
  gamesChecked: number;
  /** Games whose bot moves an interrupted request left undone were advanced. */
  advanced: number;
  /** Default moves made for late seats. */
  timeouts: number;
  /** Snapshots brought up to their log (a writer stopped between its commit and its snapshot). */
  repaired: number;
  /** Lobbies cancelled because nobody touched them for BOUNDS.lobbyExpiryDays. */
  lobbiesExpired: number;
  /** Games that are over whose log was archived and given its TTL (retention.ts). */
  archived: number;
  /** E-mails sent (turn reminders, digests, address confirmations: notify/reminders.ts). */
  mailed: number;
  /** Commits whose notices were left in their outbox and were handed to the queue again. */
  noticesResent: number;
  /** Items whose step failed (logged with the error, counted in `SweepFailures`); retried next run. */
  failures: number;
}

/**
 * Runs `fn` for each id, `parallel` at a time; one failure never stops the others, but each is
 * logged as an error and counted (`SweepFailures`); returns the number of failures.
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
          logger.error(`sweep step failed for a ${what}`, {
            ...(what === 'delivery' ? { deliveryId: id } : what === 'game' ? { gameId: id } : {}),
            error: e as Error,
          });
        }
      }),
    );
  }
  if (failures > 0) count(METRIC.sweepFailures, failures);
  return failures;
}

/** Active games created within this long are visited by every run of the sweep. */
export const RECENT_MS = 2 * 3_600_000;
/** Older active games are visited once an hour: those of one of these slices per 5 minutes. */
export const ACTIVE_SLICES = 12;
const HOUR = 3_600_000;

/** The time between two runs (the stack sets SWEEP_INTERVAL_MINUTES, the local server SWEEP_INTERVAL_SECONDS); default 5 minutes. */
function sweepIntervalMs(): number {
  const seconds = Number(process.env.SWEEP_INTERVAL_SECONDS ?? '');
  if (seconds > 0) return seconds * 1000;
  const minutes = Number(process.env.SWEEP_INTERVAL_MINUTES ?? '');
  return (minutes > 0 ? minutes : 5) * 60_000;
}

/**
 * Whether the run at `now` visits an old active game: its slice (of ACTIVE_SLICES, by a hash of
 * the id) starts at a fixed minute of the hour, and the run visits the slices that started since
 * the previous run (`intervalMs` ago). Every old game is visited once an hour whatever the interval.
 */
export function inSlice(id: string, now: Date, intervalMs: number): boolean {
  if (intervalMs >= HOUR) return true;
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  const start = (h % ACTIVE_SLICES) * (HOUR / ACTIVE_SLICES);
  const t = now.getTime() % HOUR;
  const from = t - intervalMs;
  return (start > from && start <= t) || (start - HOUR > from && start - HOUR <= t);
}

/** What a run's steps count (SweepResult but the games checked and the mail sent). */
type Tally = Omit<SweepResult, 'gamesChecked' | 'mailed'>;

/** Overdue decisions: the default move for each late seat (or the snapshot's due time brought forward). Answers the games found. */
async function enforceOverdue(services: Services, now: Date, t: Tally): Promise<number> {
  const due = await services.store.ops.listDue('GAME', now, SWEEP_LIMIT);
  // Overdue decisions found this run (the backlog alarm's input; at SWEEP_LIMIT the sweep is
  // falling behind).
  count(METRIC.sweepBacklog, due.length);
  t.failures += await each(due, 'game', async (id) => {
    const made = await enforceDeadlines(services, id);
    t.timeouts += made;
    // Nobody late (a snapshot written before the last moves): bring its due time forward.
    if (made === 0 && (await repair(services, id))) t.repaired++;
  });
  return due.length;
}

/**
 * The games this run visits: active games created in the last RECENT_MS (live play) every run,
 * older ones (correspondence) once an hour, a twelfth of them a run (visits cost a read each);
 * and the lobbies, oldest first (the stale ones are at that end).
 */
async function gamesToVisit(services: Services, now: Date): Promise<string[]> {
  const [active, lobbies] = await Promise.all([
    services.store.log.listGamesByStatus('ACTIVE', SWEEP_LIMIT),
    services.store.log.listGamesByStatus('LOBBY', SWEEP_LIMIT, null, true),
  ]);
  const recentSince = new Date(now.getTime() - RECENT_MS).toISOString();
  const interval = sweepIntervalMs();
  return [
    ...active.ids.filter((id, i) => active.createdAt[i] >= recentSince || inSlice(id, now, interval)),
    ...lobbies.ids,
  ];
}

/**
 * One visit: the snapshot brought up to its log, bot moves an interrupted request left undone
 * made, and a lobby unchanged since `cutoff` (BOUNDS.lobbyExpiryDays) cancelled.
 */
async function visitGame(services: Services, id: string, cutoff: string, t: Tally): Promise<void> {
  const cur = await load(services, id);
  if (!cur) return;
  if (cur.tail.length > 0 && (await repair(services, id, cur))) t.repaired++;
  if (
    cur.rec.status === 'ACTIVE' &&
    awaitedBot(cur.rec.doc) !== undefined &&
    (await continueBots(services, cur.rec)) > 0
  )
    t.advanced++;
  if (cur.rec.status !== 'LOBBY' || cur.rec.updatedAt > cutoff) return;
  const { mine } = await commitChangeResult(services, id, {
    needed: (r) => r.status === 'LOBBY' && r.updatedAt <= cutoff,
    apply: () => [{ type: 'gameCancelled', data: { reason: 'expired', days: BOUNDS.lobbyExpiryDays } }],
    status: () => 'CANCELLED',
  });
  if (mine) {
    t.lobbiesExpired++;
    await releaseLobby(services, cur.rec.doc.creatorId, cur.rec.createdAt, id);
  }
}

/** Games that are over (now, or earlier runs that stopped half-way): their log archived. */
async function archiveOver(services: Services, now: Date, t: Tally): Promise<void> {
  const over = await services.store.ops.listDue('LOG', now, SWEEP_LIMIT);
  t.failures += await each(
    over,
    'game',
    async (id) => {
      if (await archiveLog(services, id)) t.archived++;
    },
    4,
  );
}

export async function sweep(services: Services): Promise<SweepResult> {
  const now = services.now();
  const t: Tally = {
    advanced: 0,
    timeouts: 0,
    repaired: 0,
    lobbiesExpired: 0,
    archived: 0,
    noticesResent: 0,
    failures: 0,
  };
  const due = await enforceOverdue(services, now, t);
  const ids = await gamesToVisit(services, now);
  const cutoff = new Date(now.getTime() - BOUNDS.lobbyExpiryDays * 86_400_000).toISOString();
  t.failures += await each(ids, 'game', (id) => visitGame(services, id, cutoff, t), 8);
  await archiveOver(services, now, t);
  // Notices a queue outage (or a stopped writer) left in outboxes: handed again, once a run.
  t.failures += await each(['outboxes'], 'notice outbox', async () => {
    t.noticesResent = await resendOutboxes(services);
  });
  // E-mail reminders last: they read the games as the steps above left them.
  const reminders = await remindDue(services);
  t.failures += reminders.failures;
  if (reminders.failures > 0) count(METRIC.sweepFailures, reminders.failures);
  const result = { gamesChecked: ids.length, mailed: reminders.mailed, ...t };
  logger.info('sweep done', { ...result, dueGames: due });
  return result;
}

/** Attempts deliveries whose next attempt is due (found in the due-work index). Returns the attempts made. */
export async function deliverDue(services: Services): Promise<number> {
  const now = services.now();
  let deliveries = 0;
  const retries = await services.store.ops.listDue('DELIVERY', now, SWEEP_LIMIT);
  await each(
    retries,
    'delivery',
    async (id) => {
      const d = await services.store.notify.getDelivery(id);
      if (
        d &&
        d.status === 'pending' &&
        d.nextAt !== null &&
        d.nextAt <= now.toISOString() &&
        (await attempt(services, d)) !== 'skipped'
      )
        deliveries++;
    },
    16,
  ); // each attempt waits at most the webhook timeout
  return deliveries;
}
