// Rule examples for characters 11-20 of the classic edition.
import { describe, expect, it } from 'vitest';
import { coins, day, days, doubloonMoves, leaveInBag, lootOf, ofType, pending, seat, setup } from './helpers.js';

const G = (n = 3) => Array.from({ length: n }, () => 'goods');
const all = (k: string, n = 3) => Array.from({ length: n }, () => k);

describe('11 Voodoo Witch', () => {
  it("gains 2 for each of her owner's characters discarded this campaign", () => {
    const { g } = setup({ deal: [[2, 5, 11, 14, 16, 17, 20, 23, 28]], loot: [[G(), all('officer'), G()]] });
    day(g, [14, 2, 5]); // the Brute is the highest: he discards himself
    day(g, [16, 17, 20]); // everyone takes an officer: every character is discarded
    expect(g.seats.map((s) => s.graveyard.length)).toEqual([2, 1, 1]);
    const ev = day(g, [11, 23, 28]);
    expect(doubloonMoves(ev, 'Voodoo Witch')).toEqual([[0, 4]]);
  });

  it("counts only this campaign's discards", () => {
    const { g } = setup({
      players: 2,
      deal: [
        [2, 5, 11, 14, 16, 17, 20, 23, 28],
        [3, 4, 6, 7, 8, 10],
      ],
      loot: [
        [all('goods', 2), all('goods', 2), all('goods', 2), all('goods', 2), all('goods', 2), all('jewel', 2)],
        [all('goods', 2)],
      ],
    });
    days(g, [
      [14, 2],
      [2, 5],
      [5, 16],
      [16, 17],
      [17, 20],
      [20, 23],
    ]);
    expect([g.round, g.day]).toEqual([2, 1]);
    expect(seat(g, 0).graveyard).toEqual([]);
    const ev = day(g, [11, 4]);
    expect(doubloonMoves(ev, 'Voodoo Witch')).toEqual([]);
    expect(coins(g)[0]).toBe(10);
  });
});

describe('12 Freed Slave', () => {
  it('earns 1 each night per character of the den ranked above 12', () => {
    const { g } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[G(), G(), all('jewel')]] });
    days(g, [
      [23, 2, 5],
      [7, 16, 17],
    ]);
    const ev = day(g, [12, 20, 28]);
    expect(doubloonMoves(ev, 'Freed Slave')).toEqual([[0, 1]]); // the 23, not the 7 nor himself
  });
});

describe('13 Mutineer', () => {
  it('discards the lowest other character of the den at night and gains 2 (before the Barkeep earns)', () => {
    const { g } = setup({ deal: [[2, 5, 7, 13, 16, 17, 20, 23, 28]], loot: [[G(), G(), all('jewel')]] });
    day(g, [7, 2, 5]);
    day(g, [23, 16, 17]);
    expect(coins(g)[0]).toBe(12);
    const ev = day(g, [13, 20, 28]);
    // Night abilities resolve in decreasing rank: the Mutineer (13) removes the Barkeep (7) first.
    expect(doubloonMoves(ev)).toEqual([[0, 2]]);
    expect(seat(g, 0)).toMatchObject({ den: [13, 23], graveyard: [7] });
  });

  it('alone in the den discards nothing and gains nothing', () => {
    const { g } = setup({ deal: [[2, 5, 7, 13, 16, 17, 20, 23, 28]], loot: [[G()]] });
    day(g, [13, 2, 5]);
    expect(seat(g, 0)).toMatchObject({ den: [13], graveyard: [] });
    expect(coins(g)[0]).toBe(10);
  });
});

