// Rule examples for Galecrest abilities with nothing to act on (empty ships, hands, graveyards,
// bags, loot displays, no tomorrow) and for their boundaries. Three players on the three lowest
// reputation spaces (12, 11, 10 doubloons) unless a test says otherwise.
import { describe, expect, it } from 'vitest';
import {
  day,
  giveLoot,
  handOnly,
  lastDay,
  leaveInBag,
  lootOf,
  moves,
  ofType,
  pending,
  rep,
  seat,
  setup,
  same,
  toShip,
} from './helpers.js';

const amulets = [[same('amulet')]];
const deal = (first: number, ...rest: number[]) => [
  [
    first,
    ...[32, 35, 4, 21, 22, 24].filter((r) => r !== first && !rest.includes(r)).slice(0, 5 - rest.length),
    ...rest,
  ],
];

describe('abilities with nothing to act on', () => {
  it('1 Scout with an empty hand is just discarded', () => {
    const { g } = setup({ deal: deal(1), loot: amulets });
    handOnly(g, 0, [1]);
    day(g, [1, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [1], hand: [] });
  });

  it('4 Innkeeper with an empty ship returns nothing', () => {
    const { g } = setup({ deal: deal(4), loot: amulets });
    const ev = day(g, [4, 32, 35]);
    expect(ofType(ev, 'character').filter((e) => e.data.to === 'hand')).toEqual([]);
    expect(seat(g, 0).den).toEqual([4]);
  });

  it('7 Preacher with a single token keeps it without asking and gains no reputation', () => {
    const { g } = setup({ deal: deal(7), loot: amulets });
    giveLoot(g, 0, { map: 1 });
    const ev = day(g, [7, 32, 35]);
    expect(ofType(ev, 'prompt')).toEqual([]);
    expect(lootOf(g, 0)).toEqual({ map: 1, amulet: 1 });
    expect(rep(g)[0]).toBe(0);
  });

  it('9 Stowaway with an empty bag draws nothing and is still discarded', () => {
    const { g } = setup({ deal: deal(9), loot: amulets });
    leaveInBag(g, [], 2);
    day(g, [9, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [9] });
    expect(lootOf(g, 0)).toEqual({});
  });

  it('18 Gunner with every ship empty discards nothing and keeps its reputation', () => {
    const { g } = setup({ deal: deal(18), loot: amulets });
    const ev = day(g, [18, 32, 35]);
    expect(ofType(ev, 'reputation').filter((e) => e.data.reason === 'Gunner')).toEqual([]);
    expect(rep(g)).toEqual([0, 1, 2]);
  });

  it('19 Necromancer with a relic but an empty graveyard keeps the relic', () => {
    const { g } = setup({ deal: deal(19), loot: amulets });
    giveLoot(g, 0, { relic: 1 });
    day(g, [19, 32, 35]);
    expect(lootOf(g, 0)).toEqual({ relic: 1, amulet: 1 });
    expect(seat(g, 0).den).toEqual([19]);
  });

  it('23 Thief with nothing to take from the neighbours loses no reputation', () => {
    const { g } = setup({ deal: deal(23), loot: amulets, reputation: [null, null, 0, 1, 2, null] });
    const ev = day(g, [23, 32, 35]);
    expect(ofType(ev, 'lootPassed')).toEqual([]);
    expect(rep(g)).toEqual([2, 3, 4]);
  });

  it('25 Recruiter with an empty hand plays nothing into the ship', () => {
    const { g } = setup({ deal: deal(25), loot: amulets });
    handOnly(g, 0, [25]);
    day(g, [25, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [25], hand: [] });
  });

  it('27 Watchman on the last day of the voyage swaps nothing (there is no tomorrow)', () => {
    const { g } = setup({ deal: deal(27), loot: [[same('map'), same('map'), same('map'), same('amulet')]] });
    lastDay(g);
    const ev = day(g, [27, 32, 35]);
    expect(ofType(ev, 'lootSwapped')).toEqual([]);
  });

  it('27 Watchman with today’s loot gone swaps nothing', () => {
    const { g } = setup({ deal: deal(27, 14), loot: [[same('hook'), same('chest')]] });
    const ev = day(g, [14, 27, 35]); // the Bodyguard sends the three hooks back first
    expect(ofType(ev, 'lootSwapped')).toEqual([]);
    expect(g.days[1]).toEqual(same('chest'));
  });

  it('27 Watchman with nothing laid out for tomorrow asks nothing and swaps nothing', () => {
    const { g } = setup({ deal: deal(27), loot: [[['map', 'amulet', 'amulet']]] });
    // The bag ran dry after today's tokens were laid out: the other days are empty, every
    // other token is held (by seat 2).
    leaveInBag(g, [], 2);
    for (const later of g.days.slice(1)) for (const k of later.splice(0)) g.seats[2].loot[k]++;
    const ev = day(g, [27, 32, 35], [], true);
    expect(ofType(ev, 'lootSwapped')).toEqual([]);
    expect(g.days[0]).toEqual(['map', 'amulet', 'amulet']);
    // The first question of the day is the dusk pick of the rightmost character (seat 2's).
    expect(pending(g)).toMatchObject({ seat: 2, kind: 'loot' });
  });

  it('30 Merchant without loot trades nothing', () => {
    const { g } = setup({ deal: deal(30), loot: amulets });
    const ev = day(g, [30, 32, 35]);
    expect(moves(ev, 'Merchant')).toEqual([]);
  });

  it('30 Merchant offers at most 3 identical tokens', () => {
    const { g } = setup({ deal: deal(30), loot: amulets });
    giveLoot(g, 0, { barrel: 4 });
    day(g, [30, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'trade', options: ['barrel:1', 'barrel:2', 'barrel:3'] });
  });

  it('31 Surgeon with an empty graveyard takes nothing back', () => {
    const { g } = setup({ deal: deal(31), loot: amulets });
    const ev = day(g, [31, 32, 35]);
    expect(ofType(ev, 'character').filter((e) => e.data.to === 'hand')).toEqual([]);
  });

  it('40 Governor with only himself gains no reputation', () => {
    const { g } = setup({ deal: deal(40), loot: amulets });
    day(g, [40, 32, 35]);
    expect(rep(g)).toEqual([0, 1, 2]);
    expect(seat(g, 0).den).toEqual([40]);
  });
});

