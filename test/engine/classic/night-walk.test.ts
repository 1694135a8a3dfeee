// The classic night walk: settled when night falls (one `denNight` step per character), and
// still able to resume a game stored by an earlier version, paused at a night prompt with the
// old walk (`nightNext`, which looks for the next character each time) on its queue.
import { describe, expect, it } from 'vitest';
import { applyInPlace, botCommand, botRandom, createGame, type GameState } from '../../../functions/engine/index.js';
import { cloneState, firstAwaitedSeat } from '../../../functions/engine/core.js';

/**
 * The same state as the earlier version stored it: the night's remaining steps and the day's
 * end below them as one `nightNext` (which queued the day's end itself once nobody was left).
 */
function asStoredBefore(g: GameState): GameState {
  const old = cloneState(g);
  while (old.queue[old.queue.length - 1]?.t === 'denNight') old.queue.pop();
  expect(old.queue.pop()?.t).toBe('dayEnd');
  old.queue.push({ t: 'nightNext', seat: -1, rank: 0 });
  return old;
}

/** Plays to the end with random bots from a seeded source. */
function finish(g: GameState, botSeed: number): GameState {
  const rnd = botRandom(botSeed);
  while (!g.finished) applyInPlace(g, botCommand(g, firstAwaitedSeat(g), 'random', rnd), null);
  return g;
}

describe('classic night walk', () => {
  it('a game paused at a night prompt by the earlier walk ends exactly as with the new one', () => {
    let paused = 0;
    for (let i = 0; i < 60 && paused < 40; i++) {
      const g = createGame({ edition: 'classic', players: 4, seed: `night walk ${i}` });
      const rnd = botRandom(i + 1);
      while (!g.finished) {
        if (g.phase === 'night' && g.prompt && g.queue.some((s) => s.t === 'denNight')) {
          const old = asStoredBefore(g);
          expect(old.queue).not.toEqual(g.queue);
          expect(JSON.stringify(finish(old, 1000 + i))).toBe(JSON.stringify(finish(cloneState(g), 1000 + i)));
          paused++;
        }
        applyInPlace(g, botCommand(g, firstAwaitedSeat(g), 'random', rnd), null);
      }
    }
    // Waitresses with a map ask at night: enough pauses happen for the comparison to mean something.
    expect(paused).toBeGreaterThanOrEqual(40);
  });
});
