// Rule examples for characters 21-30 of the classic edition. The end-of-campaign halves
// (Treasurer, Gambler +8, Governor's Daughter, Quartermaster -8, First Mate, Captain's relic
// fine) are played out over whole campaigns in campaign.test.ts.
import { describe, expect, it } from 'vitest';
import { applyInPlace, view, viewEvent } from '../../../functions/engine/index.js';
import { coins, day, days, doubloonMoves, lootOf, ofType, pending, seat, setup, snapshot } from './helpers.js';

const G = (n = 3) => Array.from({ length: n }, () => 'goods');
const all = (k: string, n = 3) => Array.from({ length: n }, () => k);
const deal = [[2, 5, 16, 17, 20, 23, 27, 28, 29]];

describe('21 Merchant', () => {
  const deal = [[2, 5, 7, 16, 17, 21, 23, 28, 29]];
  const chests = [
    ['chest', 'goods'],
    ['chest', 'goods'],
    ['chest', 'goods'],
    ['jewel', 'jewel'],
  ];

  it('must trade even when it loses value: 3 chests (worth 15) for 5 doubloons', () => {
    const { g } = setup({ players: 2, deal, loot: [chests] });
    day(g, [28, 2], [[0, 'chest']]);
    day(g, [23, 5], [[0, 'chest']]);
    day(g, [16, 7], [[0, 'chest']]);
    day(g, [21, 17], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'trade', options: ['chest:2', 'chest:3'] });
    // There is no way to decline.
    const before = snapshot(g);
    expect(() => applyInPlace(g, { seat: 0, answer: 'no' })).toThrow(expect.objectContaining({ code: 'ILLEGAL_MOVE' }));
    expect(snapshot(g)).toBe(before);
    const ev = day(g, [], [[0, 'chest:3']]);
    expect(doubloonMoves(ev, 'Merchant')).toEqual([[0, 5]]);
    // The trade is made face up: the table sees the three chests go.
    expect(ofType(ev, 'lootReturned').map((e) => [e.data, e.secret])).toEqual([
      [{ seat: 0, kind: 'chest', n: 3, why: 'Merchant' }, undefined],
    ]);
    expect(lootOf(g, 0)).toEqual({ jewel: 1 });
  });

  it('with a single possible trade makes it without asking (2 chests for 3)', () => {
    const { g } = setup({ players: 2, deal, loot: [chests] });
    day(g, [28, 2], [[0, 'chest']]);
    day(g, [23, 5], [[0, 'chest']]);
    const ev = day(g, [21, 7], [[0, 'chest']]);
    expect(ofType(ev, 'prompt').filter((e) => e.data.kind === 'trade')).toEqual([]);
    expect(doubloonMoves(ev, 'Merchant')).toEqual([[0, 3]]);
    expect(lootOf(g, 0)).toEqual({ chest: 1 }); // the day-3 chest, taken at dusk after the trade
  });

  it('without two identical tokens does nothing', () => {
    const { g } = setup({ players: 2, deal, loot: [chests] });
    day(g, [28, 2], [[0, 'chest']]);
    const ev = day(g, [21, 5], [[0, 'chest']]);
    expect(doubloonMoves(ev, 'Merchant')).toEqual([]);
  });
});

describe('22 Surgeon', () => {
  const deal = [[2, 5, 14, 16, 17, 22, 23, 28, 29]];

  it("takes a discarded character back to hand; the other seats' views and events never show which", () => {
    const { g } = setup({ deal, loot: [[G(), G()]] });
    day(g, [14, 2, 5]); // the Brute discards himself
    const ev = day(g, [22, 16, 17]);
    expect(seat(g, 0)).toMatchObject({ graveyard: [], den: [22], hand: [2, 5, 14, 16, 17, 23, 28, 29] });
    const back = ofType(ev, 'character').find((e) => (e.data.reason ?? e.data.why) === 'Surgeon')!;
    expect(viewEvent(back, 0).data).toMatchObject({ seat: 0, rank: 14, from: 'graveyard', to: 'hand' });
    for (const viewer of [1, 2, null]) {
      expect(viewEvent(back, viewer).data.rank).toBeUndefined();
      expect(JSON.stringify(ev.map((e) => viewEvent(e, viewer)))).not.toMatch(/"rank":14\b/);
      const v = view(g, viewer);
      expect(JSON.stringify(v.seats[0])).not.toMatch(/"hand"/);
      expect(v.seats[0].handSize).toBe(8);
    }
    expect(view(g, 0).me?.hand).toEqual([2, 5, 14, 16, 17, 23, 28, 29]);
  });

  it('asks which one when several are discarded (a secret choice)', () => {
    const { g } = setup({ deal, loot: [[G(), all('officer'), G()]] });
    day(g, [14, 2, 5]);
    day(g, [16, 17, 23]); // officers: everyone's character is discarded
    day(g, [22, 28, 29], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'graveyard', options: ['14', '16'] });
    const ev = day(g, [], [[0, '16']]);
    const answered = ofType(ev, 'answered')[0];
    expect(viewEvent(answered, 1).data.answer).toBeUndefined();
    expect(viewEvent(answered, 0).data.answer).toBe('16');
    expect(seat(g, 0).graveyard).toEqual([14]);
  });

  it('offers the graveyard in rank order, whatever order the cards were discarded in', () => {
    const { g } = setup({ deal, loot: [[all('officer'), G(), G()]] });
    day(g, [16, 17, 23]); // officers: everyone's character is discarded
    day(g, [14, 2, 5]); // the Brute discards himself
    expect(seat(g, 0).graveyard).toEqual([14, 16]);
    expect(g.seats[0].graveyard).toEqual([16, 14]);
    day(g, [22, 28, 29], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'graveyard', options: ['14', '16'] });
  });

  it('with an empty graveyard does nothing', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    const ev = day(g, [22, 2, 5]);
    expect(ofType(ev, 'character').filter((e) => e.data.to === 'hand')).toEqual([]);
  });
});

