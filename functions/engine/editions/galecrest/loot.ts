// Galecrest loot: the bag, the tile vocabulary, the calm tiles and the board choices.
//
// A board is seven loot tiles, one per kind. Each tile shows one side: a list of effects at
// dusk (only when the token is first taken), at night (every night, per token held) and at
// anchor (per token held). Effects are data written in the small vocabulary below, so a
// house-rule tile set is a JSON object checked by `checkTileSet`, never code.
import {
  charOption,
  cardName,
  denOptions,
  discard,
  gain,
  gainLoot,
  lootGained,
  idRank,
  idSeat,
  pay,
  takeFromDay,
} from '../../actions.js';
import { ask, push, step } from '../../kernel.js';
import type { Ctx, Effect } from '../../edition.js';
import { fail } from '../../errors.js';
import { randomInt } from '../../rng.js';
import type { GameOptions, GameState, Loot, Option, Step } from '../../types.js';
import { changeReputation } from './reputation.js';
import { ext } from './state.js';
import type { LootEffect, LootTiming, TileSet, TileSide } from './tiles.js';

export const LOOT_KINDS = ['map', 'barrel', 'relic', 'saber', 'amulet', 'hook', 'chest'] as const;
/** Edition.copyLoot: the keys in LOOT_KINDS order (test/engine/clone.test.ts checks it). */
export const copyLoot = (l: Readonly<Record<Loot, number>>): Record<Loot, number> => ({
  map: l.map,
  barrel: l.barrel,
  relic: l.relic,
  saber: l.saber,
  amulet: l.amulet,
  hook: l.hook,
  chest: l.chest,
});

/** Edition.addLoot (test/engine/clone.test.ts checks it against `loot[kind] += n` for every kind). */
export function addLoot(l: Record<Loot, number>, kind: Loot, n: number): void {
  switch (kind) {
    case 'map':
      l.map += n;
      return;
    case 'barrel':
      l.barrel += n;
      return;
    case 'relic':
      l.relic += n;
      return;
    case 'saber':
      l.saber += n;
      return;
    case 'amulet':
      l.amulet += n;
      return;
    case 'hook':
      l.hook += n;
      return;
    case 'chest':
      l.chest += n;
      return;
    default:
      l[kind] += n;
  }
}

/**
 * A kind's index in LOOT_KINDS, or -1: found by its first letter (the seven kinds' differ) and
 * checked against the kind itself, where `indexOf` compares it with each kind in turn.
 */
export function kindIndex(kind: Loot): number {
  const i = KIND_BY_LETTER[kind.charCodeAt(0) & 127];
  return i >= 0 && LOOT_KINDS[i] === kind ? i : -1;
}
const KIND_BY_LETTER = new Int8Array(128).fill(-1);
LOOT_KINDS.forEach((k, i) => (KIND_BY_LETTER[k.charCodeAt(0)] = i));

/**
 * The kind an option id names from index `at` to `end` (a Thief's `<seat>:<kind>`, a
 * Merchant's `<kind>:<count>`), as LOOT_KINDS holds it: found by its first letter and checked.
 * A slice of the id would be a new string each time, and such a string, returned to the bag,
 * would go on being drawn, compared and used as a key as a different string from the kind's
 * own (each use a comparison of characters, and string code that sees two kinds of string).
 */
export function kindIn(id: string, at: number, end: number): Loot {
  const i = KIND_BY_LETTER[id.charCodeAt(at) & 127];
  if (i >= 0) {
    const k = LOOT_KINDS[i];
    if (end - at === k.length && id.startsWith(k, at)) return k;
  }
  return id.slice(at, end);
}

/**
 * `loot[LOOT_KINDS[k]]`, read by the kind's fixed name: a read by a varying name is a lookup
 * (the anchor and the bank read every kind of every seat).
 */
