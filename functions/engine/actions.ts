// The small vocabulary every card and loot effect is written in. Each primitive changes the
// state and logs one event, so effects stay one-liners and the log stays complete.
import { emit } from './core.js';
import type { Ctx } from './edition.js';
import type { GameState, IslandCard, Loot, Option } from './types.js';

export const charId = (seat: number, rank: number): string => `${seat}:${rank}`;

export function parseCharId(id: string): { seat: number; rank: number } {
  const i = id.indexOf(':');
  return { seat: Number(id.slice(0, i)), rank: Number(id.slice(i + 1)) };
}

export function cardName(x: Ctx, rank: number): string {
  return x.ed.cards[rank]?.name ?? `#${rank}`;
}

export const leftOf = (g: GameState, seat: number): number => (seat + 1) % g.players;
export const rightOf = (g: GameState, seat: number): number => (seat - 1 + g.players) % g.players;

/** The distinct neighbours of a seat (one with two players). */
export function neighbours(g: GameState, seat: number): number[] {
  const l = leftOf(g, seat);
  const r = rightOf(g, seat);
  return l === r ? [l] : [l, r];
}

// ---- doubloons ----

export function gain(x: Ctx, seat: number, n: number, reason: string): void {
  if (n <= 0) return;
  x.g.seats[seat].doubloons += n;
  if (x.events) emit(x, 'doubloons', { seat, delta: n, reason });
}

/** Pays up to n; a player who cannot pay in full pays all they have. Returns what was paid. */
export function pay(x: Ctx, seat: number, n: number, reason: string): number {
  const me = x.g.seats[seat];
  const paid = Math.min(Math.max(n, 0), me.doubloons);
  if (paid === 0) return 0;
  me.doubloons -= paid;
  if (x.events) emit(x, 'doubloons', { seat, delta: -paid, reason });
  return paid;
}

export function transfer(x: Ctx, from: number, to: number, n: number, reason: string): number {
  const paid = pay(x, from, n, reason);
  gain(x, to, paid, reason);
  return paid;
}

// ---- characters ----

export function islandIndex(g: GameState, seat: number, rank: number): number {
  const isl = g.island;
  for (let i = 0; i < isl.length; i++) if (isl[i].seat === seat && isl[i].rank === rank) return i;
  return -1;
}

export function onIsland(g: GameState, seat: number, rank: number): boolean {
  return islandIndex(g, seat, rank) >= 0;
}

/** Inserts a card on the island at its place in the order (sunrise, Parrot/Scout). */
export function placeOnIsland(x: Ctx, seat: number, rank: number): IslandCard {
  const g = x.g;
  const card: IslandCard = { seat, rank, key: islandKey(x, seat, rank) };
  let i = g.island.length;
  while (i > 0 && g.island[i - 1].key > card.key) i--;
  g.island.splice(i, 0, card);
  return card;
}

export function islandKey(x: Ctx, seat: number, rank: number): number {
  return rank * 100 + x.ed.tieBreak(x.g, seat, rank);
}

function removeRank(list: number[], rank: number): boolean {
  const i = list.indexOf(rank);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
}

export type Place = 'island' | 'den' | 'hand' | 'graveyard';

function takeFrom(g: GameState, seat: number, rank: number, from: Place): boolean {
  if (from === 'island') {
    const i = islandIndex(g, seat, rank);
    if (i < 0) return false;
    g.island.splice(i, 1);
    return true;
  }
  const me = g.seats[seat];
  return removeRank(from === 'den' ? me.den : from === 'hand' ? me.hand : me.graveyard, rank);
}

function putTo(g: GameState, seat: number, rank: number, to: Exclude<Place, 'island'>): void {
  const me = g.seats[seat];
  (to === 'den' ? me.den : to === 'hand' ? me.hand : me.graveyard).push(rank);
}

/**
 * Moves one character between places. The event hides the rank from the other seats
 * when `secret` is set (Surgeon: "without revealing which").
 */
