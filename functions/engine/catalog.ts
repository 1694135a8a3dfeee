// What a client needs to draw a game without its own copy of the rules tables: each
// edition's characters (name, rules text, when they act) and its shape (rounds, days, loot).
import type { Timing } from './edition.js';
import { editionOf } from './editions/index.js';
import type { EditionId } from './types.js';

export interface CharacterInfo {
  rank: number;
  name: string;
  text: string;
  /** When the character acts: day, dusk, night, end (classic end of campaign / Galecrest anchor). */
  timings: Timing[];
}

const TIMINGS: Timing[] = ['day', 'dusk', 'night', 'end'];

export function characters(edition: EditionId): CharacterInfo[] {
  const out: CharacterInfo[] = [];
  for (const c of editionOf(edition).cards) {
    if (!c) continue;
    out.push({ rank: c.rank, name: c.name, text: c.text, timings: TIMINGS.filter((t) => c[t] !== undefined) });
  }
  return out;
}

export interface EditionShape {
  /** Days in each round; its length is the number of rounds. */
  daysPerRound: number[];
  /** Ranks dealt to every player before each round. */
  dealPerRound: number[];
  lootKinds: string[];
  minPlayers: number;
  maxPlayers: number;
}

export function editionShape(edition: EditionId): EditionShape {
  const ed = editionOf(edition);
  return {
    daysPerRound: [...ed.daysPerRound],
    dealPerRound: [...ed.dealPerRound],
    lootKinds: [...ed.lootKinds],
    minPlayers: ed.minPlayers,
    maxPlayers: ed.maxPlayers,
  };
}
