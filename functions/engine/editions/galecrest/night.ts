// Galecrest night: "Simultaneously, all players activate all night abilities on characters in
// their ship (in any order they choose)." Ruling 7 of docs/rules-galecrest.md.
//
// 1. Loot tiles with night effects resolve as night falls (none on the calm side).
// 2. The Wind Nymph clash is settled as night falls: with two or more Nymphs in the ships,
//    all of them are discarded. It is the only night ability that looks at other ships, and
//    nothing at night can add a Nymph or remove one otherwise, so after this step no
//    player's order can change another player's night.
// 3. Each player, in seat order, resolves their own ship's night abilities in the order they
//    choose. The engine asks (prompt kind `order`, option `<seat>:<rank>`: the next ability
//    to resolve, asked again for the rest) only when the order can change the result. It
//    decides this by trying every order on copies (all answers of any prompt inside, e.g.
//    the Witch's copy), comparing the sets of reachable results of that seat; when every
//    order reaches the same results, it resolves highest rank first without asking.
//    Cheap rules skip the trial where they settle it (orderByRule below; a test compares
//    them with the trial on random games): abilities that only gain doubloons (Barkeep,
//    Brawler, Armorer, a lone Wind Nymph) commute, so a ship without a Mutineer, Topman or
//    Witch never needs one; a Mutineer among such gainers matters only when it would discard
//    a waiting Barkeep; a Topman among them only when its payment can be capped by what the
//    player holds; a Witch among gainers only, in a ship without a Mutineer or Topman, copies
//    a gain (or the Freed Prisoner, at the end of the night) whatever the order; a Witch with a
//    Topman in a ship without a Mutineer is the trial replayed on the doubloons alone
//    (witchWithTopman); a Mutineer with a Witch or a Topman, or a Witch with a resolved Mutineer
//    or Topman in the ship, is the trial replayed on a model of the ship, its doubloons and
//    characters (shipModel); a Witch's trial that would pass its budget answers true (ask) at
//    once, as the trial would (overBudget). Only ships with more than
//    MAX_TRIED abilities waiting (asked at once) or ranks outside that vocabulary reach the trial.
// 4. The Freed Prisoner resolves "at the end of the night", after every player's order; so does
//    a Witch's copy of it (atNightEnd below), if she is still in the ship then.
import { charId, cardName, discard, removeAt, sortedCopy, sortNumbers } from '../../actions.js';
import { cloneWith } from '../../clone.js';
import { ask, pushAll, resume, step, stepMaker, trialCtx } from '../../kernel.js';
import type { Ctx, Effect } from '../../edition.js';
import type { GameState, Option, Step } from '../../types.js';
import { perEdition } from '../../tables.js';
import { lootNightSteps } from './loot.js';

export const FREED_PRISONER = 20;
export const WIND_NYMPH = 37;
const BARKEEP = 8;
const WITCH = 15;
const MUTINEER = 16;
const BRAWLER = 22;
const TOPMAN = 24;
const ARMORER = 28;
/** Ships with more orderable abilities than this are asked without trying every order. */
const MAX_TRIED = 4;
/**
 * Trial results (orders times the Witch's answers) followed at most per decision; past it the
 * engine asks rather than spend more (asking where the order cannot matter costs the player a
 * click, never a result).
 */
const MAX_LEAVES = 48;
/** shipNight memo marker: the order of the rest was found not to matter. */
const ANY_ORDER = '*';

const hasNight = (x: Ctx, rank: number) => x.fx.night[rank] !== undefined;

// The night's steps carry no data but a seat and rank: shared objects (steps are never edited).
const NYMPHS = step('nymphs');
const NIGHT_END = step('nightEnd');
const shipNightStep = stepMaker('shipNight');
const nightStep = stepMaker('night');
/**
 * The steps of the whole night, pushed when it falls: loot night effects (none on the calm
 * side), the Wind Nymph clash, one step per ship with a night ability, the night's end.
 */
function nightSteps(x: Ctx, loot: Step[]): void {
  const steps = loot.slice();
  steps.push(NYMPHS);
  for (let s = 0; s < x.g.players; s++) if (shipWaits(x, s) !== 0) steps.push(shipNightStep(s, 0));
  steps.push(NIGHT_END);
  pushAll(x, steps);
}