export function moveCharacter(
  x: Ctx,
  seat: number,
  rank: number,
  from: Place,
  to: Exclude<Place, 'island'>,
  reason: string,
  secret = false,
): boolean {
  if (!takeFrom(x.g, seat, rank, from)) return false;
  putTo(x.g, seat, rank, to);
  if (!x.events) return true;
  if (secret) emit(x, 'character', { seat, from, to, reason }, { seat, data: { rank } });
  else emit(x, 'character', { seat, rank, from, to, reason });
  return true;
}

export function discard(x: Ctx, seat: number, rank: number, from: Place, reason: string): boolean {
  return moveCharacter(x, seat, rank, from, 'graveyard', reason);
}

/** Every character in every den as a `character` prompt option. */
export function denOptions(x: Ctx, seats: number[]): Option[] {
  const out: Option[] = [];
  for (const s of seats) {
    for (const r of [...x.g.seats[s].den].sort((a, b) => a - b)) {
      out.push({ id: charId(s, r), label: `${cardName(x, r)} (${r}) of seat ${s}` });
    }
  }
  return out;
}

export function allSeats(g: GameState): number[] {
  const out: number[] = [];
  for (let s = 0; s < g.players; s++) out.push(s);
  return out;
}

// ---- loot ----

export function lootCount(g: GameState, seat: number): number {
  const loot = g.seats[seat].loot;
  let n = 0;
  for (const k in loot) n += loot[k];
  return n;
}

/** Public unless the edition keeps loot face down and the kind was not seen by the table. */
function lootEvent(x: Ctx, type: string, seat: number, kind: Loot, n: number, why: string, seen: boolean): void {
  if (!x.events) return;
  if (seen || !x.ed.hiddenLoot) emit(x, type, { seat, kind, n, why });
  else emit(x, type, { seat, n, why }, { seat, data: { kind } });
}

/** Gains a token (already taken out of the day display or the bag by the caller). */
export function gainLoot(x: Ctx, seat: number, kind: Loot, source: string, seen: boolean): void {
  x.g.seats[seat].loot[kind]++;
  lootEvent(x, 'lootGained', seat, kind, 1, source, seen);
}

/** Returns up to n tokens of a kind to the bag. */
export function returnLoot(x: Ctx, seat: number, kind: Loot, n: number, reason: string, seen: boolean): number {
  const loot = x.g.seats[seat].loot;
  const k = Math.min(n, loot[kind]);
  if (k <= 0) return 0;
  loot[kind] -= k;
  for (let i = 0; i < k; i++) x.g.bag.push(kind);
  lootEvent(x, 'lootReturned', seat, kind, k, reason, seen);
  return k;
}

export function passLoot(x: Ctx, from: number, to: number, kind: Loot, n: number, reason: string): number {
  const a = x.g.seats[from].loot;
  const k = Math.min(n, a[kind]);
  if (k <= 0) return 0;
  a[kind] -= k;
  x.g.seats[to].loot[kind] += k;
  if (x.events) emit(x, 'lootPassed', { from, to, kind, n: k, reason });
  return k;
}

/** Removes one token of a kind from the current day's display. */
export function takeFromDay(g: GameState, kind: Loot): boolean {
  const day = g.days[g.day - 1];
  const i = day.indexOf(kind);
  if (i < 0) return false;
  day.splice(i, 1);
  return true;
}

/** One option per distinct kind, in the edition's order. */
export function kindOptions(x: Ctx, kinds: readonly Loot[]): Option[] {
  const out: Option[] = [];
  const all = x.ed.lootKinds;
  for (let i = 0; i < all.length; i++) {
    const k = all[i];
    for (let j = 0; j < kinds.length; j++) {
      if (kinds[j] === k) {
        out.push(kindOption(k));
        break;
      }
    }
  }
  return out;
}

// Loot options never change: one frozen object per kind instead of one per prompt (dusk picks
// are the most frequent decision of a game).
const KIND_OPTIONS: Record<Loot, Option> = Object.create(null);
function kindOption(k: Loot): Option {
  return KIND_OPTIONS[k] ?? (KIND_OPTIONS[k] = Object.freeze({ id: k, label: k }));
}

export function ownedKinds(x: Ctx, seat: number): Loot[] {
  const loot = x.g.seats[seat].loot;
  return x.ed.lootKinds.filter((k) => loot[k] > 0);
}
