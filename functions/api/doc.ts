// The API's game document, stored opaquely by the store: who sits where, the options, the
// engine's state and since when each awaited seat has been waited for (for deadlines).
import { awaitedSeats, type BotKind, type EditionId, type GameState } from '../engine/index.js';

export interface SeatHolder {
  playerId: string | null;
  name: string | null;
  bot: BotKind | null;
}

export interface GameDoc {
  edition: EditionId;
  board: string | null;
  creatorId: string;
  seats: SeatHolder[];
  decisionTimeLimitHours: number | null;
  seed: string;
  state: GameState;
  /** Awaited seat -> the decision awaited and when it became pending. */
  pending: Record<string, { key: string; since: string }>;
}

export const BOT_NAMES = ['Bot Blackbeard', 'Bot Read', 'Bot Kidd', 'Bot Roberts', 'Bot Teach', 'Bot Vane'];

/** The seat a player holds, or null. */
export function seatOf(doc: GameDoc, playerId: string | null | undefined): number | null {
  if (!playerId) return null;
  const i = doc.seats.findIndex((s) => s.playerId === playerId);
  return i < 0 ? null : i;
}

export const isFull = (doc: GameDoc) => doc.seats.every((s) => s.playerId !== null || s.bot !== null);

/** What a seat is being asked now: a prompt (by id) or the day's card. */
function decisionKey(g: GameState, seat: number): string {
  return g.prompt && g.prompt.seat === seat ? `prompt:${g.prompt.id}` : `choose:${g.round}:${g.day}`;
}

/**
 * Refreshes `pending` after a change: a seat still asked the same thing keeps its start time,
 * a newly awaited seat starts now. Deadlines are `since + decisionTimeLimitHours`.
 */
export function refreshPending(doc: GameDoc, active: boolean, now: Date): void {
  const next: GameDoc['pending'] = {};
  if (active) {
    for (const seat of awaitedSeats(doc.state)) {
      const key = decisionKey(doc.state, seat);
      const old = doc.pending[seat];
      next[seat] = old && old.key === key ? old : { key, since: now.toISOString() };
    }
  }
  doc.pending = next;
}

/** When the seat's current decision is due, or null (no limit, not awaited). */
export function deadlineOf(doc: GameDoc, seat: number): string | null {
  const p = doc.pending[seat];
  if (!p || doc.decisionTimeLimitHours === null) return null;
  return new Date(Date.parse(p.since) + doc.decisionTimeLimitHours * 3600_000).toISOString();
}