/**
 * The night abilities a ship waits for as night falls, the Freed Prisoner's (at the end of the
 * night) left out: 0, the one rank (as -rank) when there is one, else their count (2 or more).
 */
function shipWaits(x: Ctx, seat: number): number {
  const den = x.g.seats[seat].den;
  let count = 0;
  let only = 0;
  for (let i = 0; i < den.length; i++) {
    const r = den[i];
    if (r !== FREED_PRISONER && hasNight(x, r)) {
      count++;
      only = r;
    }
  }
  return count === 1 ? -only : count;
}

/**
 * Night falls. On tiles without night effects and with at most one Wind Nymph in the ships
 * (the clash step would do nothing), the steps that would find nothing to do are left out,
 * which changes nothing: a ship without a night ability gets no shipNight step, a ship with
 * one gets that ability's step at once (its shipNight step would push just that: nothing at
 * night before it can change that ship, ruling 7), the night's end only if a Freed Prisoner
 * is in a ship (nothing at night brings a character into a ship). Pushed straight onto the
 * queue, last first: no list is built.
 */
export function galecrestNight(x: Ctx): void {
  const loot = lootNightSteps(x);
  const g = x.g;
  const night = x.fx.night;
  let nymphs = 0;
  let prisoner = false;
  // One pass over the ships: the Nymphs, a Freed Prisoner, and what each ship waits for
  // (shipWaits, kept in WAITS by seat).
  for (let s = 0; s < g.players; s++) {
    const den = g.seats[s].den;
    let count = 0;
    let only = 0;
    for (let i = 0; i < den.length; i++) {
      const r = den[i];
      if (r === FREED_PRISONER) {
        prisoner = true;
        continue;
      }
      if (r === WIND_NYMPH) nymphs++;
      if (night[r] !== undefined) {
        count++;
        only = r;
      }
    }
    WAITS[s] = count === 1 ? -only : count;
  }
  if (loot.length > 0 || nymphs >= 2) {
    nightSteps(x, loot);
    return;
  }
  const q = g.queue;
  if (prisoner) q.push(NIGHT_END);
  for (let s = g.players - 1; s >= 0; s--) {
    const w = WAITS[s];
    if (w < 0) q.push(nightStep(s, -w));
    else if (w > 0) q.push(shipNightStep(s, 0));
  }
}

/** galecrestNight's shipWaits of every seat (seats < 8), filled and read in one call. */
const WAITS = new Int32Array(8);

/** Night falls: two or more Wind Nymphs in the ships are all discarded. */
export const nymphs: Effect = (x) => {
  const g = x.g;
  let n = 0;
  for (let s = 0; s < g.players; s++) if (g.seats[s].den.includes(WIND_NYMPH)) n++;
  if (n < 2) return;
  for (let s = 0; s < g.players; s++)
    if (g.seats[s].den.includes(WIND_NYMPH)) discard(x, s, WIND_NYMPH, 'den', cardName(x, WIND_NYMPH));
};

/** Ranks as memo strings (`String(r)` once per rank, not per look-up). */
const RANK_TEXT: readonly string[] = Array.from({ length: 64 }, (_, r) => String(r));

/** Whether a ship's rank waits for its night (step.memo: ranks already resolved). */
const waits = (x: Ctx, done: string[] | undefined, r: number): boolean =>
  r !== FREED_PRISONER && hasNight(x, r) && !(done && done.includes(RANK_TEXT[r]));

/** A seat's night abilities still to resolve, highest first. */
function waiting(x: Ctx, s: Step): number[] {
  const out: number[] = [];
  for (const r of x.g.seats[s.seat].den) if (waits(x, s.memo, r)) out.push(r);
  return sortNumbers(out).reverse();
}

/**
 * One seat's night in the player's order; step.memo lists the ranks already resolved. The
 * abilities left are counted in place, their highest rank kept: a ship waiting for one, one
 * answered, or one whose order was found not to matter needs no list of them (the list is
 * built, highest first, only to try the orders or to ask). After the last one nothing is left
 * to order (no night ability brings a character into a ship).
 */
