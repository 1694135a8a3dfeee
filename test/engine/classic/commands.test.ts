// Commands: the secret choice, prompts, rejected commands (state unchanged), scenario errors,
// and what each seat may see.
import { describe, expect, it } from 'vitest';
import { applyInPlace, createGame, playScenario, view, viewEvent } from '../../../functions/engine/index.js';
import type { Command, GameState } from '../../../functions/engine/index.js';
import { day, lootOf, ofType, pending, seat, setup, snapshot } from './helpers.js';

const deal = [[2, 5, 7, 12, 16, 17, 20, 23, 28]];
const G = ['goods', 'goods', 'goods'];

function rejects(g: GameState, cmd: unknown, code: string): void {
  const before = snapshot(g);
  expect(() => applyInPlace(g, cmd as Command)).toThrow(expect.objectContaining({ code }));
  expect(snapshot(g)).toBe(before);
}

describe('the secret choice', () => {
  it('can be changed until the last seat chose; the change stays secret', () => {
    const { g } = setup({ deal, loot: [[G]] });
    const ev = day(g, [16, null, null], [], true);
    ev.push(...day(g, [23, null, null], [], true));
    expect(ofType(ev, 'cardChosen').map((e) => viewEvent(e, 1).data)).toEqual([
      { seat: 0, changed: false },
      { seat: 0, changed: true },
    ]);
    expect(view(g, 1).seats[0].hasChosen).toBe(true);
    expect(view(g, 1).me?.choice).toBeNull();
    expect(JSON.stringify(view(g, 1).seats)).not.toMatch(/\b(16|23)\b/);
    expect(view(g, 0).me?.choice).toBe(23);
    day(g, [null, 17, 2]);
    expect(seat(g, 0)).toMatchObject({ den: [23], hand: [2, 5, 7, 12, 16, 17, 20, 28] });
  });

  it('cannot be changed once revealed', () => {
    const { g } = setup({ deal, loot: [[['chest', 'goods', 'goods']]] });
    day(g, [28, 17, 2], [], true);
    expect(pending(g)?.seat).toBe(0);
    rejects(g, { seat: 1, play: 16 }, 'WRONG_PHASE');
  });
});

describe('prompts', () => {
  it('with a single option are answered by the engine (same-kind loot, one saber target, one den card)', () => {
    const { g } = setup({ deal, loot: [[G]] });
    const ev = day(g, [28, 17, 2]);
    expect(ofType(ev, 'prompt')).toEqual([]);
    expect([lootOf(g, 0), lootOf(g, 1), lootOf(g, 2)]).toEqual([{ goods: 1 }, { goods: 1 }, { goods: 1 }]);
  });

  it('offer one option per distinct loot kind, with readable ids', () => {
    const { g } = setup({ deal, loot: [[['relic', 'chest', 'relic']]] });
    day(g, [28, 17, 2], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['chest', 'relic'] });
    const v = view(g, 0);
    expect(v.me?.prompt?.options.map((o) => o.id)).toEqual(['chest', 'relic']);
    expect(view(g, 1).me?.prompt).toBeNull();
    expect(view(g, 1).pending).toMatchObject({ seat: 0, kind: 'loot' });
  });
});

describe('rejected commands leave the state unchanged', () => {
  it('ILLEGAL_MOVE: a card not in hand', () => {
    const { g } = setup({ deal, loot: [[G]] });
    rejects(g, { seat: 0, play: 1 }, 'ILLEGAL_MOVE');
    rejects(g, { seat: 0, play: 16.5 }, 'ILLEGAL_MOVE');
    day(g, [16, 17, 2]);
    rejects(g, { seat: 0, play: 16 }, 'ILLEGAL_MOVE'); // already played
  });

  it('ILLEGAL_MOVE: an option not offered, or a stale prompt id', () => {
    const { g } = setup({ deal, loot: [[['relic', 'chest', 'relic']]] });
    day(g, [28, 17, 2], [], true);
    rejects(g, { seat: 0, answer: 'jewel' }, 'ILLEGAL_MOVE');
    rejects(g, { seat: 0, answer: 'chest', promptId: 'p0' }, 'ILLEGAL_MOVE');
    applyInPlace(g, { seat: 0, answer: 'chest', promptId: g.prompt!.id });
    expect(lootOf(g, 0)).toEqual({ chest: 1 });
  });

  it('WRONG_PHASE: answering with no decision pending, answering for another seat, playing during a decision', () => {
    const { g } = setup({ deal, loot: [[['relic', 'chest', 'relic']]] });
    rejects(g, { seat: 0, answer: 'chest' }, 'WRONG_PHASE');
    day(g, [28, 17, 2], [], true);
    rejects(g, { seat: 1, answer: 'chest' }, 'WRONG_PHASE');
    rejects(g, { seat: 0, play: 16 }, 'WRONG_PHASE');
  });

  it('BAD_USER_INPUT: no such seat, or neither play nor answer', () => {
    const { g } = setup({ deal, loot: [[G]] });
    rejects(g, { seat: 3, play: 16 }, 'BAD_USER_INPUT');
    rejects(g, { seat: -1, play: 16 }, 'BAD_USER_INPUT');
    rejects(g, { seat: 0 }, 'BAD_USER_INPUT');
    rejects(g, { seat: 0, answer: 7 }, 'BAD_USER_INPUT');
    rejects(g, null, 'BAD_USER_INPUT');
  });
});

