// Rule examples for Galecrest characters 1-20 (rules reference: galecrest-characters.md;
// engine choices: docs/rules-galecrest.md). Three players, seats 0, 1, 2 on the three lowest
// reputation spaces (12, 11 and 10 doubloons), unless a test says otherwise.
import { describe, expect, it } from 'vitest';
import { view, viewEvent } from '../../../functions/engine/index.js';
import {
  coins,
  day,
  giveLoot,
  leaveInBag,
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

const amulets = [[same('amulet')]];

describe('1 Scout', () => {
  it('is discarded and the character put in its place still acts in the daytime', () => {
    const { g } = setup({ deal: [[1, 12, 21, 29, 32, 35]], loot: amulets });
    day(g, [1, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'hand', options: ['12', '21', '29', '32', '35'] });
    day(g, [], [[0, '12']]);
    // The Officer (12 doubloons) gains 2 reputation.
    expect(seat(g, 0)).toMatchObject({ den: [12], graveyard: [1], hand: [21, 29, 32, 35] });
    expect(rep(g)).toEqual([2, 0, 1]);
  });
});

describe('2 Apprentice', () => {
  it('uses the daytime ability of a character of its ship (only those with one are offered)', () => {
    const { g } = setup({ deal: [[2, 7, 21, 32, 35, 40]], loot: amulets });
    toShip(g, 0, [21, 7, 35]);
    day(g, [2, 32, 32], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:7', '0:21'] });
    expect(g.prompt!.text).toBe('Apprentice: copy the daytime ability of a character in your ship');
    const ev = day(g, [], [[0, '0:21']]);
    expect(ofType(ev, 'copied').map((e) => e.data)).toEqual([{ seat: 0, rank: 2, copied: 21 }]);
    // Bosun's ability for the Apprentice: +2 for the Preacher (7), the one ship character below 21.
    expect(coins(g)).toEqual([14, 11, 10]);
  });
});

describe('2 Apprentice copies as itself', () => {
  it('copying the Cabin Boy gains 3 because the Apprentice is the leftmost character', () => {
    const { g } = setup({ deal: [[2, 5, 32, 35, 21, 22]], loot: amulets });
    toShip(g, 0, [5]);
    const ev = day(g, [2, 32, 35]);
    expect(moves(ev, 'Apprentice')).toEqual([[0, 3]]);
  });

  it('copying the Infantry gains nothing: the Apprentice is not the rightmost character', () => {
    const { g } = setup({ deal: [[2, 29, 4, 35, 21, 22]], loot: amulets });
    toShip(g, 0, [29]);
    const ev = day(g, [2, 4, 4]);
    expect(moves(ev, 'Apprentice')).toEqual([]);
  });

  it('copying its own Brawler discards an opponent’s Brawler, never its own', () => {
    const { g } = setup({ deal: [[2, 22, 32, 35, 4, 21]], loot: amulets });
    toShip(g, 0, [22]);
    toShip(g, 2, [22]);
    day(g, [2, 35, 35]); // one opponent's Brawler: discarded without asking
    expect([seat(g, 0).den, seat(g, 2).graveyard]).toEqual([[2, 22], [22]]);
    expect(rep(g)[0]).toBe(2);
  });

  it('with no daytime character in its ship does nothing', () => {
    const { g } = setup({ deal: [[2, 32, 35, 4, 21, 22]], loot: amulets });
    toShip(g, 0, [32]);
    const ev = day(g, [2, 35, 35]);
    expect(ofType(ev, 'copied')).toEqual([]);
    expect(coins(g)[0]).toBe(12);
  });
});

describe('3 Beggar', () => {
  it('takes 2 from the owner of the rightmost character, who gains 1 reputation', () => {
    const { g } = setup({ deal: [[3, 32, 35, 21, 22, 24]], loot: amulets });
    day(g, [3, 35, 32]);
    expect(coins(g)).toEqual([14, 9, 10]);
    expect(rep(g)).toEqual([0, 2, 1]);
  });

  it('gets nothing when the rightmost character is his own (equal ranks: higher reputation to the right)', () => {
    const { g } = setup({ deal: [[3, 32, 35, 21, 22, 24]], loot: amulets });
    day(g, [3, 3, 3]);
    // Seat 2's Beggar stands rightmost: the two others take 2 each from seat 2, seat 2 gets nothing.
    expect(coins(g)).toEqual([14, 13, 6]);
    expect(rep(g)).toEqual([0, 1, 4]); // +1 for each of the two others' Beggars, none for its own
  });

  it("takes from seat 0 when seat 0's character is the rightmost", () => {
    const { g } = setup({ deal: [[3, 32, 35, 21, 22, 24]], loot: amulets });
    const ev = day(g, [35, 3, 32]);
    expect(moves(ev, 'Beggar')).toEqual([
      [0, -2],
      [1, 2],
    ]);
    expect(rep(g)).toEqual([1, 0, 2]);
  });

  it('gets nothing when the Midshipman stands rightmost (2 players: it has no owner)', () => {
    const { g } = setup({ players: 2, deal: [[3, 4, 32, 35, 21, 22]], loot: [[same('amulet')]] });
    const before = rep(g);
    const ev = day(g, [3, 4]);
    expect(moves(ev, 'Beggar')).toEqual([]);
    expect(rep(g)).toEqual(before);
  });
});

describe('4 Innkeeper', () => {
  it('returns a character of its ship to the hand', () => {
    const { g } = setup({ deal: [[4, 32, 35, 21, 22, 24]], loot: amulets });
    toShip(g, 0, [21, 32]);
    day(g, [4, 35, 35], [[0, '0:21']]);
    expect(seat(g, 0)).toMatchObject({ den: [4, 32], hand: [21, 22, 24, 35] });
  });
});

describe('5 Cabin Boy', () => {
  it('gains 3 as the leftmost character and takes no loot at dusk', () => {
    const { g } = setup({ deal: [[5, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [5, 32, 35]);
    expect(coins(g)).toEqual([15, 11, 10]);
    expect([lootOf(g, 0), lootOf(g, 1)]).toEqual([{}, { amulet: 1 }]);
    expect(g.days[0]).toEqual([]); // the token nobody took went back to the bag
  });

  it('of two Cabin Boys, only the leftmost (lower reputation) gains 3', () => {
    const { g } = setup({ deal: [[5, 32, 35, 4, 22, 24]], loot: amulets });
    const ev = day(g, [5, 5, 35]);
    expect(moves(ev, 'Cabin Boy')).toEqual([[0, 3]]);
  });

  it('gains nothing when a lower character stands left of it', () => {
    const { g } = setup({ deal: [[5, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [5, 4, 35]);
    expect(coins(g)[0]).toBe(12);
  });
});

describe('6 Bandit', () => {
  it('drops to the lowest space, +1 per space moved, the tokens passed slide up', () => {
    const { g } = setup({ deal: [[6, 32, 35, 4, 22, 24]], loot: amulets, reputation: [null, null, 1, 2, null, 0] });
    day(g, [6, 32, 35]);
    expect(track(g)).toEqual([0, null, null, 1, 2, null]);
    expect(coins(g)[0]).toBe(7 + 5);
  });
});

describe('7 Preacher', () => {
  it('keeps one token, discards the rest, +1 reputation per token discarded', () => {
    const { g } = setup({ deal: [[7, 32, 35, 4, 22, 24]], loot: amulets });
    giveLoot(g, 0, { map: 2, relic: 1, amulet: 1 });
    day(g, [7, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['map', 'relic', 'amulet'] });
    day(g, [], [[0, 'map']]);
    expect(track(g)).toEqual([1, 2, null, 0, null, null]);
    expect(lootOf(g, 0)).toEqual({ map: 1, amulet: 1 }); // the map kept, then the day's amulet
  });
});

describe('8 Barkeep', () => {
  it('gains 1 every night in the ship', () => {
    const { g } = setup({ deal: [[8, 32, 35, 4, 22, 24]], loot: [[same('amulet'), same('map')]] });
    day(g, [8, 32, 35]);
    day(g, [32, 35, 32]);
    expect(coins(g)[0]).toBe(14);
  });
});

describe('9 Stowaway', () => {
  it('draws from the bag, resolves the token’s dusk effect, then is discarded', () => {
    const { g } = setup({ deal: [[9, 32, 35, 4, 22, 24]], loot: amulets });
    leaveInBag(g, ['barrel'], 2); // set-up: the only token left in the bag (seat 2 holds the rest)
    day(g, [9, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [9] });
    expect(lootOf(g, 0)).toEqual({ barrel: 1 }); // and no dusk pick: it left the island
    expect(rep(g)[0]).toBe(1); // the barrel's dusk effect
  });
});

describe('10 Explorer', () => {
  it('gains 2 reputation when it takes a map at dusk', () => {
    const { g } = setup({ deal: [[10, 32, 35, 4, 22, 24]], loot: [[same('map')]] });
    day(g, [10, 32, 35]);
    expect(rep(g)[0]).toBe(2);
  });

  it('gains nothing when the characters before it took every map (the last map taken was not its own)', () => {
    const { g } = setup({ deal: [[10, 26, 32, 4, 22, 24]], loot: [[same('map')]] });
    day(g, [10, 26, 32]); // dusk: the Treasurer takes a map, the Cook two, the Explorer none
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{}, { map: 2 }, { map: 1 }]);
    expect(rep(g)).toEqual([0, 1, 2]);
  });

  it('gains nothing with another token', () => {
    const { g } = setup({ deal: [[10, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [10, 32, 35]);
    expect(rep(g)[0]).toBe(0);
  });
});

describe('11 Carpenter', () => {
  it('loses half the doubloons, rounded down', () => {
    const { g } = setup({ deal: [[11, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [32, 11, 35]);
    expect(coins(g)).toEqual([12, 6, 10]);
  });
});

describe('12 Officer', () => {
  it('with 12 doubloons gains 2 reputation; with fewer tops up to 12', () => {
    const { g } = setup({ deal: [[12, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [12, 12, 35]);
    expect(coins(g)).toEqual([12, 12, 10]);
    expect(rep(g)).toEqual([2, 0, 1]);
  });
});

describe('13 Smuggler', () => {
  it('takes a token at once (with its dusk effect) and goes straight into the ship', () => {
    const { g } = setup({ deal: [[13, 32, 35, 4, 22, 24]], loot: [[['barrel', 'amulet', 'amulet']]] });
    day(g, [13, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['barrel', 'amulet'] });
    day(g, [], [[0, 'barrel']]);
    expect(seat(g, 0)).toMatchObject({ den: [13] });
    expect(lootOf(g, 0)).toEqual({ barrel: 1 });
    expect(rep(g)[0]).toBe(1);
    expect([lootOf(g, 1), lootOf(g, 2)]).toEqual([{ amulet: 1 }, { amulet: 1 }]);
  });
});

describe('13 Smuggler with an empty display', () => {
  it('still goes straight into the ship, where a Gunner later that day can reach it', () => {
    const { g } = setup({ deal: [[13, 18, 35, 4, 21, 22]], loot: amulets });
    g.bag.push(...g.days[0].splice(0)); // set-up: the bag ran dry, today's display is empty
    day(g, [13, 18, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [13] }); // the Gunner's only target
  });
});

describe('14 Bodyguard', () => {
  it('sends every saber and hook of the day back to the bag, +2 each', () => {
    const { g } = setup({ deal: [[14, 32, 35, 4, 22, 24]], loot: [[['saber', 'hook', 'amulet']]] });
    const ev = day(g, [14, 32, 35]);
    expect(coins(g)[0]).toBe(16);
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{}, {}, { amulet: 1 }]);
    expect(ofType(ev, 'lootRemoved').map((e) => e.data)).toEqual([
      { seat: 0, kind: 'hook', reason: 'Bodyguard' },
      { seat: 0, kind: 'saber', reason: 'Bodyguard' },
    ]);
  });
});

describe('15 Witch', () => {
  it('uses the night ability of another character of its ship', () => {
    const { g } = setup({ deal: [[15, 8, 22, 32, 35, 4]], loot: amulets });
    toShip(g, 0, [8, 22]);
    day(g, [15, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:8', '0:22'] });
    expect(g.prompt!.text).toBe('Witch: copy the night ability of a character in your ship');
    day(g, [], [[0, '0:22']]);
    expect(coins(g)[0]).toBe(12 + 1 + 1 + 1); // Brawler, Witch as Brawler, Barkeep
  });
});

describe('15 Witch copies as herself', () => {
  it('copying the Freed Prisoner earns its coins and discards the Witch, not the Freed Prisoner', () => {
    const { g } = setup({ deal: [[15, 20, 21, 22, 32, 35]], loot: amulets });
    toShip(g, 0, [20, 21, 22, 32]);
    day(g, [15, 35, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:20', '0:22'] });
    const ev = day(g, [], [[0, '0:20']], true);
    while (g.prompt) ev.push(...day(g, [], [[0, g.prompt.options[0].id]], true));
    // Ship above 20: Brawler, Bosun, Treasurer = 3 for the copy, and 3 again for the Freed Prisoner at the end.
    expect(moves(ev, 'Witch')).toEqual([[0, 3]]);
    expect(seat(g, 0).graveyard).toEqual([15, 20]);
  });
});

describe('16 Mutineer', () => {
  it('discards the lowest-ranked ship character at night, then gains 2', () => {
    const { g } = setup({ deal: [[16, 32, 35, 4, 22, 24]], loot: amulets });
    toShip(g, 0, [4, 32]);
    day(g, [16, 35, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [16, 32], graveyard: [4] });
    expect(coins(g)[0]).toBe(14);
  });
});

describe('17 Brute', () => {
  it('discards the rightmost character; its owner gains 1 reputation', () => {
    const { g } = setup({ deal: [[17, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [17, 35, 32]);
    expect(seat(g, 1)).toMatchObject({ den: [], graveyard: [35] });
    expect(rep(g)).toEqual([0, 2, 1]);
    expect(lootOf(g, 1)).toEqual({});
  });

  it("discards seat 0's character when it is the rightmost", () => {
    const { g } = setup({ deal: [[17, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [35, 17, 32]);
    expect(seat(g, 0)).toMatchObject({ den: [], graveyard: [35] });
    expect(rep(g)).toEqual([1, 0, 2]);
  });

  it('discards himself when he is the rightmost', () => {
    const { g } = setup({ deal: [[17, 32, 35, 4, 22, 24]], loot: amulets });
    day(g, [4, 17, 4]);
    expect(seat(g, 1)).toMatchObject({ den: [], graveyard: [17] });
    expect(rep(g)).toEqual([0, 2, 1]);
  });

  it('discards nothing when the Midshipman stands rightmost (2 players: it cannot be discarded)', () => {
    const { g } = setup({ players: 2, deal: [[17, 4, 32, 35, 21, 22]], loot: [[same('amulet')]] });
    const before = rep(g);
    day(g, [17, 4]);
    expect([seat(g, 0).den, seat(g, 1).den, seat(g, 0).graveyard, seat(g, 1).graveyard]).toEqual([[17], [4], [], []]);
    expect(rep(g)).toEqual(before);
  });
});

describe('18 Gunner', () => {
  it('discards a ship character of an opponent and the Gunner’s owner loses reputation (at the bottom: 1 doubloon)', () => {
    const { g } = setup({ deal: [[18, 32, 35, 4, 22, 24]], loot: amulets });
    toShip(g, 0, [32]);
    toShip(g, 1, [24]);
    day(g, [18, 35, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:32', '1:24'] });
    day(g, [], [[0, '1:24']]);
    expect(seat(g, 1).graveyard).toEqual([24]);
    expect(coins(g)[0]).toBe(11);
  });

  it('discarding its own ship character gains 1 reputation', () => {
    const { g } = setup({ deal: [[18, 32, 35, 4, 22, 24]], loot: amulets });
    toShip(g, 0, [32]);
    day(g, [18, 35, 35]); // the only ship character: chosen without asking
    expect(seat(g, 0).graveyard).toEqual([32]);
    expect(rep(g)[0]).toBe(1);
  });
});

describe('19 Necromancer', () => {
  it('discards a relic to bring a character of the graveyard into the ship', () => {
    const { g } = setup({ deal: [[19, 32, 35, 4, 22, 24]], loot: amulets });
    toGraveyard(g, 0, [22, 24]); // discarded on earlier days
    giveLoot(g, 0, { relic: 1 });
    day(g, [19, 32, 35], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'graveyard', options: ['22', '24'] });
    day(g, [], [[0, '24']]);
    // The Topman's night (+4, -1 per ship character: Necromancer, Topman) runs in the ship at once.
    expect(seat(g, 0)).toMatchObject({ den: [19, 24], graveyard: [22], hand: [4, 32, 35] });
    expect(lootOf(g, 0)).toEqual({ amulet: 1 });
    expect(coins(g)[0]).toBe(12 + 4 - 2);
  });

  it('does nothing without a relic', () => {
    const { g } = setup({ deal: [[19, 32, 35, 4, 22, 24]], loot: amulets });
    toGraveyard(g, 0, [22]);
    day(g, [19, 32, 35]);
    expect(seat(g, 0)).toMatchObject({ den: [19], graveyard: [22] });
  });
});

describe('20 Freed Prisoner', () => {
  it('at the end of the night gains 1 per ship character above 20, and leaves after earning 3', () => {
    const { g } = setup({ deal: [[20, 21, 22, 32, 35, 4]], loot: amulets });
    toShip(g, 0, [21, 22, 32]);
    day(g, [20, 35, 35]);
    expect(coins(g)[0]).toBe(12 + 1 + 3); // the Brawler's +1 first, the Freed Prisoner last
    expect(seat(g, 0)).toMatchObject({ den: [21, 22, 32], graveyard: [20] });
  });

  it('stays after earning less than 3', () => {
    const { g } = setup({ deal: [[20, 21, 22, 32, 35, 4]], loot: amulets });
    toShip(g, 0, [21]);
    day(g, [20, 35, 35]);
    expect(coins(g)[0]).toBe(13);
    expect(seat(g, 0).den).toEqual([20, 21]);
  });
});

describe('Surgeon’s secret', () => {
  it('is the only hidden move: other seats see a character go graveyard -> hand, not which', () => {
    const { g } = setup({ deal: [[31, 32, 35, 4, 22, 24]], loot: amulets });
    toGraveyard(g, 0, [4, 22]); // discarded on earlier days
    const ev = day(g, [31, 32, 35], [[0, '22']]);
    const move = ofType(ev, 'character').find((e) => e.data.reason === 'Surgeon')!;
    expect(viewEvent(move, 1).data.rank).toBeUndefined();
    expect(viewEvent(move, 0).data.rank).toBe(22);
    expect(seat(g, 0)).toMatchObject({ hand: [22, 24, 32, 35], graveyard: [4] });
    expect(view(g, 1).seats[0]).toMatchObject({ handSize: 4, graveyard: null, graveyardSize: 1 });
  });
});