export const shipNight: Effect = (x, s, answer) => {
  const den = x.g.seats[s.seat].den;
  let count = 0;
  let highest = 0;
  for (let i = 0; i < den.length; i++) {
    const r = den[i];
    if (waits(x, s.memo, r)) {
      count++;
      if (r > highest) highest = r;
    }
  }
  if (count === 0) return;
  if (count === 1 && answer === undefined) {
    x.g.queue.push(nightStep(s.seat, highest));
    return;
  }
  let next: number;
  let memo = s.memo ?? NO_MEMO;
  if (answer !== undefined) next = Number(answer.slice(answer.indexOf(':') + 1));
  else if (memo.includes(ANY_ORDER)) next = highest;
  else {
    const left = waiting(x, s);
    if (orderMatters(x, s.seat, left)) {
      const options: Option[] = [];
      for (let i = left.length - 1; i >= 0; i--) options.push(orderOption(x, s.seat, left[i]));
      ask(x, s, s.seat, 'order', 'Night: choose the ability of your ship that resolves next', options);
      return;
    }
    // No order of these abilities changes anything, so neither can any order of what is left
    // after each of them: resolve the rest highest rank first without trying again.
    next = highest;
    memo = [...memo, ANY_ORDER];
  }
  x.g.queue.push(step('shipNight', s.seat, 0, undefined, [...memo, RANK_TEXT[next]]));
  x.g.queue.push(nightStep(s.seat, next));
};

const NO_MEMO: readonly string[] = Object.freeze([]);

// Order options are shared frozen objects per seat and rank, as actions.ts charOption (a prompt
// is replaced, never edited): the label is the card's night text, cut out of its rules text.
const orderOptions = perEdition(() => [] as Option[]);
function orderOption(x: Ctx, seat: number, rank: number): Option {
  const table = orderOptions(x.ed);
  const i = seat * 64 + rank;
  if (table[i] !== undefined) return table[i];
  const text = x.ed.cards[rank]!.text.replace(/^.*Night: /, '').replace(/ Anchor:.*$/, '');
  return (table[i] = Object.freeze({ id: charId(seat, rank), label: `${cardName(x, rank)} (${rank}): ${text}` }));
}

/**
 * Schedules a step for the end of the night (the Witch's copy of the Freed Prisoner, ruling 7):
 * just below the nightEnd step, so it runs after every ship's order and every Freed Prisoner.
 * In an order trial (one seat's night alone, no nightEnd) it goes to the bottom of the queue:
 * after that seat's whole night, which is all of the night that can touch that seat's ship.
 */
export function atNightEnd(x: Ctx, st: Step): void {
  const q = x.g.queue;
  let i = q.length - 1;
  while (i >= 0 && q[i].t !== 'nightEnd') i--;
  q.splice(Math.max(i, 0), 0, st);
}

/** End of the night: every Freed Prisoner in the ships, seat by seat. */
export const nightEnd: Effect = (x) => {
  for (let s = x.g.players - 1; s >= 0; s--) {
    if (x.g.seats[s].den.includes(FREED_PRISONER)) x.g.queue.push(nightStep(s, FREED_PRISONER));
  }
};

// ---- does the order matter? ----

/** Whether some order of `ranks` can end the seat's night differently from another. */
export function orderMatters(x: Ctx, seat: number, ranks: number[]): boolean {
  return orderByRule(x.g, seat, ranks) ?? orderMattersByTrial(x, seat, ranks);
}

/**
 * The doubloons a gainer's night brings (Barkeep, Brawler, Armorer, a lone Wind Nymph after
 * the clash): none of them looks at the ship, and nothing at night changes loot.
 */
function gainerAmount(g: GameState, seat: number, rank: number): number {
  if (rank === ARMORER) return g.seats[seat].loot.saber + g.seats[seat].loot.hook;
  return rank === WIND_NYMPH ? 2 : 1;
}

/**
 * The answer of orderMattersByTrial where a rule settles it, else undefined. Without a Witch
 * nothing at night asks, so each order has one result, and:
 * - gainers alone commute;
 * - a Mutineer discards the lowest ship character in every order unless that one is a
 *   waiting ability resolved first in some orders: only the Barkeep (8) can be lower than
 *   the Mutineer (16) among the others;
 * - a Topman ends at d + G + 4 - min(L, d + 4 + B) (d the doubloons before, G all the gains,
 *   B those before him, L the ship's size, unchanged without a Mutineer): the same for every
 *   B from 0 to G exactly when d + 4 >= L or G = 0.
 */