export function heldOf(l: Readonly<Record<Loot, number>>, k: number): number {
  switch (k) {
    case 0:
      return l.map;
    case 1:
      return l.barrel;
    case 2:
      return l.relic;
    case 3:
      return l.saber;
    case 4:
      return l.amulet;
    case 5:
      return l.hook;
    case 6:
      return l.chest;
    default:
      return 0;
  }
}

/** Every count to 0, each by its fixed name (heldOf). */
export function clearLoot(l: Record<Loot, number>): void {
  l.map = 0;
  l.barrel = 0;
  l.relic = 0;
  l.saber = 0;
  l.amulet = 0;
  l.hook = 0;
  l.chest = 0;
}

export const LOOT_BAG: Record<Loot, number> = { map: 10, barrel: 8, relic: 8, saber: 6, amulet: 6, hook: 6, chest: 4 };

export const LOOT_TIMINGS: readonly LootTiming[] = ['dusk', 'night', 'anchor'];

/** The calm side of every tile (rules reference, sources Z and JR). */
export const CALM_TILES: TileSet = {
  map: {
    anchor: [
      {
        sets: [
          { size: 2, value: 7 },
          { size: 3, value: 12 },
        ],
      },
    ],
  },
  barrel: { dusk: [{ reputation: 1 }], anchor: [{ doubloons: 1 }] },
  relic: { anchor: [{ doubloons: -3 }] },
  saber: { dusk: [{ discard: 'island' }] },
  amulet: { anchor: [{ doubloons: 3 }] },
  hook: { anchor: [{ keepOrDoubloons: 2 }] },
  chest: { anchor: [{ doubloons: 5 }] },
};

/** Freezes a printed tile set all the way down: games share its objects (setupBoard). */
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}
deepFreeze(CALM_TILES);

/**
 * The stormy side. Its values are in none of our rules references and are not invented:
 * until this slot holds the printed table, `stormy` and `uncharted` answer NOT_AVAILABLE.
 */
export const STORMY_TILES: TileSet | null = null;

// ---- board choice ----

const WHERE: Record<string, readonly LootTiming[]> = {
  doubloons: LOOT_TIMINGS,
  reputation: LOOT_TIMINGS,
  sets: ['anchor'],
  keepOrDoubloons: ['anchor'],
  discard: ['dusk', 'night'],
};

const isInt = (v: unknown, lo: number, hi: number): v is number =>
  Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkEffect(v: unknown, timing: LootTiming, path: string): LootEffect {
  if (!isObject(v)) fail('BAD_USER_INPUT', `${path}: an effect is an object like {"doubloons": 2}`);
  const keys = Object.keys(v);
  if (keys.length !== 1 || !(keys[0] in WHERE)) {
    fail('BAD_USER_INPUT', `${path}: an effect has exactly one of ${Object.keys(WHERE).join(', ')}`);
  }
  const key = keys[0];
  if (!WHERE[key].includes(timing))
    fail('BAD_USER_INPUT', `${path}: "${key}" works only at ${WHERE[key].join(' or ')}`);
  const value = v[key];
  if (key === 'doubloons' && !isInt(value, -20, 20))
    fail('BAD_USER_INPUT', `${path}.doubloons: a whole number from -20 to 20`);
  if (key === 'reputation' && !isInt(value, -5, 5))
    fail('BAD_USER_INPUT', `${path}.reputation: a whole number from -5 to 5`);
  if (key === 'keepOrDoubloons' && !isInt(value, 0, 20))
    fail('BAD_USER_INPUT', `${path}.keepOrDoubloons: a whole number from 0 to 20`);
  if (key === 'discard' && value !== 'island' && value !== 'ship')
    fail('BAD_USER_INPUT', `${path}.discard: "island" or "ship"`);
  if (key === 'sets') {
    if (!Array.isArray(value) || value.length === 0 || value.length > 6)
      fail('BAD_USER_INPUT', `${path}.sets: a list of 1-6 {size, value}`);
    value.forEach((set, i) => {
      if (!isObject(set) || Object.keys(set).length !== 2 || !isInt(set.size, 1, 10) || !isInt(set.value, -50, 50)) {
        fail('BAD_USER_INPUT', `${path}.sets[${i}]: {"size": 1-10, "value": -50..50}`);
      }
    });
    return { sets: value.map((s) => ({ size: s.size as number, value: s.value as number })) };
  }
  return { [key]: value } as LootEffect;
}

