// Rule examples for the three rulings revisited in issue 29 (docs/rules-galecrest.md,
// rulings 7, 11 and 12): each is decided from the card's text in
// docs/rules/reference/galecrest-characters.md.
import { describe, expect, it } from 'vitest';
import {
  coins,
  day,
  giveLoot,
  lootOf,
  moves,
  ofType,
  pending,
  same,
  seat,
  setup,
  toGraveyard,
  toShip,
} from './helpers.js';

const amulets = [[same('amulet')]];

describe('Ruling 7: the Witch’s copy of the Freed Prisoner resolves at the end of the night', () => {
  it('the Witch is still in the ship while the Topman counts, so her place in the order cannot matter', () => {
    const { g } = setup({ deal: [[15, 24, 20, 21, 23, 35]], loot: amulets });
    toShip(g, 0, [20, 21, 23, 24]);
    const ev = day(g, [15, 35, 35], [], true);
    // No order prompt: copied early or late, the copy waits for the end of the night.
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:20', '0:24'] });
    ev.push(...day(g, [], [[0, '0:20']], true));
    // Topman: +4 - 5 ship characters (the Witch among them); then at the end of the night the
    // Freed Prisoner and the Witch's copy each count 21, 23, 24: +3 each, and both go.
    expect(moves(ev, 'Topman')).toEqual([
      [0, 4],
      [0, -5],
    ]);
    expect(moves(ev, 'Witch')).toEqual([[0, 3]]);
    expect(coins(g)[0]).toBe(12 + 4 - 5 + 3 + 3);
    expect(seat(g, 0)).toMatchObject({ den: [21, 23, 24], graveyard: [15, 20] });
  });

  it('a Witch discarded before the end of the night (by the Mutineer) resolves no copy, as the Freed Prisoner would not', () => {
    const { g } = setup({ deal: [[15, 16, 20, 21, 23, 35]], loot: amulets });
    toShip(g, 0, [16, 20, 21, 23]);
    day(g, [15, 35, 35], [], true);
    // Witch first and copying the Mutineer differs from Mutineer first, so the order is asked.
    expect(pending(g)).toEqual({ seat: 0, kind: 'order', options: ['0:15', '0:16'] });
    day(g, [], [[0, '0:15']], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:16', '0:20'] });
    const ev = day(g, [], [[0, '0:20']], true);
    // Mutineer: discards the Witch (15, the lowest), +2; Freed Prisoner: 21 and 23: +2. (Had the
    // copy resolved where the Witch stands, it would have earned +2 before she went.)
    expect(moves(ev, 'Witch')).toEqual([]);
    expect(coins(g)[0]).toBe(12 + 2 + 2);
    expect(seat(g, 0)).toMatchObject({ den: [16, 20, 21, 23], graveyard: [15] });
  });
});

describe('Ruling 11: “this character” in a copied ability is the copier', () => {
  it('an Apprentice copying the Smuggler takes a token now and goes into the ship itself', () => {
    const { g } = setup({ deal: [[2, 13, 32, 35, 4, 21]], loot: amulets });
    toShip(g, 0, [13]);
    day(g, [2, 32, 35]);
    expect(seat(g, 0).den).toEqual([2, 13]);
    // The token taken by the copy; the Apprentice takes none at dusk (it is already in the ship).
    expect(lootOf(g, 0)).toEqual({ amulet: 1 });
  });
});

describe('Ruling 12: the Necromancer acts only when he can', () => {
  it('with a relic but an empty graveyard nothing is asked and the relic stays', () => {
    const { g } = setup({ deal: [[19, 32, 35, 4, 21, 22]], loot: amulets });
    giveLoot(g, 0, { relic: 1 });
    const ev = day(g, [19, 32, 35], [], true);
    expect(g.prompt).toBeNull();
    expect(ofType(ev, 'lootReturned')).toEqual([]);
    expect(lootOf(g, 0)).toEqual({ relic: 1, amulet: 1 });
  });

  it('with a relic and a graveyard he must spend the relic', () => {
    const { g } = setup({ deal: [[19, 32, 35, 4, 21, 22]], loot: amulets });
    giveLoot(g, 0, { relic: 1 });
    toGraveyard(g, 0, [21]);
    day(g, [19, 32, 35]);
    expect(lootOf(g, 0)).toEqual({ amulet: 1 });
    expect(seat(g, 0).den).toEqual([19, 21]);
  });
});
