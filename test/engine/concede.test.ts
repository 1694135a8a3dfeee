// Conceding: a seat that gives up is still played to the end and ranks below every seat that
// did not; among conceded seats, whoever gave up earliest is last.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInPlace, awaitedSeats, cloneState } from '../../functions/engine/core.js';
import {
  botCommand,
  botRandom,
  createGame,
  type EditionId,
  type GameEvent,
  type GameState,
} from '../../functions/engine/index.js';
import { concededLast } from '../../functions/engine/scoring.js';
import { editionOf } from '../../functions/engine/editions/index.js';

/** Plays bots for every awaited seat, conceding `plan[seat]` before the command numbered so. */
function playOut(
  edition: EditionId,
  players: number,
  seed: string,
  plan: Map<number, number>,
): { g: GameState; events: GameEvent[] } {
  const g = createGame({ edition, players, seed });
  const events: GameEvent[] = [];
  const rnd = botRandom(seed);
  let moves = 0;
  while (!g.finished) {
    for (const [seat, at] of plan)
      if (at === moves && !g.conceded?.includes(seat)) applyInPlace(g, { seat, concede: true }, events);
    const seat = awaitedSeats(g)[0];
    applyInPlace(g, botCommand(g, seat, 'random', rnd), events);
    moves++;
  }
  return { g, events };
}

describe('concededLast', () => {
  it('keeps the others in order and puts the earliest concession last', () => {
    expect(concededLast([2, 0, 3, 1], [0, 3])).toEqual([2, 1, 3, 0]);
    expect(concededLast([2, 0, 3, 1], undefined)).toEqual([2, 0, 3, 1]);
    expect(concededLast([1, 0], [1, 0])).toEqual([0, 1]);
  });
});

describe('the concede command', () => {
  it('a conceded seat finishes last whatever its score, and its game ends', () => {
    // Seat 0 concedes at once: it still plays (a bot) to the end.
    for (let i = 0; i < 10; i++) {
      const { g, events } = playOut('classic', 3, `concede-${i}`, new Map([[0, 0]]));
      expect(g.finished).toBe(true);
      expect(g.ranking[2]).toBe(0);
      const end = events.find((e) => e.type === 'gameEnd');
      expect(end?.data.ranking).toEqual(g.ranking);
      const unconceded = editionOf('classic')
        .ranking(g)
        .filter((s) => s !== 0);
      expect(g.ranking.slice(0, 2)).toEqual(unconceded);
      expect(events.filter((e) => e.type === 'conceded')).toEqual([{ type: 'conceded', data: { seat: 0 } }]);
    }
  });

  it('ranks conceded seats after the others, latest concession first, in both editions', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<EditionId>('classic', 'galecrest'),
        fc.integer({ min: 2, max: 6 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 60 })), { maxLength: 4 }),
        (edition, players, seed, raw) => {
          const plan = new Map(raw.filter(([s]) => s < players));
          const { g, events } = playOut(edition, players, seed, plan);
          const order = events.filter((e) => e.type === 'conceded').map((e) => e.data.seat as number);
          expect(order).toEqual(g.conceded ?? []);
          expect(g.ranking).toEqual(concededLast(editionOf(edition).ranking(g), order));
          expect(g.ranking.slice(players - order.length)).toEqual([...order].reverse());
        },
      ),
      { numRuns: 25 },
    );
  });

  it('refuses a second concession and any command after the end, changing nothing', () => {
    const g = createGame({ edition: 'classic', players: 2, seed: 'twice' });
    applyInPlace(g, { seat: 1, concede: true });
    const before = JSON.stringify(g);
    expect(() => applyInPlace(g, { seat: 1, concede: true })).toThrow(/already conceded/);
    expect(JSON.stringify(g)).toBe(before);
    expect(cloneState(g)).toEqual(g);
    const done = playOut('classic', 2, 'done', new Map()).g;
    expect(() => applyInPlace(done, { seat: 0, concede: true })).toThrow(/finished/);
  });
});
