// Helpers shared by the rule examples of every edition: drive a game day by day with real
// commands and read the results (each edition's helpers add its own set-up).
import { applyInPlace, summary } from '../../functions/engine/index.js';
import type { GameEvent, GameState } from '../../functions/engine/index.js';

export type Answer = [seat: number, option: string];

/** Gives the answers in order; each must be for the seat whose decision is pending. */
export function answer(g: GameState, answers: Answer[], events: GameEvent[] = []): GameEvent[] {
  for (const [seat, a] of answers) {
    if (!g.prompt) throw new Error(`no decision pending for answer ${seat}:${a}`);
    if (g.prompt.seat !== seat) throw new Error(`decision pending for seat ${g.prompt.seat} (${g.prompt.text}), not ${seat}`);
    applyInPlace(g, { seat, answer: a }, events);
  }
  return events;
}

/**
 * Plays one day: seat i plays `plays[i]` (null: that seat has no card), then the answers are
 * given in order. Unless `open`, the day must then be over (no decision left pending).
 */
export function day(g: GameState, plays: (number | null)[], answers: Answer[] = [], open = false): GameEvent[] {
  const events: GameEvent[] = [];
  plays.forEach((rank, seat) => {
    if (rank !== null) applyInPlace(g, { seat, play: rank }, events);
  });
  answer(g, answers, events);
  if (!open && g.prompt) {
    throw new Error(`unexpected decision: seat ${g.prompt.seat} ${g.prompt.kind} [${g.prompt.options.map((o) => o.id)}]`);
  }
  return events;
}

/** Plays several days without decisions; returns all their events. */
export function days(g: GameState, list: (number | null)[][]): GameEvent[] {
  return list.flatMap((plays) => day(g, plays));
}

/** The pending decision in a compact, comparable form. */
export function pending(g: GameState): { seat: number; kind: string; options: string[] } | null {
  const p = g.prompt;
  return p ? { seat: p.seat, kind: p.kind, options: p.options.map((o) => o.id) } : null;
}

export const seat = (g: GameState, s: number) => summary(g).seats[s];
export const coins = (g: GameState) => g.seats.map((s) => s.doubloons);

/** A seat's loot without the zero counts, e.g. `{ chest: 1 }`. */
export function lootOf(g: GameState, s: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(g.seats[s].loot)) if (n > 0) out[k] = n;
  return out;
}

export const ofType = (events: GameEvent[], type: string) => events.filter((e) => e.type === type);

/** Doubloon changes in the events as [seat, delta] pairs, optionally for one reason (card name). */
export function doubloonMoves(events: GameEvent[], reason?: string): [number, number][] {
  return ofType(events, 'doubloons')
    .filter((e) => reason === undefined || e.data.reason === reason)
    .map((e) => [e.data.seat as number, e.data.delta as number]);
}

/** A deep copy to compare states before/after a rejected command. */
export const snapshot = (g: GameState) => JSON.stringify(g);