/** Checks a tile set (house rules) and returns a clean copy. Errors name the bad path. */
export function checkTileSet(v: unknown, path: string): TileSet {
  if (!isObject(v))
    fail('BAD_USER_INPUT', `${path}: a tile set is an object with one tile per loot kind (${LOOT_KINDS.join(', ')})`);
  for (const k of Object.keys(v)) {
    if (!(LOOT_KINDS as readonly string[]).includes(k)) fail('BAD_USER_INPUT', `${path}: unknown loot kind "${k}"`);
  }
  const out: TileSet = {};
  for (const kind of LOOT_KINDS) {
    const side = v[kind];
    if (side === undefined)
      fail('BAD_USER_INPUT', `${path}: the ${kind} tile is missing (use {} for a tile without effects)`);
    if (!isObject(side))
      fail('BAD_USER_INPUT', `${path}.${kind}: a tile is an object of dusk/night/anchor effect lists`);
    const tile: TileSide = {};
    for (const t of Object.keys(side)) {
      if (!(LOOT_TIMINGS as readonly string[]).includes(t))
        fail('BAD_USER_INPUT', `${path}.${kind}: unknown timing "${t}" (dusk, night, anchor)`);
      const list = side[t];
      if (!Array.isArray(list) || list.length > 4)
        fail('BAD_USER_INPUT', `${path}.${kind}.${t}: a list of up to 4 effects`);
      tile[t as LootTiming] = list.map((e, i) => checkEffect(e, t as LootTiming, `${path}.${kind}.${t}[${i}]`));
    }
    out[kind] = tile;
  }
  return out;
}

type Side = 'calm' | 'stormy' | 'uncharted';
const SIDES: readonly Side[] = ['calm', 'stormy', 'uncharted'];

/** The printed board sides a game can be set up with now (stormy and uncharted need the stormy tiles). */
export function playableBoards(): Side[] {
  return STORMY_TILES ? [...SIDES] : ['calm'];
}

/**
 * Reads the `board` option: `calm` (default), `stormy`, `uncharted`, `{ tiles }` (one custom
 * side for every tile) or `{ side, calm?, stormy? }` (custom sides standing in for the
 * printed ones, then the same calm/stormy/uncharted choice).
 */
