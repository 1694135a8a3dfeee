// Rule examples for Galecrest characters 21-40 and the anchor abilities of the whole deck.
// Three players on the three lowest reputation spaces (12, 11, 10 doubloons) unless said.
import { describe, expect, it } from 'vitest';
import {
  coins,
  day,
  giveLoot,
  lastDay,
  lootOf,
  moves,
  ofType,
  pending,
  rep,
  seat,
  setup,
  same,
  toGraveyard,
  toShip,
  track,
} from './helpers.js';
import type { GameEvent } from '../../../functions/engine/index.js';

const amulets = [[same('amulet')]];

/** What each seat banked at this anchor. */
const banked = (ev: GameEvent[]) => ofType(ev, 'voyageBanked').map((e) => e.data.banked);

describe('21 Bosun', () => {
  it('gains 2 per ship character ranked below 21', () => {
    const { g } = setup({ deal: [[21, 4, 5, 32, 35, 22]], loot: amulets });
    toShip(g, 0, [4, 5, 32]);
    day(g, [21, 35, 35]);
    expect(coins(g)[0]).toBe(16);
  });
});

describe('22 Brawler', () => {
  it('discards an opponent’s Brawler from their ship, gains 2 reputation, and earns 1 each night', () => {
    const { g } = setup({ deal: [[22, 32, 35, 4, 21, 24]], loot: amulets });
    toShip(g, 1, [22]);
    toShip(g, 2, [22]);
    day(g, [22, 35, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['1:22', '2:22'] });
    day(g, [], [[0, '2:22']]);
    expect(seat(g, 2).graveyard).toEqual([22]);
    expect(rep(g)[0]).toBe(2);
    expect(coins(g)).toEqual([13, 12, 10]); // the two Brawlers left earn 1 at night
  });
});

describe('22 Brawler without opponents’ Brawlers', () => {
  it('is offered only the opponents who have one: the one Brawler is discarded without asking', () => {
    const { g } = setup({ deal: [[22, 32, 35, 4, 21, 24]], loot: amulets });
    toShip(g, 2, [22]);
    day(g, [22, 35, 35]);
    expect([seat(g, 1).graveyard, seat(g, 2).graveyard]).toEqual([[], [22]]);
    expect(rep(g)[0]).toBe(2);
  });

  it('with no opponent’s Brawler in the ships discards nothing and gains no reputation (its own Brawler aside)', () => {
    const { g } = setup({ deal: [[22, 32, 35, 4, 21, 24]], loot: amulets });
    const ev = day(g, [22, 35, 35]);
    expect(ofType(ev, 'character').filter((e) => e.data.to === 'graveyard')).toEqual([]);
    expect(rep(g)).toEqual([0, 1, 2]);
    expect(seat(g, 0).den).toEqual([22]);
  });
});

describe('23 Thief', () => {
  it('takes a neighbour’s token (no dusk effect for it), then loses 2 reputation (at the bottom: 2 doubloons)', () => {
    const { g } = setup({ deal: [[23, 32, 35, 4, 21, 24]], loot: amulets });
    giveLoot(g, 1, { barrel: 1 });
    giveLoot(g, 2, { relic: 1 });
    day(g, [23, 35, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['1:barrel', '2:relic'] });
    day(g, [], [[0, '1:barrel']]);
    expect(lootOf(g, 0)).toEqual({ barrel: 1, amulet: 1 });
    expect(rep(g)[0]).toBe(0);
    expect(coins(g)[0]).toBe(10);
  });
});

describe('24 Topman', () => {
  it('gains 4 at night, then loses 1 per ship character (himself included)', () => {
    const { g } = setup({ deal: [[24, 32, 35, 4, 21, 22]], loot: amulets });
    toShip(g, 0, [32, 35]);
    day(g, [24, 35, 35]);
    expect(coins(g)[0]).toBe(13);
  });
});

describe('25 Recruiter', () => {
  it('plays a character from hand straight into the ship', () => {
    const { g } = setup({ deal: [[25, 32, 35, 4, 21, 22]], loot: amulets });
    day(g, [25, 35, 35], [], true);
    // A question about the hand: every character left in it, in rank order.
    expect(pending(g)).toEqual({ seat: 0, kind: 'hand', options: ['4', '21', '22', '32', '35'] });
    day(g, [], [[0, '32']]);
    expect(seat(g, 0)).toMatchObject({ den: [25, 32], hand: [4, 21, 22, 35] });
  });
});

