// The day's phases, the colour tie-break, sabers and Spanish officers, and the player count.
import { describe, expect, it } from 'vitest';
import { createGame, seatColour } from '../../../functions/engine/index.js';
import { tieBreak } from '../../../functions/engine/editions/classic/tiebreak.js';
import { coins, day, doubloonMoves, lootOf, ofType, pending, seat, setup } from './helpers.js';

const all = (k: string, n: number) => Array.from({ length: n }, () => k);
const order = (ev: ReturnType<typeof day>, type: string) => ofType(ev, type).map((e) => e.data.seat);

describe('sunrise', () => {
  it('uses a tie-break table in which every rank gives the six colours six different numbers', () => {
    for (let rank = 1; rank <= 30; rank++) {
      const row = [0, 1, 2, 3, 4, 5].map((seat) => tieBreak(null, seat, rank));
      expect([...row].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    }
    // Rank 1 as printed in the reference (source E): red 2, yellow 1, green 4, blue 3, black 5, white 6.
    expect([0, 1, 2, 3, 4, 5].map((seat) => tieBreak(null, seat, 1))).toEqual([2, 1, 4, 3, 5, 6]);
    expect([0, 1, 2, 3, 4, 5].map((seat) => tieBreak(null, seat, 30))).toEqual([3, 2, 5, 4, 6, 1]);
  });

  it('lays the cards out by rank, equal ranks by the colour tie-break (seat i = colour i)', () => {
    expect([0, 1, 2, 3, 4, 5].map(seatColour)).toEqual(['red', 'yellow', 'green', 'blue', 'black', 'white']);
    const { g } = setup({ players: 6, deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[all('goods', 6)]] });
    // Rank 20: red 6, yellow 5, green 2, blue 1, black 3, white 4.
    const ev = day(g, [20, 20, 20, 20, 20, 20]);
    expect(ofType(ev, 'sunrise')[0].data.island).toEqual(['3:20', '2:20', '4:20', '5:20', '1:20', '0:20']);
    // Dusk goes right to left: the highest tie-break picks first.
    expect(order(ev, 'lootGained')).toEqual([0, 1, 5, 4, 2, 3]);
  });

  it('follows the table for other ranks too (rank 7: red 1 ... yellow 6)', () => {
    const { g } = setup({ players: 6, deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[all('goods', 6)]] });
    const ev = day(g, [7, 7, 7, 7, 7, 7]);
    expect(ofType(ev, 'sunrise')[0].data.island).toEqual(['0:7', '3:7', '2:7', '4:7', '5:7', '1:7']);
  });

  it('reveals every choice at once, only after the last seat chose', () => {
    const { g } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[all('goods', 3)]] });
    const ev = day(g, [16, 28, null], [], true);
    expect(ofType(ev, 'sunrise')).toEqual([]);
    expect(g.phase).toBe('choose');
    const ev2 = day(g, [null, null, 2]);
    expect(ofType(ev2, 'sunrise')[0].data.revealed).toEqual([
      { seat: 0, rank: 16 },
      { seat: 1, rank: 28 },
      { seat: 2, rank: 2 },
    ]);
  });
});

describe('the day', () => {
  it('resolves day abilities from low to high, then dusk from high to low, then night', () => {
    const { g } = setup({ deal: [[3, 7, 9, 12, 16, 17, 20, 23, 29]], loot: [[all('goods', 3)]] });
    // Beggar (3) takes 3 from the Captain's owner before the Carpenter (9) halves seat 2's purse
    // and before the Captain's +3; the Barkeep has no day ability.
    const ev = day(g, [3, 29, 9]);
    expect(doubloonMoves(ev)).toEqual([
      [1, -3],
      [0, 3],
      [2, -5],
      [1, 3],
    ]);
    expect(order(ev, 'lootGained')).toEqual([1, 2, 0]);
    const phases = ev
      .filter((e) => e.type === 'phase' || e.type === 'sunrise' || e.type === 'dayEnd')
      .map((e) => e.data.phase ?? e.type);
    expect(phases).toEqual(['sunrise', 'dusk', 'night', 'dayEnd']);
  });

  it('each character enters its den right after its own pick', () => {
    const { g } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[all('goods', 3)]] });
    const ev = day(g, [28, 16, 2]);
    const seq = ev
      .filter((e) => e.type === 'lootGained' || (e.type === 'character' && e.data.to === 'den'))
      .map((e) => `${e.type}:${e.data.seat}`);
    expect(seq).toEqual(['lootGained:0', 'character:0', 'lootGained:1', 'character:1', 'lootGained:2', 'character:2']);
  });

  it('resolves night abilities in decreasing rank, then by seat', () => {
    const { g } = setup({ deal: [[2, 7, 12, 16, 17, 20, 23, 27, 28]], loot: [[all('goods', 3), all('goods', 3)]] });
    day(g, [23, 16, 17]);
    const ev = day(g, [7, 12, 7]); // two Barkeeps and a Freed Slave (the 16 in its den)
    expect(doubloonMoves(ev)).toEqual([
      [1, 1],
      [0, 1],
      [2, 1],
    ]);
  });
});

