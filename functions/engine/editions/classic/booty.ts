// Classic booty: the dusk pick, the saber and Spanish officer effects, campaign scoring.
import {
  denOptions,
  discard,
  gain,
  gainLoot,
  kindOptions,
  lootCount,
  neighbours,
  onIsland,
  pay,
  takeFromDay,
  parseCharId,
} from '../../actions.js';
import { ask, emit, push, step, stepMaker } from '../../core.js';
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

/** Value of each token at the end of a campaign; maps score per complete set. */
export const BOOTY_VALUE: Record<Loot, number> = { chest: 5, jewel: 3, goods: 1, map: 0, relic: -3, saber: 0, officer: 0 };
export const MAP_SET = { size: 3, value: 12 };

/** BOOTY_VALUE in BOOTY_KINDS order (an array read rather than a lookup by kind name). */
const VALUE_BY_INDEX: readonly number[] = BOOTY_KINDS.map((k) => BOOTY_VALUE[k]);

export function bootyValue(loot: Record<Loot, number>): number {
  let v = Math.floor(loot.map / MAP_SET.size) * MAP_SET.value;
  for (let i = 0; i < BOOTY_KINDS.length; i++) v += VALUE_BY_INDEX[i] * loot[BOOTY_KINDS[i]];
  return v;
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
    ask(x, s, s.seat, 'character', 'Saber: discard a character from a neighbour’s den', denOptions(x, neighbours(x.g, s.seat)));
    return;
  }
  const { seat, rank } = parseCharId(answer);
  discard(x, seat, rank, 'den', 'saber');
};

/** End of campaign: sell booty, bank doubloons, clear dens; everything returns to the bag. */
export const scoreCampaign: Effect = (x) => {
  const g = x.g;
  const last = g.round === x.ed.daysPerRound.length;
  for (let seat = 0; seat < g.seats.length; seat++) {
    const me = g.seats[seat];
    const value = bootyValue(me.loot);
    if (value >= 0) gain(x, seat, value, 'booty');
    else pay(x, seat, -value, 'booty');
    const tokens = lootCount(g, seat);
    if (last) me.final = { doubloons: me.doubloons, loot: tokens };
    me.score += me.doubloons;
    if (x.events) emit(x, 'campaignScored', { seat, booty: { ...me.loot }, value, banked: me.doubloons, score: me.score });
    me.doubloons = 0;
    for (const k of BOOTY_KINDS) {
      const n = me.loot[k];
      for (let i = 0; i < n; i++) g.bag.push(k);
      me.loot[k] = 0;
    }
    // Replaced, not pushed to: copies share `out` (clone.ts).
    me.out = me.out.concat(me.den, me.graveyard);
    me.den = [];
    me.graveyard = [];
  }
  for (const day of g.days) {
    appendAll(g.bag, day);
    day.length = 0;
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
  const keys: number[] = [];
  for (let seat = 0; seat < x.g.seats.length; seat++) {
    const den = x.g.seats[seat].den;
    for (let i = 0; i < den.length; i++) if (end[den[i]]) keys.push(den[i] * 8 + seat);
  }
  keys.sort((a, b) => (a >> 3 === b >> 3 ? a - b : b - a));
  const steps: Step[] = [];
  for (const k of keys) steps.push(endStep(k & 7, k >> 3));
  steps.push(SCORE_CAMPAIGN);
  return steps;
}

const endStep = stepMaker('end');
const SCORE_CAMPAIGN = step('scoreCampaign');