describe('26 Cook', () => {
  it('takes a second token while still on the island', () => {
    const { g } = setup({ deal: [[26, 10, 8, 4, 21, 22]], loot: [[['amulet', 'amulet', 'chest']]] });
    day(g, [26, 10, 8], [[0, 'chest']]);
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{ amulet: 1, chest: 1 }, { amulet: 1 }, {}]);
  });
});

describe('27 Watchman', () => {
  it('swaps one of today’s tokens with one of tomorrow’s', () => {
    const { g } = setup({ deal: [[27, 32, 35, 4, 21, 22]], loot: [[same('amulet'), same('chest')]] });
    day(g, [27, 32, 35], [], true);
    // One kind on each day: both halves of the swap are chosen without asking.
    expect(g.days[1]).toEqual(['amulet', 'chest', 'chest']);
    day(g, [], [[2, 'chest']]);
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{ amulet: 1 }, { amulet: 1 }, { chest: 1 }]);
  });

  it('asks which of today’s tokens, then which of tomorrow’s, and logs the swap', () => {
    const { g } = setup({
      deal: [[27, 32, 35, 4, 21, 22]],
      loot: [
        [
          ['amulet', 'chest', 'chest'],
          ['map', 'barrel', 'barrel'],
        ],
      ],
    });
    day(g, [27, 32, 35], [], true);
    expect(g.prompt!.text).toBe('Watchman: choose today’s token to swap'.replace('’', "'"));
    // Two questions about loot: a kind of today's tokens, then a kind of tomorrow's.
    expect(pending(g)).toMatchObject({ seat: 0, kind: 'loot' });
    expect(pending(g)!.options.sort()).toEqual(['amulet', 'chest']);
    const ev = day(g, [], [[0, 'amulet']], true);
    expect(g.prompt!.text).toBe("Watchman: choose tomorrow's token to swap with");
    expect(pending(g)).toMatchObject({ seat: 0, kind: 'loot' });
    expect(pending(g)!.options.sort()).toEqual(['barrel', 'map']);
    ev.push(...day(g, [], [[0, 'map']], true));
    expect(ofType(ev, 'lootSwapped').map((e) => e.data)).toEqual([
      { seat: 0, today: 'amulet', tomorrow: 'map', reason: 'Watchman' },
    ]);
    expect(g.days[1]).toEqual(['amulet', 'barrel', 'barrel']);
  });
});

describe('28 Armorer', () => {
  it('gains 2 reputation for a hook taken at dusk and 1 per saber and hook each night', () => {
    const { g } = setup({ deal: [[28, 10, 8, 4, 21, 22]], loot: [[['hook', 'amulet', 'amulet']]] });
    day(g, [28, 10, 8], [[0, 'hook']]);
    expect(rep(g)[0]).toBe(2);
    expect(coins(g)[0]).toBe(13);
  });

  it('gains no reputation for another token, and nothing at night without sabers or hooks', () => {
    const { g } = setup({ deal: [[28, 10, 8, 4, 21, 22]], loot: [[['amulet', 'hook', 'saber']]] });
    const ev = day(
      g,
      [28, 10, 8],
      [
        [0, 'amulet'],
        [1, 'hook'],
      ],
    );
    expect(rep(g)[0]).toBe(0);
    expect(moves(ev, 'Armorer')).toEqual([]);
  });

  it('gains no reputation when the day’s loot is gone before its turn', () => {
    const { g } = setup({ deal: [[28, 14, 35, 4, 21, 22]], loot: [[same('hook')]] });
    day(g, [28, 14, 35]); // the Bodyguard sends the three hooks back in the daytime
    expect(lootOf(g, 0)).toEqual({});
    expect(rep(g)).toEqual([0, 1, 2]);
  });
});

describe('29 Infantry', () => {
  it('gains 5 only as the rightmost character', () => {
    const { g } = setup({ deal: [[29, 10, 8, 4, 32, 35]], loot: [[same('amulet'), same('map')]] });
    day(g, [29, 10, 8]);
    expect(coins(g)[0]).toBe(17);
  });

  it('gains nothing with a higher character on the island', () => {
    const { g } = setup({ deal: [[29, 10, 8, 4, 32, 35]], loot: amulets });
    day(g, [29, 35, 8]);
    expect(coins(g)[0]).toBe(12);
  });
});

describe('30 Merchant', () => {
  it('trades 3 identical tokens for 9 (1 for 1, 2 for 4)', () => {
    const { g } = setup({ deal: [[30, 10, 8, 4, 32, 35]], loot: amulets });
    giveLoot(g, 0, { relic: 3, map: 1 });
    day(g, [30, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'trade', options: ['map:1', 'relic:1', 'relic:2', 'relic:3'] });
    day(g, [], [[0, 'relic:3']]);
    expect(coins(g)[0]).toBe(21);
    expect(lootOf(g, 0)).toEqual({ map: 1, amulet: 1 });
  });
});

