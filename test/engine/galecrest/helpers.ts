// Helpers for the Galecrest rule examples: a game set up with playScenario (deal, loot,
// board and reputation track fixed), then driven day by day with real commands.
import { playScenario, summary } from '../../../functions/engine/index.js';
import type { Command, GameEvent, GameState } from '../../../functions/engine/index.js';

export interface Setup {
  players?: number;
  seed?: string;
  /** Ranks dealt before each voyage (everyone gets the same six). */
  deal?: number[][];
  /** Per voyage, per day: the tokens laid out. */
  loot?: string[][][];
  /** Lowest to highest; default: seats 0, 1, 2 on the three lowest spaces (12, 11, 10 doubloons). */
  reputation?: (number | null)[];
  board?: unknown;
  commands?: Command[];
}

export const DEFAULT_TRACK = [0, 1, 2, null, null, null];

/** A Galecrest game at its first decision. Throws on a scenario error. */
export function setup(opts: Setup = {}): { g: GameState; events: GameEvent[] } {
  const players = opts.players ?? 3;
  const r = playScenario({
    edition: 'galecrest',
    players,
    seed: opts.seed ?? 'galecrest rule examples',
    deal: opts.deal,
    loot: opts.loot,
    board: opts.board ?? 'calm',
    reputation: opts.reputation ?? (players === 3 ? DEFAULT_TRACK : undefined),
    commands: opts.commands ?? [],
  });
  if ('error' in r) throw new Error(`scenario error ${r.error.code}: ${r.error.message}`);
  return { g: r.state, events: r.events };
}

export * from '../helpers.js';
export { doubloonMoves as moves } from '../helpers.js';

export const rep = (g: GameState) => summary(g).seats.map((s) => s.reputation);
export const track = (g: GameState) => (g.ext as { track: (number | null)[] }).track;

/**
 * Set-up shortcut: characters of a seat's hand go straight into its ship (as if played on
 * earlier days). Only a dealt card the seat still holds can go.
 */
export function toShip(g: GameState, s: number, ranks: number[]): void {
  const me = g.seats[s];
  for (const r of ranks) {
    const i = me.hand.indexOf(r);
    if (i < 0) throw new Error(`set-up: seat ${s} holds no character ${r} for its ship (deal it first)`);
    me.hand.splice(i, 1);
    me.den.push(r);
  }
}

/**
 * Set-up shortcut: characters of a seat's hand go to its graveyard (as if discarded on earlier
 * days). Only a dealt card the seat still holds can be discarded.
 */
export function toGraveyard(g: GameState, s: number, ranks: number[]): void {
  const me = g.seats[s];
  for (const r of ranks) {
    const i = me.hand.indexOf(r);
    if (i < 0) throw new Error(`set-up: seat ${s} holds no character ${r} to discard (deal it first)`);
    me.hand.splice(i, 1);
    me.graveyard.push(r);
  }
}

/**
 * Set-up shortcut: jump to the voyage's last day, so the next day ends at anchor. The days
 * skipped are over: their loot is back in the bag, as after a dusk nobody picked.
 */
export function lastDay(g: GameState): void {
  for (let d = g.day - 1; d < g.days.length - 1; d++) g.bag.push(...g.days[d].splice(0));
  g.day = g.days.length;
}

export const same = (kind: string, n = 3) => Array.from({ length: n }, () => kind);