describe('14 Brute', () => {
  const deal = [[2, 5, 14, 16, 17, 20, 23, 28, 29]];

  it('discards the highest character on the ship, whoever owns it', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    day(g, [14, 28, 5]);
    expect(seat(g, 1)).toMatchObject({ den: [], graveyard: [28] });
    expect(lootOf(g, 1)).toEqual({});
    expect(seat(g, 0).den).toEqual([14]);
  });

  it('discards himself when he is the highest', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    day(g, [14, 2, 5]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [14] });
    expect(lootOf(g, 0)).toEqual({});
  });

  it('among equal ranks discards the rightmost by the colour tie-break, not by seat', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    // Rank 20: red (seat 0) 6, yellow (seat 1) 5 -> seat 0's Armorer is the rightmost.
    day(g, [20, 20, 14]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [20] });
    expect(seat(g, 1).den).toEqual([20]);
  });

  it('acts after a lower Parrot: a Captain put on the ship by the Parrot can be his victim', () => {
    const { g } = setup({ deal: [[1, 2, 5, 14, 16, 17, 20, 23, 29]], loot: [[G()]] });
    day(g, [1, 14, 5], [[0, '29']]);
    expect(seat(g, 0)).toMatchObject({ graveyard: [1, 29], den: [] });
    expect(coins(g)[0]).toBe(10); // the Captain was discarded before his day
  });
});

describe('15 Gunner', () => {
  const deal = [[2, 5, 15, 16, 17, 20, 23, 28, 29]];

  it('pays 3 and discards a character from any den, his own included', () => {
    const { g } = setup({ deal, loot: [[G(), G()]] });
    day(g, [23, 16, 2]);
    day(g, [15, 17, 5], [], true);
    expect(coins(g)).toEqual([7, 10, 10]);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:23', '1:16', '2:2'] });
    day(g, [], [[0, '0:23']]);
    expect(seat(g, 0)).toMatchObject({ den: [15], graveyard: [23] });
  });

  it('pays 3 even when every den is empty', () => {
    const { g } = setup({ deal, loot: [[G()]] });
    day(g, [15, 2, 5]);
    expect(coins(g)).toEqual([7, 10, 10]);
  });

  it('pays what he can (nothing) and still shoots', () => {
    // 4 players: three Beggars and a Carpenter strip seat 1 of every doubloon first.
    const { g } = setup({
      players: 4,
      deal: [[2, 3, 5, 7, 9, 15, 16, 17, 23]],
      loot: [[all('goods', 4), all('goods', 4), all('jewel', 4), all('map', 4)]],
    });
    day(g, [3, 9, 2, 5]); // Beggar takes 3 (10 -> 7), then the Carpenter with 7 loses 3
    expect(coins(g)).toEqual([13, 4, 10, 10]);
    day(g, [2, 16, 3, 7]); // Beggar takes 3 (4 -> 1); seat 3's Barkeep earns 1
    expect(coins(g)).toEqual([13, 1, 13, 11]);
    day(g, [5, 23, 5, 3]); // a Beggar with a poor victim takes what there is
    expect(coins(g)).toEqual([13, 0, 13, 13]);
    day(g, [7, 15, 7, 2], [], true);
    expect(coins(g)[1]).toBe(0);
    expect(pending(g)?.seat).toBe(1);
    day(g, [], [[1, '0:3']]);
    expect(seat(g, 0).graveyard).toEqual([3]);
  });
});

describe('16 Topman', () => {
  // The end-of-campaign examples (ties count as fewest, a bigger den gets nothing) are in
  // campaign.test.ts; here: he does nothing before the end of the campaign.
  it('has no effect during the days', () => {
    const { g } = setup({ deal: [[2, 5, 15, 16, 17, 20, 23, 28, 29]], loot: [[G()]] });
    const ev = day(g, [16, 2, 5]);
    expect(doubloonMoves(ev)).toEqual([]);
  });
});