describe('31 Surgeon', () => {
  it('takes a character of the graveyard back into the hand', () => {
    const { g } = setup({ deal: [[31, 10, 8, 4, 32, 35]], loot: amulets });
    toGraveyard(g, 0, [4, 10]); // discarded on earlier days: dealt, and no longer in hand
    const hand = seat(g, 0).hand;
    day(g, [31, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'graveyard', options: ['4', '10'] });
    day(g, [], [[0, '4']]);
    // The hand loses the Surgeon it played and gains the Innkeeper; the Merchant stays discarded.
    const expected = [...hand.filter((r) => r !== 31), 4].sort((a, b) => a - b);
    expect(seat(g, 0)).toMatchObject({ graveyard: [10], den: [31], hand: expected });
  });

  it('offers the graveyard in rank order, whatever the order of the discards', () => {
    const { g } = setup({ deal: [[31, 24, 4, 22, 32, 35]], loot: amulets });
    toGraveyard(g, 0, [24, 4, 22]); // the Topman discarded first, then the Innkeeper, then the Brawler
    day(g, [31, 32, 35], [], true);
    expect(g.prompt!.options).toEqual([
      { id: '4', label: 'Innkeeper (4)' },
      { id: '22', label: 'Brawler (22)' },
      { id: '24', label: 'Topman (24)' },
    ]);
  });
});

describe('33 Gambler', () => {
  it('pays 1 per loot token owned in the daytime', () => {
    const { g } = setup({ deal: [[33, 10, 8, 4, 32, 35]], loot: amulets });
    giveLoot(g, 0, { relic: 2, map: 1 });
    day(g, [33, 32, 35]);
    expect(coins(g)[0]).toBe(9);
  });
});

describe('34 Aristocrat', () => {
  it('gains 2 reputation in the daytime', () => {
    const { g } = setup({ deal: [[34, 10, 8, 4, 32, 35]], loot: amulets });
    day(g, [34, 32, 35]);
    expect(track(g)).toEqual([1, 2, 0, null, null, null]);
  });
});

describe('36 Quartermaster', () => {
  it('gains 1 per loot token owned in the daytime', () => {
    const { g } = setup({ deal: [[36, 10, 8, 4, 32, 35]], loot: amulets });
    giveLoot(g, 0, { relic: 2, map: 1 });
    day(g, [36, 32, 35]);
    expect(coins(g)[0]).toBe(15);
  });
});

describe('37 Wind Nymph', () => {
  it('alone in the ships earns 2 at night', () => {
    const { g } = setup({ deal: [[37, 10, 8, 4, 32, 35]], loot: amulets });
    toShip(g, 0, [37]);
    day(g, [32, 35, 35]);
    expect(coins(g)[0]).toBe(14);
  });

  it('with another Wind Nymph in the ships: every Wind Nymph is discarded', () => {
    const { g } = setup({ deal: [[37, 10, 8, 4, 32, 35]], loot: amulets });
    toShip(g, 0, [37]);
    toShip(g, 2, [37]);
    day(g, [32, 35, 35]);
    expect([seat(g, 0).graveyard, seat(g, 2).graveyard, coins(g)[0], coins(g)[2]]).toEqual([[37], [37], 12, 10]);
  });
});

describe('38 First Mate', () => {
  it('pays 1 per ship character in the daytime', () => {
    const { g } = setup({ deal: [[38, 10, 8, 4, 32, 35]], loot: amulets });
    toShip(g, 0, [32, 35]);
    day(g, [38, 32, 35]);
    expect(coins(g)[0]).toBe(10);
  });
});

describe('39 Captain', () => {
  it('climbs to the highest space and pays 1 per space moved', () => {
    const { g } = setup({ deal: [[39, 10, 8, 4, 32, 35]], loot: amulets });
    const ev = day(g, [39, 32, 35]);
    expect(track(g)).toEqual([1, 2, null, null, null, 0]);
    expect(coins(g)[0]).toBe(7);
    expect(moves(ev)).toEqual([[0, -5]]); // 5 spaces, and no overflow: the top space is reached, not passed
  });
});

describe('40 Governor', () => {
  it('discards the whole ship and gains 1 reputation per character', () => {
    const { g } = setup({ deal: [[40, 10, 8, 4, 32, 35]], loot: amulets });
    toShip(g, 0, [10, 32, 35]);
    day(g, [40, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [40], graveyard: [10, 32, 35] });
    expect(rep(g)[0]).toBe(3);
  });
});