describe('saber', () => {
  it('hits only the dens of the two neighbours (4 players)', () => {
    const { g } = setup({
      players: 4,
      deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]],
      loot: [[all('goods', 4), ['saber', 'goods', 'goods', 'goods']]],
    });
    day(g, [16, 17, 20, 23]);
    day(g, [28, 2, 5, 7], [[0, 'saber']], true);
    // Seat 0's neighbours are seat 1 (left) and seat 3 (right); seat 2 is out of reach.
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['1:17', '3:23'] });
    day(g, [], [[0, '3:23']]);
    expect(seat(g, 3)).toMatchObject({ den: [7], graveyard: [23] });
  });

  it('cannot hit a character still on the ship, and does nothing when the neighbours have empty dens', () => {
    const { g } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[['goods', 'saber', 'goods']]] });
    const ev = day(
      g,
      [28, 16, 2],
      [
        [0, 'goods'],
        [1, 'saber'],
      ],
    );
    // Seat 1's saber: seat 0's First Mate entered its den already; seat 2's Monkey has not.
    expect(ofType(ev, 'prompt').length).toBe(2);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [28] });
    expect(seat(g, 2).den).toEqual([2]);
    const { g: h } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[['saber', 'goods', 'goods']]] });
    day(h, [28, 16, 2], [[0, 'saber']]);
    expect(h.seats.map((s) => s.graveyard.length)).toEqual([0, 0, 0]);
  });
});

describe('Spanish officer', () => {
  it('sends the character to the graveyard instead of the den: no night ability, no den count', () => {
    const { g } = setup({ deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]], loot: [[['officer', 'goods', 'goods']]] });
    day(g, [7, 2, 5], [[0, 'officer']]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [7] });
    expect(lootOf(g, 0)).toEqual({ officer: 1 });
    expect(coins(g)[0]).toBe(10); // no Barkeep at night
  });
});

describe('player counts', () => {
  it('2 players: 2 tokens a day, no dummy player', () => {
    const { g } = setup({ players: 2, deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]] });
    expect(g.days.map((d) => d.length)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(g.seats.length).toBe(2);
    const ev = day(g, [16, 17], [], true);
    expect(ofType(ev, 'sunrise')[0].data.island).toEqual(['0:16', '1:17']);
  });

  it('3 to 6 players: one token per player a day, 9 cards and 10 doubloons each', () => {
    for (const players of [3, 4, 5, 6]) {
      const g = createGame({ edition: 'classic', players, seed: `count ${players}` });
      expect(g.days.map((d) => d.length)).toEqual(Array(6).fill(players));
      expect(g.seats.map((s) => [s.hand.length, s.doubloons])).toEqual(Array(players).fill([9, 10]));
      expect(new Set(g.seats.map((s) => JSON.stringify([...s.hand].sort()))).size).toBe(1); // the same ranks for all
    }
  });

  it('rejects 1 or 7 players', () => {
    expect(() => createGame({ edition: 'classic', players: 1, seed: 'x' })).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    );
    expect(() => createGame({ edition: 'classic', players: 7, seed: 'x' })).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    );
  });
});

describe('a full campaign of plain days', () => {
  it('runs 6 days and starts campaign 2', () => {
    const { g } = setup({
      players: 2,
      deal: [[2, 5, 7, 12, 16, 17, 20, 23, 28]],
      loot: [[['goods', 'goods']]],
      seed: 'plain',
    });
    day(g, [2, 5]);
    expect(g.day).toBe(2);
    // Remaining days have seeded loot; answer whatever comes with the first option.
    for (const [a, b] of [
      [5, 7],
      [7, 12],
      [12, 16],
      [16, 17],
      [17, 20],
    ]) {
      day(g, [a, b], [], true);
      while (g.prompt) day(g, [], [[g.prompt.seat, g.prompt.options[0].id]], true);
    }
    expect([g.round, g.day, g.phase]).toEqual([2, 1, 'choose']);
  });
});
