// Invariants of any game state, shared by the property tests of every edition.
import type { GameState } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';

/** Every dealt character of every seat is in exactly one place; returns the first problem. */
export function cardProblem(g: GameState): string | null {
  const dealt = new Set<number>();
  for (let r = 1; r <= editionOf(g.edition).ranks; r++) if (!g.deck.includes(r)) dealt.add(r);
  for (let seat = 0; seat < g.players; seat++) {
    const s = g.seats[seat];
    const places = [
      ...s.hand,
      ...s.den,
      ...s.graveyard,
      ...s.out,
      ...g.island.filter((c) => c.seat === seat).map((c) => c.rank),
    ];
    const seen = new Set<number>();
    for (const r of places) {
      if (seen.has(r)) return `seat ${seat}: character ${r} is in two places`;
      if (!dealt.has(r)) return `seat ${seat}: character ${r} was never dealt`;
      seen.add(r);
    }
    if (seen.size !== dealt.size) return `seat ${seat}: ${dealt.size - seen.size} character(s) lost`;
    if (s.choice >= 0 && !s.hand.includes(s.choice)) return `seat ${seat}: chose ${s.choice}, not in hand`;
  }
  return null;
}

/** Loot is conserved: bag + day displays + everything held = the edition's bag. */
export function lootProblem(g: GameState): string | null {
  const ed = editionOf(g.edition);
  const count: Record<string, number> = {};
  const add = (k: string, n = 1) => (count[k] = (count[k] ?? 0) + n);
  g.bag.forEach((k) => add(k));
  g.days.forEach((d) => d.forEach((k) => add(k)));
  g.seats.forEach((s) => Object.entries(s.loot).forEach(([k, n]) => add(k, n)));
  for (const k of ed.lootKinds) {
    if ((count[k] ?? 0) !== ed.bag[k]) return `${k}: ${count[k] ?? 0} in play, the bag has ${ed.bag[k]}`;
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