export function orderByRule(g: GameState, seat: number, ranks: number[]): boolean | undefined {
  if (ranks.length > MAX_TRIED) return undefined;
  let mutineer = false;
  let topman = false;
  let witch = false;
  let gains = 0;
  for (const r of ranks) {
    if (r === WITCH) witch = true;
    else if (r === MUTINEER) mutineer = true;
    else if (r === TOPMAN) topman = true;
    else if (isGainer(r)) gains += gainerAmount(g, seat, r);
    else return undefined;
  }
  const me = g.seats[seat];
  if (witch) {
    // A Mutineer in the ship, waiting or resolved (she may copy him): the model of the ship.
    if (mutineer || me.den.includes(MUTINEER)) return shipModel(g, seat, ranks);
    if (topman) return witchWithTopman(g, seat, ranks);
    // A resolved Topman she may copy: the model too.
    return witchAmongGainers(g, seat, ranks.length) ?? shipModel(g, seat, ranks);
  }
  if (mutineer && topman) return shipModel(g, seat, ranks);
  if (mutineer) return ranks.includes(BARKEEP) && Math.min(...me.den) === BARKEEP;
  if (topman) return !(me.doubloons + 4 >= me.den.length || gains === 0);
  return false;
}

const FACTORIAL = [1, 1, 2, 6, 24];

/** The abilities that only gain doubloons (a lone Wind Nymph after the clash). */
const isGainer = (r: number) => r === BARKEEP || r === BRAWLER || r === ARMORER || r === WIND_NYMPH;

/**
 * A Witch waiting among gainers only: she copies the night ability of a ship character, and
 * when the ship holds no Mutineer or Topman (resolved or not) every choice is a gain or the
 * Freed Prisoner's, whose copy waits for the end of the night in every order. Nothing at night
 * changes what she may copy, so every order reaches the same results: false. Where the trial
 * would pass its budget, true, as the trial answers then (see overBudget). Undefined with a
 * Mutineer or Topman in the ship (resolved: she may copy them), left to the model.
 */
function witchAmongGainers(g: GameState, seat: number, waiting: number): boolean | undefined {
  let choices = 0;
  for (const r of g.seats[seat].den) {
    if (r === MUTINEER || r === TOPMAN) return undefined;
    if (isGainer(r) || r === FREED_PRISONER) choices++;
  }
  return overBudget(waiting, choices);
}

/**
 * Whether the trial of a Witch's ship without a Mutineer passes its budget of MAX_LEAVES
 * results: nothing there discards before the end of the trial (her copy of the Freed Prisoner
 * comes last), so every order reaches her turn and asks her choice among the ship's other night
 * characters, and the trial has exactly orders times max(1, choices) results. Past the budget
 * it answers true (ask) whatever they are: so does this, without running it.
 */
function overBudget(waiting: number, choices: number): boolean {
  return FACTORIAL[waiting] * Math.max(1, choices) > MAX_LEAVES;
}

/**
 * A Witch and a Topman waiting (with gainers or not) in a ship without a Mutineer: the trial
 * replayed on the doubloons alone, which is all these abilities change. The ship's size L is
 * fixed (nothing discards before the end), the Topman maps d to max(d + 4 - L, 0) (pay stops
 * at 0), a gainer adds its amount, the Witch does what the ship character she copies does,
 * and her copy of the Freed Prisoner waits for the end of the trial (+1 per ship character
 * above 20, the Witch discarded if that made 3 or more: a different ship, so a different
 * result). Every order's set of results is compared with the first's, as the trial does;
 * true where the trial would pass its budget (overBudget).
 */
function witchWithTopman(g: GameState, seat: number, ranks: number[]): boolean | undefined {
  const me = g.seats[seat];
  const size = me.den.length;
  const copies: number[] = [];
  let above20 = 0;
  for (const r of me.den) {
    if (r === MUTINEER) return undefined;
    if (r > 20) above20++;
    if (r === TOPMAN || r === FREED_PRISONER || isGainer(r)) copies.push(r);
  }
  if (overBudget(ranks.length, copies.length)) return true;
  let first: Set<number> | null = null;
  const order: number[] = [];
  for (const p of ORDERS[ranks.length]) {
    arrange(order, ranks, p);
    const results = new Set<number>();
    for (const c of copies) {
      let d = me.doubloons;
      let prisoner = false;
      for (const r of order) {
        const ability = r === WITCH ? c : r;
        if (ability === FREED_PRISONER) prisoner = true;
        else if (ability === TOPMAN) d = Math.max(d + 4 - size, 0);
        else d += gainerAmount(g, seat, ability);
      }
      if (prisoner) d += above20;
      // d >= 0: the Witch discarded is the result -1 - d, unlike any other.
      results.add(prisoner && above20 >= 3 ? -1 - d : d);
    }
    if (!first) first = results;
    else if (!sameSet(first, results)) return true;
  }
  return false;
}