describe('playScenario', () => {
  it('reports the first illegal command as { error: { code, message, command } }', () => {
    const bad = { seat: 1, play: 1 };
    const r = playScenario({
      edition: 'classic',
      players: 3,
      seed: 's',
      deal,
      commands: [{ seat: 0, play: 16 }, bad, { seat: 2, play: 2 }],
    });
    expect(r).toEqual({ error: { code: 'ILLEGAL_MOVE', message: expect.stringContaining('command 1'), command: bad } });
  });

  it('reports a bad set-up with command null', () => {
    const r = playScenario({ edition: 'classic', players: 3, seed: 's', deal: [[1, 2, 3]], commands: [] });
    expect(r).toEqual({ error: { code: 'BAD_USER_INPUT', message: expect.any(String), command: null } });
    const r2 = playScenario({ edition: 'classic', players: 3, seed: 's', loot: [[['chest', 'chest']]], commands: [] });
    expect('error' in r2 && r2.error.code).toBe('BAD_USER_INPUT');
  });

  const example = {
    edition: 'classic' as const,
    players: 3,
    seed: 'any text',
    deal: [[1, 5, 9, 14, 18, 22, 25, 28, 30]],
    loot: [
      [
        ['chest', 'goods', 'relic'],
        ['map', 'map', 'saber'],
      ],
    ],
  };
  const plays: Command[] = [
    { seat: 0, play: 14 },
    { seat: 1, play: 9 },
    { seat: 2, play: 30 },
  ];

  it('plays to the next decision and returns summary, state and events', () => {
    const r = playScenario({
      ...example,
      commands: [...plays, { seat: 0, answer: 'chest' }, { seat: 1, answer: 'goods' }],
    });
    if ('error' in r) throw new Error(r.error.message);
    // The Carpenter (9) halves seat 1's purse, the Brute (14) throws the Spanish Governor (30)
    // overboard, so seat 0's Brute is the highest at dusk and picks first.
    expect(r.summary.seats.map((s) => [s.doubloons, s.den, s.graveyard])).toEqual([
      [10, [14], []],
      [5, [9], []],
      [10, [], [30]],
    ]);
    expect(r.summary.seats[0].loot).toMatchObject({ chest: 1 });
    expect(r.summary).toMatchObject({ round: 1, day: 2, phase: 'choose', finished: false, ranking: [] });
    expect(r.events.length).toBeGreaterThan(0);
  });

  it("rejects the issue's first draft of that example: the decision is seat 0's, not seat 2's (thrown overboard)", () => {
    const bad = { seat: 2, answer: 'chest' };
    const r = playScenario({ ...example, commands: [...plays, bad] });
    expect(r).toEqual({ error: { code: 'WRONG_PHASE', message: expect.stringContaining('command 3'), command: bad } });
  });
});

describe('hidden information', () => {
  it('other seats see how many tokens a den holds, not which; day picks are public, blind draws secret', () => {
    const { g } = setup({
      players: 2,
      deal,
      loot: [
        [
          ['chest', 'relic'],
          ['goods', 'goods'],
        ],
      ],
    });
    const ev = day(g, [28, 2], [[0, 'chest']]);
    const v1 = view(g, 1);
    expect(v1.seats[0].loot).toBeNull();
    expect(v1.seats[0].lootCount).toBe(1);
    expect(view(g, 0).seats[0].loot).toMatchObject({ chest: 1 });
    expect(view(g, null).seats[1].loot).toBeNull();
    // Taken from the face-up display: everyone saw it.
    expect(ofType(ev, 'lootGained').map((e) => viewEvent(e, 1).data.kind)).toEqual(['chest', 'relic']);
    // Graveyards and dens are public, hands are not.
    expect(v1.seats[0].den).toEqual([28]);
    expect(v1.seats[0].handSize).toBe(8);
    expect(v1.me?.hand).toEqual([5, 7, 12, 16, 17, 20, 23, 28]);
  });
});

describe('classic set-up', () => {
  it('has no board sides: a board option is refused with BAD_USER_INPUT', () => {
    expect(() => createGame({ edition: 'classic', players: 3, seed: 's', board: 'calm' })).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    );
    expect(createGame({ edition: 'classic', players: 3, seed: 's' }).edition).toBe('classic');
  });
});
