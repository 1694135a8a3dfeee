// Classic booty: the dusk pick, the saber and Spanish officer effects, campaign scoring.
import {
  denOptions,
  discard,
  gain,
  gainLoot,
  kindOptions,
  neighbours,
  onIsland,
  pay,
  takeFromDay,
  parseCharId,
  sortNumbers,
} from '../../actions.js';
import { ask, isLastRound, push, step, stepMaker } from '../../kernel.js';
import type { Ctx, Effect } from '../../edition.js';
import type { Loot, Step } from '../../types.js';

export const BOOTY_KINDS = ['chest', 'jewel', 'goods', 'map', 'relic', 'saber', 'officer'] as const;

export const BOOTY_BAG: Record<Loot, number> = {
  chest: 4,
  jewel: 6,
  goods: 10,
  map: 8,
  relic: 10,
  saber: 6,
  officer: 6,
};

/** Edition.copyLoot: the keys in BOOTY_KINDS order (test/engine/clone.test.ts checks it). */
export const copyBooty = (l: Readonly<Record<Loot, number>>): Record<Loot, number> => ({
  chest: l.chest,
  jewel: l.jewel,
  goods: l.goods,
  map: l.map,
  relic: l.relic,
  saber: l.saber,
  officer: l.officer,
});

/** Edition.addLoot (test/engine/clone.test.ts checks it against `loot[kind] += n` for every kind). */
export function addBooty(l: Record<Loot, number>, kind: Loot, n: number): void {
  switch (kind) {
    case 'chest':
      l.chest += n;
      return;
    case 'jewel':
      l.jewel += n;
      return;
    case 'goods':
      l.goods += n;
      return;
    case 'map':
      l.map += n;
      return;
    case 'relic':
      l.relic += n;
      return;
    case 'saber':
      l.saber += n;
      return;
    case 'officer':
      l.officer += n;
      return;
    default:
      l[kind] += n;
  }
}

/** Value of each token at the end of a campaign; maps score per complete set. */
export const BOOTY_VALUE: Record<Loot, number> = {
  chest: 5,
  jewel: 3,
  goods: 1,
  map: 0,
  relic: -3,
  saber: 0,
  officer: 0,
};
export const MAP_SET = { size: 3, value: 12 };

export function bootyValue(l: Record<Loot, number>): number {
  // Read by fixed names (plain field loads), like bootyToBag below.
  const V = BOOTY_VALUE;
  return (
    Math.floor(l.map / MAP_SET.size) * MAP_SET.value +
    V.chest * l.chest +
    V.jewel * l.jewel +
    V.goods * l.goods +
    V.map * l.map +
    V.relic * l.relic +
    V.saber * l.saber +
    V.officer * l.officer
  );
}

/**
 * Every token a player holds back to the bag, in BOOTY_KINDS order. Written out per kind: a
 * read by a fixed name is a plain field load, a read by a variable kind name is a lookup.
 * Like every per-kind function here, checked against its loop over the kinds by
 * test/engine/loot-kinds.test.ts.
 */
export function bootyToBag(l: Record<Loot, number>, bag: Loot[]): void {
  for (let i = l.chest; i > 0; i--) bag.push('chest');
  for (let i = l.jewel; i > 0; i--) bag.push('jewel');
  for (let i = l.goods; i > 0; i--) bag.push('goods');
  for (let i = l.map; i > 0; i--) bag.push('map');
  for (let i = l.relic; i > 0; i--) bag.push('relic');
  for (let i = l.saber; i > 0; i--) bag.push('saber');
  for (let i = l.officer; i > 0; i--) bag.push('officer');
  l.chest = l.jewel = l.goods = l.map = l.relic = l.saber = l.officer = 0;
}

export const bootyTokens = (l: Record<Loot, number>): number =>
  l.chest + l.jewel + l.goods + l.map + l.relic + l.saber + l.officer;

/** `a.concat(b, c)` for short lists of ranks, without the generic concat. */
function joined(a: readonly number[], b: readonly number[], c: readonly number[]): number[] {
  const out = a.slice();
  for (let i = 0; i < b.length; i++) out.push(b[i]);
  for (let i = 0; i < c.length; i++) out.push(c[i]);
  return out;
}

/** Dusk: take one token of the day (step.n = tokens still to take: the Cook takes 2). */
export const pick: Effect = (x, s, answer) => {
  const day = x.g.days[x.g.day - 1];
  if (answer === undefined) {
    ask(x, s, s.seat, 'loot', 'Take a booty token', kindOptions(x, day));
    return;
  }
  takeFromDay(x.g, answer);
  gainLoot(x, s.seat, answer, 'day', true);
  if ((s.n ?? 1) > 1) push(x, step('pick', s.seat, s.rank, (s.n ?? 1) - 1));
  if (answer === 'saber') push(x, step('saber', s.seat, s.rank));
  if (answer === 'officer' && onIsland(x.g, s.seat, s.rank)) discard(x, s.seat, s.rank, 'island', 'officer');
};

/** Saber: discard a character from the den of a neighbour (left or right), if any. */
export const saber: Effect = (x, s, answer) => {
  if (answer === undefined) {
    ask(
      x,
      s,
      s.seat,
      'character',
      'Saber: discard a character from a neighbour’s den',
      denOptions(x, neighbours(x.g, s.seat)),
    );
    return;
  }
  const { seat, rank } = parseCharId(answer);
  discard(x, seat, rank, 'den', 'saber');
};

/** End of campaign: sell booty, bank doubloons, clear dens; everything returns to the bag. */
export const scoreCampaign: Effect = (x) => {
  const g = x.g;
  const last = isLastRound(x);
  for (let seat = 0; seat < g.seats.length; seat++) {
    const me = g.seats[seat];
    const value = bootyValue(me.loot);
    if (value >= 0) gain(x, seat, value, 'booty');
    else pay(x, seat, -value, 'booty');
    if (last) me.final = { doubloons: me.doubloons, loot: bootyTokens(me.loot) };
    me.score += me.doubloons;
    x.log.campaignScored(seat, me, value);
    me.doubloons = 0;
    bootyToBag(me.loot, g.bag);
    // Replaced, not pushed to: copies share `out` (clone.ts).
    me.out = joined(me.out, me.den, me.graveyard);
    me.den = [];
    me.graveyard = [];
  }
  // Emptied by replacing (setting an array's length is a call into the runtime).
  for (let d = 0; d < g.days.length; d++) {
    appendAll(g.bag, g.days[d]);
    g.days[d] = [];
  }
};

/** `to.push(...from)` without spreading arguments. */
function appendAll<T>(to: T[], from: readonly T[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]);
}

/**
 * The end-of-campaign abilities in the dens, highest rank first, then by seat: one pass over
 * each den (at most a few dozen characters), sorted by rank * 8 + seat.
 */
export function campaignEnd(x: Ctx): Step[] {
  const end = x.fx.end;
  // Keys rank * 8 + (7 - seat): the order is the keys' decreasing order.
  const keys: number[] = [];
  for (let seat = 0; seat < x.g.seats.length; seat++) {
    const den = x.g.seats[seat].den;
    for (let i = 0; i < den.length; i++) if (end[den[i]]) keys.push(den[i] * 8 + (7 - seat));
  }
  const sorted = sortNumbers(keys);
  const steps: Step[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) steps.push(endStep(7 - (sorted[i] & 7), sorted[i] >> 3));
  steps.push(SCORE_CAMPAIGN);
  return steps;
}

const endStep = stepMaker('end');
const SCORE_CAMPAIGN = step('scoreCampaign');