describe('boundaries', () => {
  it('16 Mutineer alone in the ship discards himself, and still gains 2', () => {
    const { g } = setup({ deal: deal(16), loot: amulets });
    const ev = day(g, [16, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [16] });
    expect(moves(ev, 'Mutineer')).toEqual([[0, 2]]);
  });

  it('24 Topman with five ship characters loses 1 net (+4, -5)', () => {
    const { g } = setup({ deal: [[24, 4, 21, 22, 32, 35]], loot: amulets });
    toShip(g, 0, [4, 21, 22, 32]);
    const ev = day(g, [24, 35, 35]);
    expect(moves(ev, 'Topman')).toEqual([
      [0, 4],
      [0, -5],
    ]);
  });

  it('29 Infantry: of two Infantries only the rightmost (higher reputation) gains 5', () => {
    const { g } = setup({ deal: deal(29), loot: amulets });
    const ev = day(g, [29, 29, 4]);
    expect(moves(ev, 'Infantry')).toEqual([[1, 5]]);
  });

  it('12 Officer below 12 tops up to exactly 12 and gains no reputation', () => {
    const { g } = setup({ deal: deal(12), loot: amulets });
    const ev = day(g, [32, 35, 12]);
    expect(moves(ev, 'Officer')).toEqual([[2, 2]]);
    expect(rep(g)).toEqual([0, 1, 2]);
  });

  it('21 Bosun counts a ship character ranked 20 and not one ranked 22', () => {
    const { g } = setup({ deal: [[21, 20, 22, 32, 35, 4]], loot: amulets });
    toShip(g, 0, [20, 22]);
    const ev = day(g, [21, 35, 35]);
    expect(moves(ev, 'Bosun')).toEqual([[0, 2]]);
  });

  it('33 Gambler without loot pays nothing; 38 First Mate with an empty ship pays nothing', () => {
    const { g } = setup({ deal: deal(33, 38), loot: amulets });
    const ev = day(g, [33, 38, 35]);
    expect([...moves(ev, 'Gambler'), ...moves(ev, 'First Mate')]).toEqual([]);
  });

  it('35 Collector: 2, 3 and 4 kinds score 1, 3 and 5; a single kind scores nothing', () => {
    const value = (loot: Record<string, number>) => {
      const { g } = setup({
        deal: [[35, 4, 21, 22, 32, 24]],
        loot: [[same('map'), same('map'), same('map'), same('barrel')]],
      });
      lastDay(g);
      toShip(g, 0, [35]);
      giveLoot(g, 0, loot);
      const ev = day(g, [32, 4, 4]);
      return ofType(ev, 'anchorAbility').find((e) => e.data.seat === 0 && e.data.rank === 35)!.data.value;
    };
    // The day's barrel makes one kind more.
    expect([value({}), value({ map: 1 }), value({ map: 1, relic: 1 }), value({ map: 1, relic: 1, saber: 1 })]).toEqual([
      0, 1, 3, 5,
    ]);
  });
});
