import { describe, expect, it } from 'vitest';
import { applyInPlace, createGame, summary } from '../../functions/engine/index.js';
import { assertPossible, handOnly } from './helpers.js';

describe('a day when nobody holds a card', () => {
  it('passes with an empty island instead of waiting for a choice nobody can make', () => {
    const g = createGame({
      edition: 'classic',
      players: 2,
      seed: 'empty hands',
      deal: [[7, 12, 20, 21, 22, 23, 24, 25, 26]],
    });
    // Set-up only: each seat keeps a single card, the Barkeep (night +1) and the Freed Slave.
    handOnly(g, 0, [7]);
    handOnly(g, 1, [12]);
    assertPossible(g);
    applyInPlace(g, { seat: 0, play: 7 });
    const events = applyInPlace(g, { seat: 1, play: 12 }) ?? [];
    // Whatever the dusk loot prompts, answer them until the campaign ends.
    while (g.prompt) applyInPlace(g, { seat: g.prompt.seat, answer: g.prompt.options[0].id }, events);
    const s = summary(g);
    expect(s.round).toBe(2);
    expect(s.day).toBe(1);
    expect(s.phase).toBe('choose');
    // Days 2-6 still came and went: six sunrises, and the Barkeep earned its night coin each night.
    expect(events.filter((e) => e.type === 'sunrise')).toHaveLength(6);
    const barkeep = events.filter((e) => e.type === 'doubloons' && e.data.reason === 'Barkeep');
    expect(barkeep).toHaveLength(6);
    expect(s.seats[0].hand).toHaveLength(6);
  });
});
