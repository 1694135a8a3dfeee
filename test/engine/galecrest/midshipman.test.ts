// Two players: the neutral Midshipman (20.5) on the island every day.
import { describe, expect, it } from 'vitest';
import { view } from '../../../functions/engine/index.js';
import { coins, day, lootOf, ofType, pending, seat, setup, same } from './helpers.js';

const two = (deal: number[], loot: string[][][]) =>
  setup({ players: 2, deal: [deal], loot, reputation: [null, null, 0, 1, null, null] });

describe('Midshipman (2 players)', () => {
  it('stands on the island between 20 and 21 every day and leaves at night', () => {
    const { g } = two([4, 12, 21, 29, 32, 35], [[same('amulet')]]);
    const ev = day(g, [29, 12]);
    expect(ofType(ev, 'sunrise')[0].data.island).toEqual(['1:12', '-1:20.5', '0:29']);
    expect(view(g, null).island).toEqual([]);
  });

  it('a lone character ranked 20 or lower stands directly left of it: the opponent removes a token before it picks', () => {
    const { g } = two([4, 12, 21, 29, 32, 35], [[['chest', 'amulet', 'relic']]]);
    day(g, [29, 12], [[0, 'chest']], true);
    // The Infantry (seat 0) picked; now the Midshipman: seat 0 removes one for seat 1's Officer.
    expect(pending(g)).toEqual({ seat: 0, kind: 'remove', options: ['relic', 'amulet'] });
    // The prompt says why this player and what it decides (seat numbers become names in words.ts).
    expect(view(g, 0).me?.prompt?.text).toBe(
      'Midshipman: seat 1 owns Officer (12), directly left of it, so you return one of today’s loot tokens to the bag before that character picks (what you return, it cannot take)',
    );
    const ev = day(g, [], [[0, 'amulet']]);
    expect(ofType(ev, 'lootRemoved').map((e) => e.data)).toEqual([{ seat: 0, kind: 'amulet', reason: 'Midshipman' }]);
    expect([lootOf(g, 0), lootOf(g, 1)]).toEqual([{ chest: 1 }, { relic: 1 }]);
    expect(g.bag).toContain('amulet');
  });

  it('with both characters 20 or lower, the higher is directly left of it', () => {
    const { g } = two([4, 12, 21, 29, 32, 35], [[['chest', 'amulet', 'relic']]]);
    day(g, [4, 12], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'remove', options: ['relic', 'amulet', 'chest'] });
    day(
      g,
      [],
      [
        [0, 'chest'],
        [1, 'amulet'],
      ],
    );
    expect([lootOf(g, 0), lootOf(g, 1)]).toEqual([{ relic: 1 }, { amulet: 1 }]);
  });

  it('with both characters above 20 it stands leftmost and removes nothing', () => {
    const { g } = two([4, 12, 21, 29, 32, 35], [[same('amulet')]]);
    const ev = day(g, [29, 32]);
    expect(ofType(ev, 'lootRemoved')).toEqual([]);
    expect([lootOf(g, 0), lootOf(g, 1)]).toEqual([{ amulet: 1 }, { amulet: 1 }]);
  });

  it('is never discarded and never pays: the Brute and the Beggar aimed at it do nothing', () => {
    const { g } = two([3, 17, 21, 29, 32, 35], [[same('amulet'), same('amulet')]]);
    day(g, [17, 3], [], true);
    if (g.prompt) day(g, [], [[g.prompt.seat, g.prompt.options[0].id]], true);
    expect([seat(g, 0).graveyard, seat(g, 1).graveyard]).toEqual([[], []]);
    expect(coins(g)).toEqual([10, 9]);
  });
});
