// The small vocabulary every card and loot effect is written in. Each primitive changes the
// state and logs one event, so effects stay one-liners and the log stays complete.
import type { Ctx } from './edition.js';
import { indexIn, insertAt, removeAt } from './lists.js';
import { perEdition } from './tables.js';
import { charId, type GameState, type IslandCard, type Loot, type Option, type Place } from './types.js';

export { charId } from './types.js';

export { indexIn, insertAt, removeAt, sortedCopy, sortNumbers } from './lists.js';

export function parseCharId(id: string): { seat: number; rank: number } {
  const i = id.indexOf(':');
  return { seat: Number(id.slice(0, i)), rank: Number(id.slice(i + 1)) };
}

/** Card names by rank (card objects differ in shape, so reading `.name` on them is slow). */
const cardNames = perEdition((ed) => Array.from({ length: ed.ranks + 1 }, (_, r) => ed.cards[r]?.name ?? `#${r}`));

export function cardName(x: Ctx, rank: number): string {
  return cardNames(x.ed)[rank] ?? `#${rank}`;
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
  x.log.doubloons(seat, n, reason);
}

/** Pays up to n; a player who cannot pay in full pays all they have. Returns what was paid. */
export function pay(x: Ctx, seat: number, n: number, reason: string): number {
  const me = x.g.seats[seat];
  const paid = Math.min(Math.max(n, 0), me.doubloons);
  if (paid === 0) return 0;
  me.doubloons -= paid;
  x.log.doubloons(seat, -paid, reason);
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
  insertAt(g.island, i, card);
  return card;
}

export function islandKey(x: Ctx, seat: number, rank: number): number {
  return rank * 100 + x.ed.tieBreak(x.g, seat, rank);
}

function removeRank(list: number[], rank: number): boolean {
  const i = indexIn(list, rank);
  if (i < 0) return false;
  removeAt(list, i);
  return true;
}