/**
 * The trial replayed on a model of one ship: its doubloons and its characters, which is all
 * the night abilities of a ship change (the graveyard gets what leaves the ship; hand, loot and
 * reputation stay). Every order of `ranks`, each branching on the Witch's choices as the
 * trial does on her prompt (the ship characters with a night ability but her, lowest first, as
 * they stand when she resolves; none: nothing), a rank discarded before its turn skipped, her
 * copy of the Freed Prisoner after the order (+1 per ship character above 20, the Witch
 * discarded if that made 3 or more, if she is still in the ship). The same leaf budget: more
 * than MAX_LEAVES results in all asks (true), as the trial does. For the Mutineer with a
 * Witch or a Topman, and a Witch with a resolved Mutineer or Topman in the ship (she may copy
 * them): the cases no cheaper rule settles.
 */
function shipModel(g: GameState, seat: number, ranks: number[]): boolean {
  const me = g.seats[seat];
  const budget = { leaves: MAX_LEAVES };
  let first: Set<number | string> | null = null;
  const order: number[] = [];
  for (const p of ORDERS[ranks.length]) {
    arrange(order, ranks, p);
    const results = new Set<number | string>();
    modelRun(g, seat, order, 0, me.doubloons, me.den.slice(), false, results, budget);
    if (budget.leaves < 0) return true;
    if (!first) first = results;
    else if (!sameSet(first, results)) return true;
  }
  return false;
}

/** One ability on the model ship (Witch copies included, as the ability copied): the doubloons after. */
function modelAbility(g: GameState, seat: number, rank: number, d: number, den: number[]): number {
  if (rank === MUTINEER) {
    removeAt(den, den.indexOf(Math.min(...den)));
    return d + 2;
  }
  if (rank === TOPMAN) return d + 4 - Math.min(den.length, d + 4);
  return d + gainerAmount(g, seat, rank);
}

function modelRun(
  g: GameState,
  seat: number,
  order: number[],
  from: number,
  d: number,
  den: number[],
  prisoner: boolean,
  out: Set<number | string>,
  budget: { leaves: number },
): void {
  if (budget.leaves < 0) return;
  for (let i = from; i < order.length; i++) {
    const r = order[i];
    if (!den.includes(r)) continue;
    if (r !== WITCH) {
      d = modelAbility(g, seat, r, d, den);
      continue;
    }
    const choices = sortedCopy(den).filter((c) => c !== WITCH && NIGHT_RANKS.includes(c));
    if (choices.length === 0) continue;
    for (const c of choices) {
      const mine = den.slice();
      if (c === FREED_PRISONER) modelRun(g, seat, order, i + 1, d, mine, true, out, budget);
      else modelRun(g, seat, order, i + 1, modelAbility(g, seat, c, d, mine), mine, prisoner, out, budget);
    }
    return;
  }
  if (prisoner && den.includes(WITCH)) {
    let n = 0;
    for (const r of den) if (r > 20) n++;
    d += n;
    if (n >= 3) removeAt(den, den.indexOf(WITCH));
  }
  budget.leaves--;
  out.add(shipKey(d, den));
}

/**
 * A model ship's result as one number, d * 2^41 plus the ship's rank set (ranks 1-40: below
 * 2^41), exact below 2^53 (d < 4096); a string beyond (never equal to a number).
 */
function shipKey(d: number, den: number[]): number | string {
  return d >= 0 && d < 4096 ? d * 2 ** 41 + rankSet(den) : `${d}|${rankSet(den)}`;
}

/** The ranks with a night ability (the model's vocabulary; any other rank is left to the trial). */
const NIGHT_RANKS: readonly number[] = [BARKEEP, WITCH, MUTINEER, FREED_PRISONER, BRAWLER, TOPMAN, ARMORER, WIND_NYMPH];