describe('17 Spanish Spy', () => {
  const deal = [[2, 5, 7, 16, 17, 20, 23, 28, 29]];

  it('returns his officers to the bag first and draws as many blind: a redrawn officer has no effect', () => {
    const { g } = setup({
      players: 2,
      deal,
      loot: [
        [
          ['officer', 'goods'],
          ['jewel', 'jewel'],
        ],
      ],
    });
    day(g, [28, 2], [[0, 'officer']]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [28] });
    leaveInBag(g, [], 1); // set-up: an empty bag (seat 1 holds the rest), so the Spy can only draw his own officer
    const ev = day(g, [17, 5]);
    expect(lootOf(g, 0)).toEqual({ officer: 1, jewel: 1 });
    expect(seat(g, 0).den).toEqual([17]); // not discarded by the drawn officer
    const drawn = ofType(ev, 'lootGained').find((e) => e.secret);
    expect(drawn?.data.kind).toBeUndefined(); // blind draw: secret to the Spy's owner
    expect(drawn?.secret).toEqual({ seat: 0, data: { kind: 'officer' } });
    // The officers go back face up: the table sees what the Spy gave up.
    expect(ofType(ev, 'lootReturned').map((e) => [e.data, e.secret])).toEqual([
      [{ seat: 0, kind: 'officer', n: 1, why: 'Spanish Spy' }, undefined],
    ]);
  });

  it('a drawn saber has no effect either', () => {
    const { g } = setup({
      players: 2,
      deal,
      loot: [
        [
          ['officer', 'goods'],
          ['jewel', 'jewel'],
        ],
      ],
    });
    day(g, [28, 2], [[0, 'officer']]);
    leaveInBag(g, ['saber', 'saber'], 1); // set-up: only sabers left in the bag
    const ev = day(g, [17, 5]);
    expect(ofType(ev, 'prompt')).toEqual([]);
    expect(lootOf(g, 0)).toEqual({ saber: 1, jewel: 1 });
    expect(seat(g, 1).den).toEqual([2, 5]);
  });

  it('without officers does nothing', () => {
    const { g } = setup({ players: 2, deal, loot: [[['goods', 'goods']]] });
    const ev = day(g, [17, 2]);
    expect(ofType(ev, 'lootReturned')).toEqual([]);
    expect(lootOf(g, 0)).toEqual({ goods: 1 });
  });
});

describe('18 Cook', () => {
  const deal = [[2, 5, 16, 17, 18, 20, 23, 28, 29]];

  it('takes two tokens, so a lower character may get none', () => {
    const { g } = setup({ deal, loot: [[['chest', 'jewel', 'goods']]] });
    day(g, [18, 16, 2], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['chest', 'jewel', 'goods'] });
    day(
      g,
      [],
      [
        [0, 'chest'],
        [0, 'jewel'],
      ],
    );
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{ chest: 1, jewel: 1 }, { goods: 1 }, {}]);
    expect(seat(g, 2).den).toEqual([2]);
  });

  it('still takes his second token after a Spanish officer discarded him', () => {
    const { g } = setup({ deal, loot: [[['officer', 'goods', 'goods']]] });
    day(g, [18, 5, 2], [[0, 'officer']]);
    expect(lootOf(g, 0)).toEqual({ officer: 1, goods: 1 });
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [18] });
    expect(lootOf(g, 2)).toEqual({ goods: 1 });
  });
});

describe('19 Bosun', () => {
  it('gains 2 per character of his den ranked below 19', () => {
    const { g } = setup({ deal: [[2, 5, 16, 17, 19, 20, 23, 28, 29]], loot: [[G(), G(), all('jewel'), all('map')]] });
    days(g, [
      [2, 16, 5],
      [17, 5, 16],
      [23, 20, 17],
    ]);
    const ev = day(g, [19, 2, 20]);
    expect(doubloonMoves(ev, 'Bosun')).toEqual([[0, 4]]); // the 2 and the 17, not the 23
  });
});

describe('20 Armorer', () => {
  it('earns 1 each night per saber owned', () => {
    const { g } = setup({
      players: 2,
      deal: [[2, 5, 16, 17, 20, 23, 28, 29, 30]],
      loot: [
        [
          ['saber', 'goods'],
          ['saber', 'goods'],
        ],
      ],
    });
    day(g, [28, 2], [[0, 'saber']]); // no den to hit yet: seat 1's Monkey is still on the ship
    const ev = day(g, [20, 5], [[0, 'saber']]); // this saber hits seat 1's only den card
    expect(seat(g, 1).graveyard).toEqual([2]);
    expect(doubloonMoves(ev, 'Armorer')).toEqual([[0, 2]]);
  });
});
