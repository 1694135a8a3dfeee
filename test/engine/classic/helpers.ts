// Small helpers for the classic rule examples: set a game up with playScenario (deal and
// loot fixed), then drive it day by day with applyInPlace and look at summary(state).
import { applyInPlace, playScenario, summary } from '../../../functions/engine/index.js';
import type { Command, GameEvent, GameState } from '../../../functions/engine/index.js';

export interface Setup {
  players?: number;
  seed?: string;
  /** Ranks dealt before each campaign (everyone gets the same ranks). */
  deal?: number[][];
  /** Per campaign, per day: the tokens laid out (one per player). */
  loot?: string[][][];
  commands?: Command[];
}

/** A classic game at its first decision (or after `commands`). Throws on a scenario error. */
export function setup(opts: Setup): { g: GameState; events: GameEvent[] } {
  const r = playScenario({
    edition: 'classic',
    players: opts.players ?? 3,
    seed: opts.seed ?? 'classic rule examples',
    deal: opts.deal,
    loot: opts.loot,
    commands: opts.commands ?? [],
  });
  if ('error' in r) throw new Error(`scenario error ${r.error.code}: ${r.error.message}`);
  return { g: r.state, events: r.events };
}

export type Answer = [seat: number, option: string];

/**
 * Plays one day: seat i plays `plays[i]` (null: that seat has no card), then the answers are
 * given in order. Unless `open`, the day must then be over (no decision left pending).
 */
export function day(g: GameState, plays: (number | null)[], answers: Answer[] = [], open = false): GameEvent[] {
  const events: GameEvent[] = [];
  plays.forEach((rank, seat) => {
    if (rank !== null) applyInPlace(g, { seat, play: rank }, events);
  });
  for (const [seat, answer] of answers) {
    if (!g.prompt) throw new Error(`no decision pending for answer ${seat}:${answer}`);
    if (g.prompt.seat !== seat) throw new Error(`decision pending for seat ${g.prompt.seat}, not ${seat}`);
    applyInPlace(g, { seat, answer }, events);
  }
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

export const sum = (g: GameState) => summary(g);
export const seat = (g: GameState, s: number) => summary(g).seats[s];
export const coins = (g: GameState) => g.seats.map((s) => s.doubloons);

/** A seat's loot without the zero counts, e.g. `{ chest: 1 }`. */
export function lootOf(g: GameState, s: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(g.seats[s].loot)) if (n > 0) out[k] = n;
  return out;
}

/** Doubloon changes in the events as [seat, delta] pairs, optionally for one reason (card name). */
export function doubloonMoves(events: GameEvent[], reason?: string): [number, number][] {
  return events
    .filter((e) => e.type === 'doubloons')
    .filter((e) => reason === undefined || (e.data.reason ?? e.data.why) === reason)
    .map((e) => [e.data.seat as number, e.data.delta as number]);
}

export const ofType = (events: GameEvent[], type: string) => events.filter((e) => e.type === type);

/** A rank-less deep copy to compare states before/after a rejected command. */
export const snapshot = (g: GameState) => JSON.stringify(g);
