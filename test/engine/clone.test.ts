// The hand-written state copy (clone.ts) against the JSON round trip it replaces.
import { describe, expect, it } from 'vitest';
import { apply, botCommand, botRandom, createGame, type GameState } from '../../functions/engine/index.js';
import { cloneState } from '../../functions/engine/context.js';
import { firstAwaitedSeat } from '../../functions/engine/core.js';

const json = (g: GameState) => JSON.parse(JSON.stringify(g)) as GameState;

describe.each([
  { edition: 'classic' as const, board: undefined },
  { edition: 'galecrest' as const, board: 'calm' },
])('$edition', ({ edition, board }) => {
  it.each([2, 4, 6])(
    '%i players: every state copies to the JSON round trip, and apply() leaves its input untouched',
    (players) => {
      for (let i = 0; i < 8; i++) {
        let g = createGame({ edition, players, seed: `clone${i}`, board });
        const rnd = botRandom(i + 1);
        while (!g.finished) {
          const before = JSON.stringify(g);
          const copy = cloneState(g);
          expect(copy).toEqual(json(g));
          expect(JSON.stringify(copy)).toBe(before);
          const next = apply(g, botCommand(g, firstAwaitedSeat(g), i % 2 ? 'greedy' : 'random', rnd)).state;
          expect(JSON.stringify(g)).toBe(before);
          g = next;
        }
      }
    },
  );
});

describe('Edition.copyLoot', () => {
  it.each(['classic', 'galecrest'] as const)(
    '%s: copies every loot kind, in lootKinds order, into a new record',
    async (id) => {
      const { editionOf } = await import('../../functions/engine/editions/index.js');
      const ed = editionOf(id);
      const loot = Object.fromEntries(ed.lootKinds.map((k, i) => [k, i + 1]));
      const copy = ed.copyLoot(loot);
      expect(Object.keys(copy)).toEqual([...ed.lootKinds]);
      expect(copy).toEqual(loot);
      expect(copy).not.toBe(loot);
    },
  );
});

describe('Edition.addLoot', () => {
  it.each(['classic', 'galecrest'] as const)(
    '%s: adds to exactly the named kind, for every kind, keeping the layout',
    async (id) => {
      const { editionOf } = await import('../../functions/engine/editions/index.js');
      const ed = editionOf(id);
      ed.lootKinds.forEach((kind, i) => {
        const loot = ed.copyLoot(Object.fromEntries(ed.lootKinds.map((k, j) => [k, j])));
        const expected = { ...loot, [kind]: loot[kind] + i + 2 };
        ed.addLoot(loot, kind, i + 2);
        expect(loot).toEqual(expected);
        expect(Object.keys(loot)).toEqual([...ed.lootKinds]);
      });
    },
  );
});
