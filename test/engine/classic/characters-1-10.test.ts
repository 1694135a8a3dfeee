// Rule examples for characters 1-10 of the classic edition (rules reference:
// docs/rules/reference/classic-characters.md; engine choices: docs/rules-classic.md).
import { describe, expect, it } from 'vitest';
import { coins, day, days, doubloonMoves, handOnly, lootOf, ofType, pending, seat, setup } from './helpers.js';

const G3 = (n = 3) => Array.from({ length: n }, () => 'goods');

describe('1 Parrot', () => {
  it('is discarded and its replacement, placed by its own rank, still acts in the day', () => {
    const { g } = setup({ deal: [[1, 2, 5, 14, 16, 17, 23, 28, 29]], loot: [[G3()]] });
    day(g, [1, 16, 2], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'hand', options: ['2', '5', '14', '16', '17', '23', '28', '29'] });
    const ev = day(g, [], [[0, '29']]);
    // The Captain now stands rightmost: its day ability (+3) still resolves, it picks first.
    expect(coins(g)).toEqual([13, 10, 10]);
    expect(seat(g, 0)).toMatchObject({ den: [29], graveyard: [1], hand: [2, 5, 14, 16, 17, 23, 28] });
    expect(ofType(ev, 'lootGained')[0].data.seat).toBe(0);
  });

  it('offers the hand in rank order, whatever order it was dealt in, and moves the replacement openly from hand to ship', () => {
    const { g } = setup({ deal: [[29, 1, 16, 2, 28, 5, 14, 23, 17]], loot: [[G3()]] });
    day(g, [1, 16, 2], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'hand', options: ['2', '5', '14', '16', '17', '23', '28', '29'] });
    const ev = day(g, [], [[0, '28']]);
    const moves = ofType(ev, 'character')
      .filter((e) => e.data.reason === 'Parrot')
      .map((e) => e.data);
    expect(moves).toEqual([
      { seat: 0, rank: 1, from: 'island', to: 'graveyard', reason: 'Parrot' },
      { seat: 0, rank: 28, from: 'hand', to: 'island', reason: 'Parrot' },
    ]);
  });

  it("the replacement takes its slot by the colour tie-break (seat 0's Brute sits left of seat 1's)", () => {
    const { g } = setup({ deal: [[1, 2, 5, 14, 16, 17, 23, 28, 29]], loot: [[G3()]] });
    // Rank 14: red (seat 0) has tie-break 1, yellow (seat 1) 6 -> seat 1's Brute is the rightmost.
    day(g, [1, 14, 2], [[0, '14']]);
    expect(seat(g, 1)).toMatchObject({ den: [], graveyard: [14] });
    expect(seat(g, 0)).toMatchObject({ den: [14], graveyard: [1] });
  });

  it('with one card left in hand places it without asking', () => {
    const { g } = setup({ deal: [[1, 2, 5, 7, 16, 17, 23, 28, 29]], loot: [[G3()]] });
    handOnly(g, 0, [1, 7]); // set-up: the last two cards
    const ev = day(g, [1, 16, 2]);
    expect(ofType(ev, 'prompt')).toEqual([]);
    expect(seat(g, 0)).toMatchObject({ den: [7], graveyard: [1], hand: [] });
    expect(coins(g)[0]).toBe(11); // the Barkeep earned at night
  });

  it('with an empty hand is just discarded (no character, no booty)', () => {
    const { g } = setup({ deal: [[1, 2, 5, 7, 16, 17, 23, 28, 29]], loot: [[G3()]] });
    handOnly(g, 0, [1]); // set-up: the Parrot is the last card
    day(g, [1, 16, 2]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [1], hand: [] });
    expect(lootOf(g, 0)).toEqual({});
    expect(g.days[0]).toEqual(['goods']);
  });
});

describe('2 Monkey', () => {
  const deal = [[2, 5, 7, 12, 16, 17, 20, 23, 28]];
  const loot = [[['relic', 'relic', 'relic'], G3()]];

  it('passes every cursed relic of its den to the player on the left (seat + 1)', () => {
    const { g } = setup({ deal, loot });
    day(g, [16, 17, 20]);
    const ev = day(g, [2, 5, 7]);
    expect(ofType(ev, 'lootPassed').map((e) => e.data)).toEqual([
      expect.objectContaining({ from: 0, to: 1, kind: 'relic', n: 1 }),
    ]);
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{ goods: 1 }, { relic: 2 }, { relic: 1, goods: 1 }]);
  });

  it('of the last seat passes to seat 0', () => {
    const { g } = setup({ deal, loot });
    day(g, [16, 17, 20]);
    day(g, [5, 7, 2]);
    expect(g.seats.map((s) => s.loot.relic)).toEqual([2, 1, 0]);
  });
});