/** The reference answer: every order tried on copies (all answers of any prompt inside). */
export function orderMattersByTrial(x: Ctx, seat: number, ranks: number[]): boolean {
  if (!ranks.some((r) => r === MUTINEER || r === TOPMAN || r === WITCH)) return false;
  if (ranks.length > MAX_TRIED) return true;
  let first: Set<string> | null = null;
  const budget = { leaves: MAX_LEAVES };
  const order: number[] = [];
  for (const p of ORDERS[ranks.length]) {
    arrange(order, ranks, p);
    const results = new Set<string>();
    const h = trialCopy(x, x.g);
    for (let i = order.length - 1; i >= 0; i--) h.queue.push(nightStep(seat, order[i]));
    explore(trialCtx(x, h), seat, results, budget);
    if (budget.leaves < 0) return true;
    if (!first) first = results;
    else if (!sameSet(first, results)) return true;
  }
  return false;
}

/**
 * A copy for a trial night: seats, queue and edition data copied; the deck, bag, day loot,
 * island and everything else shared, because no night ability of a ship touches them (they
 * change doubloons and ships only; the Wind Nymph clash and loot night effects run before).
 */
function trialCopy(x: Ctx, g: GameState): GameState {
  const c = cloneWith(x.ed, g, true);
  c.prompt = null;
  c.queue = [];
  return c;
}

/** Runs the trial's queue to its end, branching on every answer of any prompt on the way. */
function explore(x: Ctx, seat: number, out: Set<string>, budget: { leaves: number }): void {
  if (budget.leaves < 0) return;
  const h = x.g;
  for (let guard = 0; guard < 1000; guard++) {
    const p = h.prompt;
    if (p) {
      for (const o of p.options) {
        const c = trialCopy(x, h);
        c.queue = h.queue.slice();
        const t = trialCtx(x, c);
        resume(t, p.step, o.id);
        explore(t, seat, out, budget);
      }
      return;
    }
    const st = h.queue.pop();
    if (!st) break;
    // A rank resolved earlier in this order but discarded since does nothing (as in play).
    if (st.t === 'night' && !h.seats[st.seat].den.includes(st.rank)) continue;
    resume(x, st);
  }
  budget.leaves--;
  out.add(fingerprint(h, seat));
}

/** 2 ** r for every rank (a table: Math.pow is a slow call here). */
const POW2: readonly number[] = Array.from({ length: 64 }, (_, r) => 2 ** r);

/** A set of ranks (1..40) as one exact number: bit r for rank r. */
function rankSet(xs: number[]): number {
  let m = 0;
  for (let i = 0; i < xs.length; i++) m += POW2[xs[i]];
  return m;
}

/** Everything of the seat a night ability could change, in a comparable form. */
function fingerprint(h: GameState, seat: number): string {
  const me = h.seats[seat];
  let loot = '';
  for (const k in me.loot) loot += `${me.loot[k]},`;
  const track = (h.ext as { track: (number | null)[] }).track;
  return `${me.doubloons}|${rankSet(me.den)}|${rankSet(me.graveyard)}|${rankSet(me.hand)}|${loot}|${track.indexOf(seat)}`;
}

function sameSet<T>(a: Set<T>, b: Set<T>): boolean {
  if (a.size !== b.size) return false;
  for (const v of a) if (!b.has(v)) return false;
  return true;
}

/** Every order of n items as lists of their indexes, the first index slowest (lexicographic). */
function ordersOf(n: number): number[][] {
  if (n <= 1) return [n === 1 ? [0] : []];
  const out: number[][] = [];
  for (let i = 0; i < n; i++) for (const p of ordersOf(n - 1)) out.push([i, ...p.map((j) => (j >= i ? j + 1 : j))]);
  return out;
}

/**
 * The orders tried, by the number of abilities (at most MAX_TRIED: beyond, the engine asks
 * without trying): built once, where a generator made every order's list again at each try.
 */
const ORDERS: readonly (readonly number[])[][] = Array.from({ length: MAX_TRIED + 1 }, (_, n) => ordersOf(n));

/** Fills `order` with `ranks` in the order of `p` (one list per try, filled again per order). */
function arrange(order: number[], ranks: readonly number[], p: readonly number[]): void {
  for (let i = 0; i < p.length; i++) order[i] = ranks[p[i]];
}
