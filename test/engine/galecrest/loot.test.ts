// Loot tiles: the calm side, the custom tile format (house rules), the stormy slot that
// is still empty, and uncharted boards drawn from the seed (with a stormy-like test table).
import { describe, expect, it } from 'vitest';
import { createGame, EngineError, playBotGame, view } from '../../../functions/engine/index.js';
import { bestSets, CALM_TILES, STORMY_TILES } from '../../../functions/engine/editions/galecrest/loot.js';
import { coins, day, giveLoot, lastDay, lootOf, ofType, pending, rep, seat, setup, same, toShip } from './helpers.js';
import { STORMY_TEST } from './tiles.js';
import type { GameEvent } from '../../../functions/engine/index.js';

const banked = (ev: GameEvent[]) => ofType(ev, 'voyageBanked').map((e) => e.data.banked);

/** Last day of voyage 1; everyone plays the Innkeeper (empty ships: no effect) and takes an amulet. */
function anchorWith(loot: Record<string, number>, board: unknown = 'calm') {
  const { g } = setup({
    deal: [[4, 40, 39, 37, 31, 30]],
    loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    board,
  });
  lastDay(g);
  giveLoot(g, 0, loot);
  return { g, ev: day(g, [4, 4, 4]) };
}

describe('Calm loot tiles', () => {
  it('chest +5, relic -3, barrel +1, amulet +3 at anchor', () => {
    expect(banked(anchorWith({ chest: 1, relic: 1, barrel: 1 }).ev)[0]).toBe(12 + 5 - 3 + 1 + 3);
  });

  it('maps score the best split into pairs (7) and triples (12)', () => {
    expect(
      [0, 1, 2, 3, 4, 5, 6, 7].map((n) =>
        bestSets(n, [
          { size: 2, value: 7 },
          { size: 3, value: 12 },
        ]),
      ),
    ).toEqual([0, 0, 7, 12, 14, 19, 24, 26]);
    expect(banked(anchorWith({ map: 5 }).ev)[0]).toBe(12 + 19 + 3);
  });

  it('barrel: +1 reputation at dusk, when taken', () => {
    const { g } = setup({ deal: [[4, 40, 39, 37, 31, 30]], loot: [[same('barrel')]] });
    day(g, [4, 4, 4]);
    expect(rep(g)).toEqual([1, 2, 3]);
  });

  it('saber: at dusk, discard another player’s character still on the island', () => {
    const { g } = setup({ deal: [[4, 32, 35, 37, 31, 30]], loot: [[['saber', 'amulet', 'amulet']]] });
    day(g, [35, 32, 4], [[0, 'saber']], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['2:4', '1:32'] });
    day(g, [], [[0, '1:32']]);
    expect(seat(g, 1)).toMatchObject({ den: [], graveyard: [32] });
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{ saber: 1 }, {}, { amulet: 1 }]);
  });

  it('hook: keep a ship character for the next voyage…', () => {
    const { g } = setup({
      deal: [[32, 40, 39, 37, 31, 30]],
      loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    });
    lastDay(g);
    toShip(g, 0, [30]);
    giveLoot(g, 0, { hook: 1 });
    day(g, [32, 40, 40], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['0:30', '0:32', 'doubloons'] });
    day(g, [], [[0, '0:30']]);
    expect(g.round).toBe(2);
    expect(seat(g, 0)).toMatchObject({ den: [30], graveyard: [32] });
  });

  it('…or gain 2', () => {
    const { g } = setup({
      deal: [[32, 40, 39, 37, 31, 30]],
      loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    });
    lastDay(g);
    giveLoot(g, 0, { hook: 1 });
    const ev = day(g, [32, 40, 40], [[0, 'doubloons']]);
    expect(banked(ev)[0]).toBe(12 + 2 + 3 + 1); // hook, amulet, Treasurer
    expect(seat(g, 0).den).toEqual([]);
  });

  it('loot goes back to the bag at anchor; day loot nobody took goes back after each dusk', () => {
    const { g } = setup({ deal: [[5, 40, 39, 37, 31, 30]], loot: [[same('amulet')]] });
    day(g, [5, 5, 5]); // three Cabin Boys take nothing
    expect(g.days[0]).toEqual([]);
    const amulets = (list: string[]) => list.filter((k) => k === 'amulet').length;
    expect(amulets(g.bag) + g.days.reduce((n, d) => n + amulets(d), 0)).toBe(6); // all six are back
  });
});

