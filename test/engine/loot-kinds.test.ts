// The loot kinds are written out by name where the engine is hot (copy, add, read, clear,
// value, back to the bag, the tile sides): each such list mirrors the edition's `lootKinds`,
// and a kind left out of one would go wrong silently. Each is checked here against its plain
// loop over the kinds, for every kind, and every per-kind table must name exactly the kinds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOOTY_VALUE,
  bootyToBag,
  bootyTokens,
  bootyValue,
  MAP_SET,
} from '../../functions/engine/editions/classic/booty.js';
import {
  addHeld,
  CALM_TILES,
  clearLoot,
  heldOf,
  LOOT_KINDS,
  tileFacts,
} from '../../functions/engine/editions/galecrest/loot.js';
import type { TileSet } from '../../functions/engine/editions/galecrest/tiles.js';
import { createGame, type EditionId } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { STORMY_TEST } from './galecrest/tiles.js';

const EDITIONS: EditionId[] = ['classic', 'galecrest'];

/** Random counts for every kind, in the edition's order (the layout loot records have). */
const lootOf = (kinds: readonly string[]) =>
  fc.tuple(...kinds.map(() => fc.nat(12))).map((ns) => Object.fromEntries(kinds.map((k, i) => [k, ns[i]])));

describe.each(EDITIONS)('%s: the tables by loot kind', (id) => {
  const ed = editionOf(id);
  const kinds = new Set(ed.lootKinds);
  it('the bag and the bots’ values name exactly the edition’s kinds', () => {
    expect(new Set(Object.keys(ed.bag))).toEqual(kinds);
    expect(new Set(Object.keys(ed.botLootValue))).toEqual(kinds);
  });
  it('a new game’s loot records hold every kind, in lootKinds order', () => {
    const g = createGame({ edition: id, players: 3, seed: 'kinds', board: id === 'galecrest' ? 'calm' : undefined });
    for (const s of g.seats) expect(Object.keys(s.loot)).toEqual([...ed.lootKinds]);
  });
});

describe.each(EDITIONS)('%s: Edition.copyLoot and Edition.addLoot', (id) => {
  const ed = editionOf(id);
  it('copyLoot copies every loot kind, in lootKinds order, into a new record', () => {
    const loot = Object.fromEntries(ed.lootKinds.map((k, i) => [k, i + 1]));
    const copy = ed.copyLoot(loot);
    expect(Object.keys(copy)).toEqual([...ed.lootKinds]);
    expect(copy).toEqual(loot);
    expect(copy).not.toBe(loot);
  });
  it('addLoot adds to exactly the named kind, for every kind, keeping the layout', () => {
    ed.lootKinds.forEach((kind, i) => {
      const loot = ed.copyLoot(Object.fromEntries(ed.lootKinds.map((k, j) => [k, j])));
      const expected = { ...loot, [kind]: loot[kind] + i + 2 };
      ed.addLoot(loot, kind, i + 2);
      expect(loot).toEqual(expected);
      expect(Object.keys(loot)).toEqual([...ed.lootKinds]);
    });
  });
});

describe('classic: the campaign end by kind (booty.ts)', () => {
  const kinds = editionOf('classic').lootKinds;
  it('BOOTY_VALUE names exactly the kinds', () => {
    expect(new Set(Object.keys(BOOTY_VALUE))).toEqual(new Set(kinds));
  });
  it('bootyValue, bootyTokens and bootyToBag agree with their loops over the kinds', () => {
    fc.assert(
      fc.property(lootOf(kinds), (loot) => {
        let value = Math.floor(loot.map / MAP_SET.size) * MAP_SET.value;
        for (const k of kinds) value += BOOTY_VALUE[k] * loot[k];
        expect(bootyValue(loot)).toBe(value);
        expect(bootyTokens(loot)).toBe(kinds.reduce((n, k) => n + loot[k], 0));
        const bag = ['x'];
        const held = { ...loot };
        bootyToBag(held, bag);
        expect(bag).toEqual(['x', ...kinds.flatMap((k) => Array<string>(loot[k]).fill(k))]);
        expect(held).toEqual(Object.fromEntries(kinds.map((k) => [k, 0])));
      }),
      { numRuns: 100 },
    );
  });
});

describe('Galecrest: loot by kind index and the tile sides (loot.ts)', () => {
  it('heldOf, addHeld and clearLoot read and write exactly the kind at each index', () => {
    fc.assert(
      fc.property(lootOf(LOOT_KINDS), (loot) => {
        LOOT_KINDS.forEach((kind, k) => {
          expect(heldOf(loot, k)).toBe(loot[kind]);
          const more = { ...loot };
          addHeld(more, k);
          expect(more).toEqual({ ...loot, [kind]: loot[kind] + 1 });
        });
        const cleared = { ...loot };
        clearLoot(cleared);
        expect(Object.entries(cleared)).toEqual(LOOT_KINDS.map((k) => [k, 0]));
      }),
      { numRuns: 50 },
    );
  });

  it('the calm tiles and every new game’s sides name exactly the kinds', () => {
    expect(new Set(Object.keys(CALM_TILES))).toEqual(new Set(LOOT_KINDS));
    for (const board of ['calm', { side: 'uncharted', stormy: STORMY_TEST }]) {
      const g = createGame({ edition: 'galecrest', players: 3, seed: 'sides', board });
      const ext = g.ext as { sides: object; tiles: object };
      expect(new Set(Object.keys(ext.sides))).toEqual(new Set(LOOT_KINDS));
      expect(new Set(Object.keys(ext.tiles))).toEqual(new Set(LOOT_KINDS));
    }
  });

  it('tileFacts sees a change of any one tile’s side (its check by name covers every kind)', () => {
    /** The facts worked out afresh: after a tile set sharing no side with `t`. */
    const fresh = (t: TileSet) => {
      tileFacts(Object.fromEntries(LOOT_KINDS.map((k) => [k, {}])));
      return tileFacts(t);
    };
    for (const kind of LOOT_KINDS) {
      const changed: TileSet = { ...CALM_TILES, [kind]: { anchor: [{ doubloons: 99 }] } };
      const want = structuredClone(fresh(changed));
      fresh(CALM_TILES);
      expect(tileFacts(changed), kind).toEqual(want);
    }
  });
});