export function setupBoard(g: GameState, opts: GameOptions): void {
  const b = opts.board;
  let side: Side;
  let calm: TileSet | null = CALM_TILES;
  let stormy: TileSet | null = STORMY_TILES;
  let custom = false;
  if (b === undefined || b === null) side = 'calm';
  else if (typeof b === 'string') {
    if (!(SIDES as readonly string[]).includes(b))
      fail('BAD_USER_INPUT', `board is calm, stormy, uncharted or a custom tile set, not "${b}"`);
    side = b as Side;
  } else if (isObject(b)) {
    custom = true;
    const keys = Object.keys(b);
    if ('tiles' in b) {
      if (keys.length !== 1) fail('BAD_USER_INPUT', 'board: {"tiles": ...} takes no other field');
      side = 'calm';
      calm = checkTileSet(b.tiles, 'board.tiles');
    } else {
      for (const k of keys)
        if (k !== 'side' && k !== 'calm' && k !== 'stormy') fail('BAD_USER_INPUT', `board: unknown field "${k}"`);
      if (!(SIDES as readonly unknown[]).includes(b.side))
        fail('BAD_USER_INPUT', 'board.side is calm, stormy or uncharted');
      side = b.side as Side;
      if (b.calm !== undefined) calm = checkTileSet(b.calm, 'board.calm');
      if (b.stormy !== undefined) stormy = checkTileSet(b.stormy, 'board.stormy');
    }
  } else fail('BAD_USER_INPUT', 'board is calm, stormy, uncharted or a custom tile set');
  if (side !== 'calm' && !stormy) {
    fail(
      'NOT_AVAILABLE',
      `the ${side} board needs the stormy loot tiles, which are not in our rules data yet; play calm or pass your own tiles`,
    );
  }
  const e = ext(g);
  e.board = custom ? 'custom' : side;
  if (side !== 'uncharted') {
    // One side for every tile: the tile set itself, shared, not copied (tiles are only read
    // after set-up; the printed ones are frozen), and the sides as one object literal.
    e.sides = { map: side, barrel: side, relic: side, saber: side, amulet: side, hook: side, chest: side };
    e.tiles = (side === 'calm' ? calm : stormy)!;
    return;
  }
  e.sides = {};
  e.tiles = {};
  for (const kind of LOOT_KINDS) {
    // Uncharted: each tile's side is drawn from the game's seed, in the kinds' fixed order.
    const s = randomInt(g, 2) === 0 ? 'calm' : 'stormy';
    e.sides[kind] = s;
    // Shared, not copied: tiles are only read after set-up (the printed sides are frozen below).
    e.tiles[kind] = (s === 'calm' ? calm : stormy)![kind];
  }
}

// ---- scoring helpers ----

/** The best split of `count` tokens into sets (tokens left over score 0). */
export function bestSets(count: number, sets: readonly { size: number; value: number }[]): number {
  return bestSplits(count, sets)[count];
}

/** bestSets of every count from 0 to `max` (each count's best builds on the smaller ones'). */
function bestSplits(max: number, sets: readonly { size: number; value: number }[]): number[] {
  const best = [0];
  for (let n = 1; n <= max; n++) {
    let b = best[n - 1];
    for (const s of sets) if (s.size <= n && best[n - s.size] + s.value > b) b = best[n - s.size] + s.value;
    best.push(b);
  }
  return best;
}

// ---- steps ----

/**
 * A loot effect's step (memo [kind, timing], n the effect's index on the tile): shared objects
 * per kind, timing, index, seat and rank, with one shared memo list per kind and timing (steps
 * and their memos are never edited), so taking a barrel or a saber allocates nothing. Kept in
 * small dense tables, one per kind, timing and index (84), each by seat and rank (512 slots):
 * a single table by all five would be indexed up to 43,008 and, written at a few scattered
 * indexes, become a dictionary (a hash look-up per read).
 */
const LOOT_FX_STEPS: (Step | undefined)[][] = [];
const LOOT_FX_MEMOS: string[][] = [];
/** Timing indexes in LOOT_TIMINGS (a loot effect step's table slot). */
const DUSK = 0;
const NIGHT = 1;
const STEP_SLOTS = 8 * 64;
function lootFxStep(seat: number, rank: number, i: number, k: number, t: number): Step {
  const kind = LOOT_KINDS[k];
  const timing = LOOT_TIMINGS[t];
  if (i < 0 || i >= 4 || seat < -1 || seat >= 7 || rank < 0 || rank >= 64 || !Number.isInteger(rank))
    return step('lootFx', seat, rank, i, [kind, timing]);
  const m = k * 3 + t;
  const table = (LOOT_FX_STEPS[m * 4 + i] ??= new Array<Step | undefined>(STEP_SLOTS).fill(undefined));
  const j = (seat + 1) * 64 + rank;
  return table[j] ?? (table[j] = step('lootFx', seat, rank, i, (LOOT_FX_MEMOS[m] ??= [kind, timing])));
}