describe('23 Treasurer', () => {
  it('does nothing during the days (his +1 per goods/jewel/chest comes at the end of the campaign)', () => {
    const { g } = setup({ deal: [[2, 5, 16, 17, 18, 23, 24, 26, 28]], loot: [[G()]] });
    expect(doubloonMoves(day(g, [23, 2, 5]))).toEqual([]);
  });
});

describe('24 Gambler', () => {
  it('pays 1 doubloon per booty token owned', () => {
    const { g } = setup({ deal: [[2, 5, 16, 17, 18, 23, 24, 26, 28]], loot: [[G(), G()]] });
    day(g, [18, 2, 5]); // the Cook takes two goods
    const ev = day(g, [24, 16, 17]);
    expect(doubloonMoves(ev, 'Gambler')).toEqual([[0, -2]]);
    expect(coins(g)[0]).toBe(8);
  });
});

describe("25 Governor's Daughter", () => {
  it('does nothing during the days (+6 alone / pay 3 otherwise at the end of the campaign)', () => {
    const { g } = setup({ deal: [[2, 5, 16, 17, 18, 23, 25, 26, 28]], loot: [[G()]] });
    expect(doubloonMoves(day(g, [25, 25, 5]))).toEqual([]);
  });
});

describe('26 Quartermaster', () => {
  it('gains 1 doubloon per booty token owned', () => {
    const { g } = setup({ deal: [[2, 5, 16, 17, 18, 23, 24, 26, 28]], loot: [[G(), G()]] });
    day(g, [18, 2, 5]);
    const ev = day(g, [26, 16, 17]);
    expect(doubloonMoves(ev, 'Quartermaster')).toEqual([[0, 2]]);
  });
});

describe('27 Granny Wata', () => {
  const deal = [[2, 5, 16, 17, 20, 23, 27, 28, 29]];

  it('alone in the dens earns 2 every night', () => {
    const { g } = setup({ deal, loot: [[G(), G()]] });
    day(g, [27, 2, 5]);
    day(g, [16, 17, 20]);
    expect(coins(g)).toEqual([14, 10, 10]);
  });

  it('two Grannies in dens are both discarded (and earn nothing)', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    const ev = day(g, [27, 27, 5]);
    expect(doubloonMoves(ev)).toEqual([]);
    expect([seat(g, 0).graveyard, seat(g, 1).graveyard]).toEqual([[27], [27]]);
    expect([seat(g, 0).den, seat(g, 1).den]).toEqual([[], []]);
  });

  it('a second Granny arriving later takes the first one with her', () => {
    const { g } = setup({ deal, loot: [[G(), G()]] });
    day(g, [27, 2, 5]);
    expect(coins(g)[0]).toBe(12);
    day(g, [16, 27, 17]);
    expect(coins(g)).toEqual([12, 10, 10]);
    expect([seat(g, 0).den, seat(g, 1).den]).toEqual([[16], [2]]);
    expect([seat(g, 0).graveyard, seat(g, 1).graveyard]).toEqual([[27], [27]]);
  });
});

describe('28 First Mate', () => {
  it('does nothing during the days (+1 per den character at the end of the campaign)', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    expect(doubloonMoves(day(g, [28, 2, 5]))).toEqual([]);
  });
});

describe('29 Captain', () => {
  it('gains 3 doubloons in the day', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    const ev = day(g, [29, 2, 5]);
    expect(doubloonMoves(ev, 'Captain')).toEqual([[0, 3]]);
  });

  it('at the end of the campaign pays 3 per cursed relic owned: 6 for 2 relics', () => {
    const { g } = setup({ players: 2, deal, loot: [[all('relic', 2), all('relic', 2), G(2), G(2), G(2), G(2)]] });
    days(g, [
      [28, 2],
      [27, 5],
      [16, 17],
      [17, 16],
      [20, 20],
    ]); // seat 0 picks first: relic, relic, then goods
    expect(lootOf(g, 0)).toMatchObject({ relic: 2 });
    const ev = day(g, [29, 23]);
    expect(doubloonMoves(ev, 'Captain')).toEqual([
      [0, 3],
      [0, -6],
    ]);
  });
});

describe('30 Spanish Governor', () => {
  it('discards every character of his den and survives himself', () => {
    const { g } = setup({ deal: [[2, 5, 16, 17, 20, 23, 28, 29, 30]], loot: [[G(), G(), all('jewel')]] });
    days(g, [
      [23, 2, 5],
      [16, 17, 20],
    ]);
    day(g, [30, 28, 29]);
    expect(seat(g, 0)).toMatchObject({ den: [30], graveyard: [16, 23] });
  });
});
