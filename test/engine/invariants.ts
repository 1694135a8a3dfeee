// Invariants of any game state, shared by the property tests of every edition.
import type { GameState } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';

/** Every dealt character of every seat is in exactly one place; returns the first problem. */
// Checked after every command of thousands of games (properties.test.ts): flat arrays indexed by
// rank instead of sets and spread copies (half the time; the same answers).
export function cardProblem(g: GameState): string | null {
  const ranks = editionOf(g.edition).ranks;
  const inDeck = new Uint8Array(ranks + 1);
  for (const r of g.deck) if (r >= 1 && r <= ranks) inDeck[r] = 1;
  let dealt = 0;
  for (let r = 1; r <= ranks; r++) if (!inDeck[r]) dealt++;
  /** The last seat whose places held each rank (-1: none yet). */
  const heldBy = new Int8Array(ranks + 1).fill(-1);
  for (let seat = 0; seat < g.players; seat++) {
    const s = g.seats[seat];
    let held = 0;
    for (const cards of [s.hand, s.den, s.graveyard, s.out])
      for (const r of cards) {
        const problem = placeProblem(seat, r, ranks, inDeck, heldBy);
        if (problem) return problem;
        held++;
      }
    for (const c of g.island) {
      if (c.seat !== seat) continue;
      const problem = placeProblem(seat, c.rank, ranks, inDeck, heldBy);
      if (problem) return problem;
      held++;
    }
    if (held !== dealt) return `seat ${seat}: ${dealt - held} character(s) lost`;
    if (s.choice >= 0 && !s.hand.includes(s.choice)) return `seat ${seat}: chose ${s.choice}, not in hand`;
  }
  return null;
}

/** Character `r` in one of `seat`'s places: a problem if the seat holds it twice or it was never dealt. */
function placeProblem(seat: number, r: number, ranks: number, inDeck: Uint8Array, heldBy: Int8Array): string | null {
  const known = Number.isInteger(r) && r >= 1 && r <= ranks;
  if (known && heldBy[r] === seat) return `seat ${seat}: character ${r} is in two places`;
  if (!known || inDeck[r]) return `seat ${seat}: character ${r} was never dealt`;
  heldBy[r] = seat;
  return null;
}

/** Loot is conserved: bag + day displays + everything held = the edition's bag. */
export function lootProblem(g: GameState): string | null {
  const ed = editionOf(g.edition);
  // The edition's kinds counted (a kind it does not have counts NaN, never read).
  const count: Record<string, number> = {};
  for (const k of ed.lootKinds) count[k] = 0;
  for (const k of g.bag) count[k]++;
  for (const d of g.days) for (const k of d) count[k]++;
  for (const s of g.seats) for (const k in s.loot) count[k] += s.loot[k];
  for (const k of ed.lootKinds) {
    if (count[k] !== ed.bag[k]) return `${k}: ${count[k]} in play, the bag has ${ed.bag[k]}`;
  }
  for (const s of g.seats) for (const k of ed.lootKinds) if (s.loot[k] < 0) return `negative ${k}`;
  return null;
}

export function coinProblem(g: GameState): string | null {
  for (let seat = 0; seat < g.players; seat++) {
    const s = g.seats[seat];
    if (!Number.isInteger(s.doubloons) || s.doubloons < 0) return `seat ${seat} has ${s.doubloons} doubloons`;
    if (!Number.isInteger(s.score) || s.score < 0) return `seat ${seat} has score ${s.score}`;
  }
  return null;
}