/** Pushes the dusk effects of a token just taken (day loot, Stowaway, Smuggler). */
export function pushLootDusk(x: Ctx, seat: number, rank: number, kind: Loot): void {
  const k = kindIndex(kind);
  pushDuskOps(x, seat, rank, k, tileFacts(ext(x.g).tiles).effects[k * 3 + DUSK]);
}

/** Pushes the dusk steps of kind index k, whose dusk operations are `ops` (in order: the first on top). */
function pushDuskOps(x: Ctx, seat: number, rank: number, k: number, ops: LootOp[] | null): void {
  if (ops === null) return;
  for (let i = ops.length - 1; i >= 0; i--) push(x, lootFxStep(seat, rank, i, k, DUSK));
}

/**
 * Takes one token of today's loot (chosen by kind) with its dusk effects: the kind's index found
 * once, the count raised by the kind's fixed name (gainLoot's work, a switch on the index).
 */
export function takeToday(x: Ctx, seat: number, rank: number, kind: Loot): void {
  const g = x.g;
  takeFromDay(g, kind);
  const k = kindIndex(kind);
  if (k < 0) gainLoot(x, seat, kind, 'day');
  else {
    addHeld(g.seats[seat].loot, k);
    lootGained(x, seat, kind, 'day');
  }
  const e = ext(g);
  e.took.push(kind);
  if (k >= 0) pushDuskOps(x, seat, rank, k, tileFacts(e.tiles).effects[k * 3 + DUSK]);
}

/**
 * `loot[LOOT_KINDS[k]] += 1` by the kind's fixed name (heldOf's writing twin; like every
 * per-kind function here, checked against the loop over the kinds by test/engine/loot-kinds.test.ts).
 */
export function addHeld(l: Record<Loot, number>, k: number): void {
  switch (k) {
    case 0:
      l.map++;
      return;
    case 1:
      l.barrel++;
      return;
    case 2:
      l.relic++;
      return;
    case 3:
      l.saber++;
      return;
    case 4:
      l.amulet++;
      return;
    case 5:
      l.hook++;
      return;
    default:
      l.chest++;
  }
}

/**
 * One option per kind, shared by every list (a token's option is the same object whichever
 * kinds lie beside it), and one list per set of kinds (a bit mask by kind index): what
 * `kindOptions` gives for the Galecrest kinds, with seven option objects in all instead of one
 * per kind and list, so the dusk pick (a game's most frequent prompt) reads few objects.
 */
const KIND_OPTIONS: readonly Option[] = LOOT_KINDS.map((k) => Object.freeze({ id: k, label: k }));
const KIND_LISTS: (Option[] | undefined)[] = new Array<Option[] | undefined>(1 << LOOT_KINDS.length).fill(undefined);

/** The `loot` prompt options of some Galecrest tokens: one per distinct kind, in LOOT_KINDS order. */
export function lootOptions(kinds: readonly Loot[]): Option[] {
  let mask = 0;
  for (let j = 0; j < kinds.length; j++) {
    const i = kindIndex(kinds[j]);
    if (i >= 0) mask |= 1 << i;
  }
  return KIND_LISTS[mask] ?? (KIND_LISTS[mask] = kindList(mask));
}

function kindList(mask: number): Option[] {
  const out: Option[] = [];
  for (let i = 0; i < KIND_OPTIONS.length; i++) if (mask & (1 << i)) out.push(KIND_OPTIONS[i]);
  return out;
}

/** The dusk pick's prompt text per rank, built once (the most frequent prompt of a game). */
const PICK_TEXT: string[] = [];
const pickText = (x: Ctx, rank: number): string =>
  PICK_TEXT[rank] ?? (PICK_TEXT[rank] = `${cardName(x, rank)}: take a loot token`);

/** Dusk: take one of today's tokens (nothing if none is left). */
export const pick: Effect = (x, s, answer) => {
  if (answer === undefined) {
    ask(x, s, s.seat, 'loot', pickText(x, s.rank), lootOptions(x.g.days[x.g.day - 1]));
    return;
  }
  takeToday(x, s.seat, s.rank, answer);
};