describe('3 Beggar', () => {
  const deal = [[2, 3, 5, 14, 16, 17, 23, 28, 29]];

  it('takes 3 doubloons from the owner of the highest character on the ship', () => {
    const { g } = setup({ deal, loot: [[G3()]] });
    day(g, [3, 29, 16]);
    // The Beggar acts before the Captain: 10 - 3 + 3.
    expect(coins(g)).toEqual([13, 10, 10]);
  });

  it('gets nothing when the highest character is his own: no doubloons move at all', () => {
    const { g } = setup({ deal, loot: [[G3()]] });
    const ev = day(g, [3, 2, 2]);
    expect(coins(g)).toEqual([10, 10, 10]);
    expect(doubloonMoves(ev, 'Beggar')).toEqual([]);
  });

  it("takes from seat 0 when seat 0's character is the highest, and pays the last seat", () => {
    const { g } = setup({ deal, loot: [[G3()]] });
    const ev = day(g, [29, 2, 3]);
    expect(doubloonMoves(ev, 'Beggar')).toEqual([
      [0, -3],
      [2, 3],
    ]);
  });
});

describe('4 Recruiter', () => {
  const deal = [[2, 4, 5, 7, 16, 17, 20, 23, 28]];
  const loot = [[G3(), G3(), ['jewel', 'jewel', 'jewel']]];

  it('takes the only character of the den back to hand without asking', () => {
    const { g } = setup({ deal, loot });
    day(g, [23, 16, 2]);
    const ev = day(g, [4, 17, 5]);
    expect(ofType(ev, 'prompt')).toEqual([]);
    expect(seat(g, 0)).toMatchObject({ den: [4], hand: [2, 5, 7, 16, 17, 20, 23, 28] });
  });

  it('asks which character returns when the den holds several', () => {
    const { g } = setup({ deal, loot });
    days(g, [
      [23, 16, 2],
      [16, 17, 5],
    ]);
    day(g, [4, 20, 7], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:16', '0:23'] });
    day(g, [], [[0, '0:16']]);
    expect(seat(g, 0)).toMatchObject({ den: [4, 23], hand: [2, 5, 7, 16, 17, 20, 28] });
  });

  it('with an empty den does nothing and enters the den', () => {
    const { g } = setup({ deal, loot });
    day(g, [4, 16, 2]);
    expect(seat(g, 0)).toMatchObject({ den: [4] });
  });
});

describe('5 Cabin Boy', () => {
  it('takes no booty; the token stays for a lower character, and what is left stays on its day', () => {
    const { g } = setup({ deal: [[2, 3, 5, 7, 16, 17, 20, 23, 28]], loot: [[G3(), ['jewel', 'jewel', 'jewel']]] });
    day(g, [5, 28, 2]);
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{}, { goods: 1 }, { goods: 1 }]);
    expect(seat(g, 0).den).toEqual([5]);
    expect(g.days[0]).toEqual(['goods']);
    day(g, [16, 17, 20]);
    // Day 2 offers only its own tokens; the leftover goods stays on day 1.
    expect(g.days[0]).toEqual(['goods']);
    expect(g.seats.map((s) => s.loot.jewel)).toEqual([1, 1, 1]);
  });
});

describe('6 Preacher', () => {
  it('keeps the one booty token of his choice and returns the others to the bag', () => {
    const { g } = setup({
      players: 2,
      deal: [[2, 5, 6, 7, 16, 17, 20, 23, 28]],
      loot: [
        [
          ['chest', 'goods'],
          ['jewel', 'relic'],
          ['goods', 'goods'],
        ],
      ],
    });
    day(g, [28, 2], [[0, 'chest']]);
    day(g, [23, 5], [[0, 'relic']]);
    const bag = g.bag.length;
    day(g, [6, 7], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['chest', 'relic'] });
    const ev = day(g, [], [[0, 'chest']]);
    expect(lootOf(g, 0)).toEqual({ chest: 1, goods: 1 });
    expect(g.bag.length).toBe(bag + 1);
    // Den booty is face down: the returned kind is secret to seat 0.
    const ret = ofType(ev, 'lootReturned')[0];
    expect(ret.data.kind).toBeUndefined();
    expect(ret.secret).toEqual({ seat: 0, data: { kind: 'relic' } });
  });

  it('with a single kind keeps one token without asking', () => {
    const { g } = setup({
      players: 2,
      deal: [[2, 5, 6, 7, 16, 17, 18, 23, 28]],
      loot: [
        [
          ['goods', 'goods'],
          ['jewel', 'jewel'],
        ],
      ],
    });
    day(g, [18, 2]); // the Cook takes both goods
    const ev = day(g, [6, 5]);
    expect(ofType(ev, 'prompt')).toEqual([]);
    expect(lootOf(g, 0)).toEqual({ goods: 1, jewel: 1 });
  });
});

