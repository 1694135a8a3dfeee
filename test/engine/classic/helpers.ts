// Small helpers for the classic rule examples: set a game up with playScenario (deal and
// loot fixed), then drive it day by day with applyInPlace and look at summary(state).
import { playScenario, summary } from '../../../functions/engine/index.js';
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

export * from '../helpers.js';

export const sum = (g: GameState) => summary(g);