function discardTargets(x: Ctx, seat: number, where: 'island' | 'ship'): Option[] {
  if (where === 'ship') {
    const others: number[] = [];
    for (let o = 0; o < x.g.players; o++) if (o !== seat) others.push(o);
    return denOptions(x, others);
  }
  const out: Option[] = [];
  for (const c of x.g.island) {
    if (c.seat >= 0 && c.seat !== seat) out.push(charOption(x, c.seat, c.rank));
  }
  return out;
}

/** The reason of a tile's doubloons and reputation, per kind (built once, not per effect). */
const TILE_REASONS: readonly string[] = LOOT_KINDS.map((k) => `${k} tile`);

/** A discard effect's prompt text per kind, island then ship (built once, not per prompt). */
const DISCARD_TEXTS: readonly string[] = LOOT_KINDS.flatMap((kind) => [
  `${kind}: discard another player's character on the island`,
  `${kind}: discard a character from another player's ship`,
]);

/** A timing's index in LOOT_TIMINGS by its first letter (dusk, night, anchor), checked. */
function timingIndex(timing: string): number {
  const t = timing.charCodeAt(0) === 100 ? 0 : timing.charCodeAt(0) === 110 ? 1 : 2;
  return LOOT_TIMINGS[t] === timing ? t : -1;
}

/**
 * One loot effect: step.memo = [kind, timing], step.n = the effect's index on the tile. Read
 * from the tile facts' operations, by the kind's and the timing's indexes.
 */
export const lootFx: Effect = (x, s, answer) => {
  const k = kindIndex(s.memo![0]);
  const t = timingIndex(s.memo![1]);
  if (k < 0 || t < 0) throw new Error(`no loot effect ${s.memo!.join(' ')}`);
  const e = tileFacts(ext(x.g).tiles).effects[k * 3 + t]![s.n!];
  const why = TILE_REASONS[k];
  if (e.op === OP_DOUBLOONS) {
    if (e.n > 0) gain(x, s.seat, e.n, why);
    else pay(x, s.seat, -e.n, why);
  } else if (e.op === OP_REPUTATION) {
    changeReputation(x, s.seat, e.n, why);
  } else if (e.op === OP_DISCARD) {
    const ship = e.n === DISCARD_SHIP;
    if (answer === undefined) {
      const text = DISCARD_TEXTS[k * 2 + (ship ? 1 : 0)];
      ask(x, s, s.seat, 'character', text, discardTargets(x, s.seat, ship ? 'ship' : 'island'));
      return;
    }
    discard(x, idSeat(answer), idRank(answer), ship ? 'den' : 'island', why);
  }
};

const NONE: Step[] = [];

/** A tile's effect as an operation: which (OP_DOUBLOONS...) and its number or sets. */
export interface LootOp {
  op: number;
  /** OP_DOUBLOONS, OP_REPUTATION, OP_KEEP: the number; OP_DISCARD: DISCARD_SHIP or DISCARD_ISLAND. */
  n: number;
  sets: readonly { size: number; value: number }[] | null;
  /** OP_SETS: the sets' value of every count of tokens up to SET_COUNTS, worked out once. */
  values: readonly number[] | null;
}

/** Counts whose set values are kept (a game has 48 tokens; more is worked out when asked). */
const SET_COUNTS = 64;

/** What `count` tokens of a kind with an OP_SETS effect score (bestSets). */
export function setsValue(e: LootOp, count: number): number {
  return count <= SET_COUNTS ? e.values![count] : bestSets(count, e.sets!);
}
export const OP_DOUBLOONS = 0;
export const OP_SETS = 1;
export const OP_REPUTATION = 2;
export const OP_KEEP = 3;
export const OP_DISCARD = 4;
const DISCARD_ISLAND = 0;
const DISCARD_SHIP = 1;