describe('7 Barkeep', () => {
  it('earns 1 doubloon every night while in the den', () => {
    const { g } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[G3(), G3()]] });
    day(g, [7, 16, 2]);
    expect(coins(g)).toEqual([11, 10, 10]);
    day(g, [16, 17, 5]);
    expect(coins(g)).toEqual([12, 10, 10]);
  });
});

describe('8 Waitress', () => {
  const deal = [[2, 5, 7, 8, 16, 17, 18, 23, 28]];

  it('may discard a treasure map at night for 3 doubloons', () => {
    const { g } = setup({ players: 2, deal, loot: [[['map', 'map']]] });
    day(g, [8, 2], [], true);
    expect(g.phase).toBe('night');
    expect(pending(g)).toEqual({ seat: 0, kind: 'may', options: ['yes', 'no'] });
    day(g, [], [[0, 'yes']]);
    expect(coins(g)).toEqual([13, 10]);
    expect(lootOf(g, 0)).toEqual({});
  });

  it('discards the map face up: every seat sees which token went back', () => {
    const { g } = setup({ players: 2, deal, loot: [[['map', 'map']]] });
    const ev = day(g, [8, 2], [[0, 'yes']]);
    const back = ofType(ev, 'lootReturned');
    expect(back.map((e) => [e.data, e.secret])).toEqual([[{ seat: 0, kind: 'map', n: 1, why: 'Waitress' }, undefined]]);
  });

  it('may decline and keep the map', () => {
    const { g } = setup({ players: 2, deal, loot: [[['map', 'map']]] });
    day(g, [8, 2], [[0, 'no']]);
    expect(coins(g)).toEqual([10, 10]);
    expect(lootOf(g, 0)).toEqual({ map: 1 });
  });

  it('is not asked without a map, and trades at most one map a night', () => {
    const { g } = setup({
      players: 2,
      deal,
      loot: [
        [
          ['map', 'map'],
          ['goods', 'goods'],
          ['goods', 'goods'],
          ['jewel', 'jewel'],
        ],
      ],
    });
    day(g, [18, 2]); // the Cook takes both maps
    day(g, [8, 5], [[0, 'yes']]);
    expect([coins(g)[0], g.seats[0].loot.map]).toEqual([13, 1]);
    day(g, [16, 7], [[0, 'yes']]);
    expect([coins(g)[0], g.seats[0].loot.map]).toEqual([16, 0]);
    const ev = day(g, [17, 16]);
    expect(ofType(ev, 'prompt')).toEqual([]);
  });
});

describe('9 Carpenter', () => {
  it('with 7 doubloons loses 3 (half, rounded down)', () => {
    const { g } = setup({ deal: [[2, 5, 9, 15, 16, 17, 20, 23, 28]], loot: [[G3(), G3()]] });
    day(g, [15, 2, 5]); // the Gunner pays 3 even with every den empty
    expect(coins(g)).toEqual([7, 10, 10]);
    const ev = day(g, [9, 16, 17]);
    expect(doubloonMoves(ev, 'Carpenter')).toEqual([[0, -3]]);
    expect(coins(g)).toEqual([4, 10, 10]);
  });

  it('with 10 doubloons loses 5', () => {
    const { g } = setup({ deal: [[2, 5, 9, 15, 16, 17, 20, 23, 28]], loot: [[G3()]] });
    day(g, [9, 2, 5]);
    expect(coins(g)).toEqual([5, 10, 10]);
  });
});

describe('10 French Officer', () => {
  const deal = [[2, 5, 10, 15, 16, 17, 20, 23, 24]];

  it('with fewer than 9 doubloons gains 5', () => {
    const { g } = setup({ deal, loot: [[G3(), G3()]] });
    day(g, [15, 2, 5]); // Gunner: 10 -> 7
    day(g, [10, 16, 17]);
    expect(coins(g)).toEqual([12, 10, 10]);
  });

  it('at exactly 9 doubloons gains nothing', () => {
    const { g } = setup({ deal, loot: [[G3(), G3(), G3()]] });
    day(g, [16, 2, 5]); // seat 0 takes a goods
    day(g, [24, 17, 20]); // Gambler: pays 1 per token -> 9
    expect(coins(g)[0]).toBe(9);
    const ev = day(g, [10, 23, 16]);
    expect(doubloonMoves(ev, 'French Officer')).toEqual([]);
    expect(coins(g)[0]).toBe(9);
  });
});