describe('Anchor abilities', () => {
  /** Last day of voyage 1: seat 0 plays `play` with `ship` (dealt, then put in its ship), seats 1 and 2 play the Innkeeper. */
  function anchorWith(ship: number[], play: number, loot: Record<string, number> = {}, setCoins?: number) {
    const deal = [play, 4, ...ship, ...[40, 39, 37, 31, 30].filter((r) => r !== play && !ship.includes(r))].slice(0, 6);
    const { g } = setup({ deal: [deal], loot: [[same('map'), same('map'), same('map'), same('amulet')]] });
    lastDay(g);
    toShip(g, 0, ship);
    giveLoot(g, 0, loot);
    if (setCoins !== undefined) g.seats[0].doubloons = setCoins;
    return { g, ev: day(g, [play, 4, 4]) };
  }

  it('7 Preacher +6, 11 Carpenter +10, 33 Gambler +6 (with the day’s amulet +3)', () => {
    const { ev } = anchorWith([7, 11, 33], 32);
    expect(banked(ev)[0]).toBe(12 + 1 + 6 + 10 + 6 + 3); // Treasurer: the amulet
  });

  it('8 Barkeep and 32 Treasurer count barrels (and amulets and chests)', () => {
    const { ev } = anchorWith([8, 32], 35, { barrel: 2, chest: 1 });
    // Night +1; Barkeep 2; Treasurer 2 + 1 + 1 (amulet); Collector: barrel, amulet, chest = 3;
    // tiles: barrels 2, chest 5, amulet 3.
    expect(banked(ev)[0]).toBe(12 + 1 + 2 + 4 + 3 + 2 + 5 + 3);
  });

  it('10 Explorer: one map counts double (3 maps score as 4: 14)', () => {
    const { ev } = anchorWith([10], 32, { map: 3 });
    expect(banked(ev)[0]).toBe(12 + 14 + 3 + 1); // Treasurer counts the amulet
  });

  it('15 Witch goes back to hand when she is the only night character in the ship', () => {
    const { g } = anchorWith([15], 32);
    expect(seat(g, 0).hand).toContain(15);
    expect(seat(g, 0).graveyard).toEqual([32]);
  });

  it('15 Witch goes to the graveyard like the others when another night character is in the ship', () => {
    const { g } = anchorWith([15, 8], 32);
    expect(seat(g, 0).hand).not.toContain(15);
    expect(seat(g, 0).graveyard).toEqual([8, 15, 32]);
  });

  it('34 Aristocrat: +5 alone in the ships, -3 when another player has one', () => {
    expect(banked(anchorWith([34], 32).ev)[0]).toBe(12 + 5 + 3 + 1);
    const { g } = setup({
      deal: [[32, 34, 35, 4, 21, 22]],
      loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    });
    lastDay(g);
    toShip(g, 0, [34]);
    toShip(g, 1, [34]);
    const ev = day(g, [32, 35, 35]);
    expect(banked(ev).slice(0, 2)).toEqual([12 - 3 + 3 + 1, 11 - 3 + 3]);
  });

  it('35 Collector: 2/3/4/5+ kinds score 1/3/5/10', () => {
    const { ev } = anchorWith([35], 32, { map: 1, relic: 1, saber: 1, hook: 0, chest: 1 });
    // Kinds: map, relic, saber, chest + the amulet = 5 -> 10. Tiles: relic -3, chest 5, amulet 3,
    // a lone map 0. Treasurer: amulet + chest = 2.
    expect(banked(ev)[0]).toBe(12 + 10 - 3 + 5 + 3 + 2);
  });

  it('36 Quartermaster -6 and 38 First Mate +1 per ship character', () => {
    const { ev } = anchorWith([36, 38], 32);
    expect(banked(ev)[0]).toBe(12 - 6 + 3 + 3 + 1); // ship 36, 38, 32
  });

  it('losses offset gains whatever the order: from 0 doubloons, chest +5, amulet +3 and Quartermaster -6 bank 2 (not 8)', () => {
    const { ev } = anchorWith([36], 21, { chest: 1 }, 0);
    // The Bosun earns nothing (no ship character below 21); anchor: chest 5 + amulet 3 - 6 = 2.
    expect(banked(ev)[0]).toBe(2);
    const { ev: ev2 } = anchorWith([36], 21, {}, 0);
    expect(banked(ev2)[0]).toBe(0); // amulet 3 - 6: never below 0
  });
});