function takeFrom(g: GameState, seat: number, rank: number, from: Place): boolean {
  if (from === 'island') {
    const i = islandIndex(g, seat, rank);
    if (i < 0) return false;
    removeAt(g.island, i);
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
  x.log.character(seat, rank, from, to, reason, secret);
  return true;
}

export function discard(x: Ctx, seat: number, rank: number, from: Place, reason: string): boolean {
  return moveCharacter(x, seat, rank, from, 'graveyard', reason);
}

/**
 * One option per character: prompts share these frozen objects (a prompt is replaced, never
 * edited), so a prompt costs no label building. Indexed by seat * CHAR_SLOTS + rank.
 */
const CHAR_SLOTS = 64;
const charOptions = perEdition(() => [] as Option[]);

export function charOption(x: Ctx, seat: number, rank: number): Option {
  const table = charOptions(x.ed);
  const i = seat * CHAR_SLOTS + rank;
  return (
    table[i] ??
    (table[i] = Object.freeze({ id: charId(seat, rank), label: `${cardName(x, rank)} (${rank}) of seat ${seat}` }))
  );
}

const rankOptionTable = perEdition(() => [] as Option[]);

/** A character of the asking seat's own hand or graveyard: id `<rank>` (shared, frozen). */
export function rankOption(x: Ctx, rank: number): Option {
  const table = rankOptionTable(x.ed);
  return table[rank] ?? (table[rank] = Object.freeze({ id: String(rank), label: `${cardName(x, rank)} (${rank})` }));
}

/**
 * Ranks put in order for an option list: a fixed scratch buffer, filled and sorted by
 * insertion (a hand, a den or a graveyard: a few ranks, and never more than the edition's
 * ranks, below 64, as a seat owns one card of each), read back by the caller at once. The
 * option lists are then built straight from it, with no sorted copy of the ranks per prompt.
 */
const SCRATCH = new Float64Array(64);

/**
 * Inserts rank r among the first n scratch ranks (ascending); returns the new count. A list
 * longer than the buffer (no game makes one) is refused loudly rather than cut short.
 */
function sortIn(n: number, r: number): number {
  if (n >= SCRATCH.length) throw new Error(`more than ${SCRATCH.length} ranks in one option list`);
  let j = n;
  while (j > 0 && SCRATCH[j - 1] > r) {
    SCRATCH[j] = SCRATCH[j - 1];
    j--;
  }
  SCRATCH[j] = r;
  return n + 1;
}

/** `rankOption`s of some ranks (one seat's: at most an edition's ranks, below 64), lowest first. */
export function rankOptions(x: Ctx, ranks: readonly number[]): Option[] {
  let n = 0;
  for (let i = 0; i < ranks.length; i++) n = sortIn(n, ranks[i]);
  const out: Option[] = [];
  for (let i = 0; i < n; i++) out.push(rankOption(x, SCRATCH[i]));
  return out;
}

/**
 * Pushes one seat's den characters to `out`, by rank; with `abilities` (a timing's abilities
 * by rank) only those that have one, `except` left out.
 */
function pushDen(x: Ctx, out: Option[], seat: number, abilities: readonly unknown[] | null, except: number): void {
  const den = x.g.seats[seat].den;
  let n = 0;
  // Only the characters kept are sorted (a copy prompt offers a few of the ship's).
  for (let i = 0; i < den.length; i++) {
    const r = den[i];
    if (abilities === null || (r !== except && abilities[r] !== undefined)) n = sortIn(n, r);
  }
  for (let i = 0; i < n; i++) out.push(charOption(x, seat, SCRATCH[i]));
}

/** Every character in every den as a `character` prompt option (each den by rank). */
export function denOptions(x: Ctx, seats: number[]): Option[] {
  const out: Option[] = [];
  for (let i = 0; i < seats.length; i++) pushDen(x, out, seats[i], null, -1);
  return out;
}

/** `denOptions` of one seat (no list of seats to build). */
export function ownDenOptions(x: Ctx, seat: number): Option[] {
  const out: Option[] = [];
  pushDen(x, out, seat, null, -1);
  return out;
}

/** `denOptions` of every seat, in seat order (no list of seats to build). */
export function allDenOptions(x: Ctx): Option[] {
  const out: Option[] = [];
  for (let s = 0; s < x.g.players; s++) pushDen(x, out, s, null, -1);
  return out;
}

/**
 * One seat's den characters with an ability in `abilities` (a timing's, by rank), `except` left
 * out, by rank: the matching ones are picked out first and only they are sorted (a copy prompt
 * offers the few ship characters with the copied timing).
 */
export function denOptionsWith(x: Ctx, seat: number, abilities: readonly unknown[], except: number): Option[] {
  const out: Option[] = [];
  pushDen(x, out, seat, abilities, except);
  return out;
}

/**
 * The seat and the rank of a `character` option id (`<seat>:<rank>`, both whole numbers, as
 * charId writes them), read digit by digit: no object and no substrings per answer.
 */
export function idSeat(id: string): number {
  return digitsFrom(id, 0);
}

export function idRank(id: string): number {
  return digitsFrom(id, id.indexOf(':') + 1);
}

function digitsFrom(id: string, i: number): number {
  let v = 0;
  for (; i < id.length; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    v = v * 10 + d;
  }
  return v;
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

/**
 * Whether the kind of a token gained or returned is public: unless the edition keeps loot face
 * down (classic) and the table did not see the kind (`seen`: the token came from the face-up day
 * display, or was shown). An edition with face-up loot (Galecrest) leaves `seen` out.
 */
const isOpen = (x: Ctx, seen: boolean | undefined): boolean => seen === true || !x.ed.hiddenLoot;

/** Gains a token (already taken out of the day display or the bag by the caller). */
export function gainLoot(x: Ctx, seat: number, kind: Loot, source: string, seen?: boolean): void {
  x.ed.addLoot(x.g.seats[seat].loot, kind, 1);
  lootGained(x, seat, kind, source, seen);
}

/** The event of a token gained, for an edition that raised the count itself (Galecrest's dusk pick). */
export function lootGained(x: Ctx, seat: number, kind: Loot, source: string, seen?: boolean): void {
  x.log.loot('lootGained', seat, kind, 1, source, isOpen(x, seen));
}

/** Returns up to n tokens of a kind to the bag. */
export function returnLoot(x: Ctx, seat: number, kind: Loot, n: number, reason: string, seen?: boolean): number {
  const loot = x.g.seats[seat].loot;
  const k = Math.min(n, loot[kind]);
  if (k <= 0) return 0;
  loot[kind] -= k;
  for (let i = 0; i < k; i++) x.g.bag.push(kind);
  x.log.loot('lootReturned', seat, kind, k, reason, isOpen(x, seen));
  return k;
}

export function passLoot(x: Ctx, from: number, to: number, kind: Loot, n: number, reason: string): number {
  const a = x.g.seats[from].loot;
  const k = Math.min(n, a[kind]);
  if (k <= 0) return 0;
  a[kind] -= k;
  x.g.seats[to].loot[kind] += k;
  x.log.lootPassed(from, to, kind, k, reason);
  return k;
}

/** Removes one token of a kind from the current day's display. */
export function takeFromDay(g: GameState, kind: Loot): boolean {
  const day = g.days[g.day - 1];
  const i = day.indexOf(kind);
  if (i < 0) return false;
  removeAt(day, i);
  return true;
}

/**
 * One option per distinct kind, in the edition's order. The list depends only on which kinds
 * occur, so it is one shared frozen array per edition and set of kinds (a bit mask by the
 * kind's index): the dusk pick, a game's most frequent decision, allocates nothing.
 */
export function kindOptions(x: Ctx, kinds: readonly Loot[]): Option[] {
  const all = x.ed.lootKinds;
  const t = kindOptionLists(x.ed);
  const byLetter = t.byLetter;
  let mask = 0;
  for (let j = 0; j < kinds.length; j++) {
    const k = kinds[j];
    let i = byLetter === null ? -1 : byLetter[k.charCodeAt(0) & 127];
    if (i < 0 || all[i] !== k) i = all.indexOf(k);
    if (i >= 0) mask |= 1 << i;
  }
  return t.lists[mask] ?? (t.lists[mask] = kindList(all, mask));
}

/**
 * Per edition: the option lists by mask, and the kinds' indexes by first letter where no two
 * kinds share one (both editions' do not): finding a token's kind is then a table read, checked
 * against the kind itself (indexOf otherwise).
 */
const kindOptionLists = perEdition((ed) => {
  const firsts = ed.lootKinds.map((k) => k.charCodeAt(0) & 127);
  let byLetter: Int8Array | null = null;
  if (new Set(firsts).size === firsts.length) {
    byLetter = new Int8Array(128).fill(-1);
    firsts.forEach((c, i) => (byLetter![c] = i));
  }
  return { byLetter, lists: [] as Option[][] };
});

function kindList(all: readonly Loot[], mask: number): Option[] {
  const out: Option[] = [];
  for (let i = 0; i < all.length; i++) if (mask & (1 << i)) out.push(Object.freeze({ id: all[i], label: all[i] }));
  // The list itself is left unfrozen: prompts hold every kind of option list, and lists of
  // one layout keep the code that reads them fast. Nothing edits a prompt's options.
  return out;
}

export function ownedKinds(x: Ctx, seat: number): Loot[] {
  const loot = x.g.seats[seat].loot;
  const all = x.ed.lootKinds;
  const out: Loot[] = [];
  for (let i = 0; i < all.length; i++) if (loot[all[i]] > 0) out.push(all[i]);
  return out;
}