describe('Board choices', () => {
  const opts = (board: unknown) => ({ edition: 'galecrest' as const, players: 3, seed: 'b', board });
  const code = (board: unknown) => {
    try {
      createGame(opts(board));
      return 'ok';
    } catch (e) {
      return e instanceof EngineError ? `${e.code}: ${e.message}` : String(e);
    }
  };

  it('calm is the default and shows on every tile', () => {
    expect(view(createGame(opts(undefined)), null).board).toMatchObject({
      board: 'calm',
      sides: { chest: 'calm', map: 'calm' },
    });
  });

  it('stormy and uncharted answer NOT_AVAILABLE while the stormy table is not in the data', () => {
    expect(STORMY_TILES).toBeNull();
    expect(code('stormy')).toMatch(/^NOT_AVAILABLE/);
    expect(code('uncharted')).toMatch(/^NOT_AVAILABLE/);
    expect(code('foggy')).toMatch(/^BAD_USER_INPUT/);
  });
});

const HOUSE: Record<string, unknown> = { ...CALM_TILES, chest: { anchor: [{ doubloons: 10 }] } };

/** A stormy-like table for tests only (the printed stormy values are unknown). */

describe('Custom tile sets (house rules)', () => {
  it('{ tiles } replaces every tile: a chest worth 10', () => {
    expect(banked(anchorWith({ chest: 1 }, { tiles: HOUSE }).ev)[0]).toBe(12 + 10 + 3);
  });

  it('are checked with errors that name the bad place', () => {
    const bad = (tiles: unknown) => () => createGame({ edition: 'galecrest', players: 3, seed: 'x', board: { tiles } });
    const err = (tiles: unknown, msg: RegExp) => expect(bad(tiles)).toThrow(msg);
    err({ ...HOUSE, gold: {} }, /unknown loot kind "gold"/);
    const { hook: _h, ...noHook } = HOUSE;
    err(noHook, /the hook tile is missing/);
    err({ ...HOUSE, chest: { noon: [] } }, /board\.tiles\.chest: unknown timing "noon"/);
    err(
      { ...HOUSE, chest: { dusk: [{ sets: [{ size: 2, value: 7 }] }] } },
      /board\.tiles\.chest\.dusk\[0\]: "sets" works only at anchor/,
    );
    err({ ...HOUSE, relic: { anchor: [{ doubloons: 2.5 }] } }, /board\.tiles\.relic\.anchor\[0\]\.doubloons/);
    err({ ...HOUSE, saber: { dusk: [{ discard: 'sea' }] } }, /discard: "island" or "ship"/);
    err({ ...HOUSE, map: { anchor: [{ doubloons: 1, reputation: 1 }] } }, /exactly one of/);
    expect(bad('calm')).toThrow(EngineError);
    expect(() =>
      createGame({ edition: 'galecrest', players: 3, seed: 'x', board: { side: 'calm', extra: 1 } }),
    ).toThrow(/unknown field "extra"/);
  });

  it('a stormy side passed with the board plays like the printed one will: night and dusk effects', () => {
    const { g } = setup({
      deal: [[4, 40, 39, 37, 31, 30]],
      loot: [[same('hook')]],
      board: { side: 'stormy', stormy: STORMY_TEST },
    });
    giveLoot(g, 0, { relic: 2 });
    day(g, [4, 4, 4]);
    // Hook at dusk +2 each; seat 0's two relics +1 each at night.
    expect(coins(g)).toEqual([12 + 2 + 2, 11 + 2, 10 + 2]);
  });

  it('uncharted draws each tile’s side from the seed: replayable, and both sides show up', () => {
    const board = { side: 'uncharted', stormy: STORMY_TEST };
    const sides = (seed: string) =>
      view(createGame({ edition: 'galecrest', players: 4, seed, board }), null).board.sides as Record<string, string>;
    expect(sides('u1')).toEqual(sides('u1'));
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) for (const s of Object.values(sides(`u${i}`))) seen.add(s);
    expect([...seen].sort()).toEqual(['calm', 'stormy']);
    const g = createGame({ edition: 'galecrest', players: 4, seed: 'u1', board });
    const e = g.ext as { sides: Record<string, string>; tiles: Record<string, unknown> };
    for (const [kind, side] of Object.entries(e.sides)) {
      expect(e.tiles[kind]).toEqual((side === 'calm' ? CALM_TILES : STORMY_TEST)[kind as keyof typeof STORMY_TEST]);
    }
  });

  it('bots finish uncharted games with the test table for 2-6 players', () => {
    for (let n = 2; n <= 6; n++) {
      const { state } = playBotGame(
        { edition: 'galecrest', players: n, seed: `uncharted ${n}`, board: { side: 'uncharted', stormy: STORMY_TEST } },
        ['random'],
        n,
      );
      expect(state.finished).toBe(true);
    }
  });
});
