// After every commit: tell live subscribers (local server) that the game changed, and turn
// "your turn", "a bot took a seat over" and "game ended" moments into webhook deliveries. A receiver can never fail or
// block the move: errors are logged, each attempt is bounded by a short timeout, and failed
// attempts are retried by the sweep.
import type { GameRec } from './commit.js';
import type { Services } from './context.js';
import { logger } from './telemetry.js';
import { attempt, type Notice, recordDeliveries } from './webhooks.js';

/** Which human seats became awaited by this commit, and who learns that the game ended. */
export function noticesOf(before: GameRec, after: GameRec): Notice[] {
  const out: Notice[] = [];
  const seats = after.doc.seats;
  const base = { gameId: after.id, version: after.version };
  if (after.status === 'ACTIVE') {
    for (const [s, p] of Object.entries(after.doc.pending)) {
      const seat = Number(s);
      const holder = seats[seat];
      const old = before.status === 'ACTIVE' ? before.doc.pending[s] : undefined;
      if (holder.bot === null && holder.playerId && !(old && old.key === p.key && old.since === p.since)) {
        out.push({ ...base, playerId: holder.playerId, kind: 'yourTurn', seat });
      }
    }
  }
  // A bot took a seat over (too many timeouts): the other players are told.
  seats.forEach((h, seat) => {
    if (!h.replaced || before.doc.seats[seat]?.replaced) return;
    seats.forEach((other, i) => i !== seat && other.playerId && other.bot === null && out.push({ ...base, playerId: other.playerId, kind: 'seatReplaced', seat }));
  });
  if (after.status === 'FINISHED' && before.status !== 'FINISHED') {
    seats.forEach((h, seat) => h.playerId && out.push({ ...base, playerId: h.playerId, kind: 'gameEnded', seat }));
  }
  return out;
}

export async function afterCommit(services: Services, before: GameRec, after: GameRec): Promise<void> {
  services.changes.publish(after.id);
  // Push: never throws (failures are logged); runs beside the webhooks.
  const pushed = services.push?.gameChanged(after.id, after.version, after.status);
  const notices = noticesOf(before, after);
  try {
    if (notices.length === 0) return;
    const deliveries = await recordDeliveries(services, notices);
    await Promise.all(deliveries.map((d) => attempt(services, d)));
  } catch (e) {
    logger.error('notification failed', { gameId: after.id, error: e as Error });
  } finally {
    await pushed;
  }
}
