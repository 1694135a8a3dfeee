// Final ranking shared by the editions: compare by a list of criteria, higher is better.
import type { GameState, SeatState } from './types.js';

export type Criterion = (seat: SeatState, index: number, g: GameState) => number;

/** Seats best first; a tie on every criterion keeps seat order. */
export function rankSeats(g: GameState, criteria: Criterion[]): number[] {
  const seats = g.seats.map((_, i) => i);
  return seats.sort((a, b) => {
    for (const c of criteria) {
      const d = c(g.seats[b], b, g) - c(g.seats[a], a, g);
      if (d !== 0) return d;
    }
    return a - b;
  });
}

/**
 * The final ranking with concessions: seats that did not concede keep the edition's order, then
 * the conceded seats, the latest concession first (whoever gave up earliest is last). Scores are
 * not changed: a conceded seat may have the best score and still ranks below every other seat.
 */
export function concededLast(ranking: readonly number[], conceded: readonly number[] | undefined): number[] {
  if (!conceded || conceded.length === 0) return [...ranking];
  const gaveUp = new Set(conceded);
  return [...ranking.filter((s) => !gaveUp.has(s)), ...[...conceded].reverse()];
}