/** What the engine reads of a game's tiles again and again, worked out once per set of sides. */
export interface TileFacts {
  /** Whether any tile has a night side (none on the calm side). */
  hasNight: boolean;
  /** Each kind's anchor effects as operations (LOOT_KINDS order), null for none. */
  anchor: (LootOp[] | null)[];
  /** Each kind's effects per timing as operations, at kind index * 3 + timing index; null for none. */
  effects: (LootOp[] | null)[];
}

function lootOp(e: LootEffect): LootOp {
  if ('doubloons' in e) return { op: OP_DOUBLOONS, n: e.doubloons, sets: null, values: null };
  if ('sets' in e) return { op: OP_SETS, n: 0, sets: e.sets, values: bestSplits(SET_COUNTS, e.sets) };
  if ('reputation' in e) return { op: OP_REPUTATION, n: e.reputation, sets: null, values: null };
  if ('keepOrDoubloons' in e) return { op: OP_KEEP, n: e.keepOrDoubloons, sets: null, values: null };
  if ('discard' in e)
    return { op: OP_DISCARD, n: e.discard === 'ship' ? DISCARD_SHIP : DISCARD_ISLAND, sets: null, values: null };
  return { op: -1, n: 0, sets: null, values: null };
}

// A game's tile set object is shared by its copies (clone.ts) and, on one side (setupBoard), by
// every game of that side; its sides are shared (the printed ones always): the facts of the last
// tile set seen are kept, found again by that object or else by comparing the seven sides.
let lastTiles: TileSet | null = null;
const lastSides: (TileSide | undefined)[] = [];
let lastFacts: TileFacts | null = null;

/** The facts of a game's tiles (computed again only when the sides differ from the last ones). */
export function tileFacts(tiles: TileSet): TileFacts {
  if (lastFacts !== null) {
    if (tiles === lastTiles) return lastFacts;
    // By name: the tile sets of games share one layout (setupBoard), so these are plain reads.
    const same =
      tiles.map === lastSides[0] &&
      tiles.barrel === lastSides[1] &&
      tiles.relic === lastSides[2] &&
      tiles.saber === lastSides[3] &&
      tiles.amulet === lastSides[4] &&
      tiles.hook === lastSides[5] &&
      tiles.chest === lastSides[6];
    if (same) {
      lastTiles = tiles;
      return lastFacts;
    }
  }
  let hasNight = false;
  const anchor: (LootOp[] | null)[] = [];
  const effects: (LootOp[] | null)[] = [];
  const ops = (list: LootEffect[] | undefined) => (list && list.length > 0 ? list.map(lootOp) : null);
  for (let i = 0; i < LOOT_KINDS.length; i++) {
    const side = tiles[LOOT_KINDS[i]];
    lastSides[i] = side;
    if (side.night !== undefined && side.night.length > 0) hasNight = true;
    for (const timing of LOOT_TIMINGS) effects.push(ops(side[timing]));
    anchor.push(effects[i * 3 + 2]);
  }
  lastTiles = tiles;
  lastFacts = { hasNight, anchor, effects };
  return lastFacts;
}

/** Night: every token's night effects, once per token held (none on the calm side). */
export function lootNightSteps(x: Ctx): Step[] {
  const facts = tileFacts(ext(x.g).tiles);
  if (!facts.hasNight) return NONE;
  let out = NONE;
  for (let seat = 0; seat < x.g.players; seat++) {
    const loot = x.g.seats[seat].loot;
    for (let k = 0; k < LOOT_KINDS.length; k++) {
      const fx = facts.effects[k * 3 + NIGHT];
      const held = heldOf(loot, k);
      if (fx === null || held === 0) continue;
      if (out === NONE) out = [];
      for (let t = 0; t < held; t++) for (let i = 0; i < fx.length; i++) out.push(lootFxStep(seat, 0, i, k, NIGHT));
    }
  }
  return out;
}
