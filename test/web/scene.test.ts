// The island's places through a day (scene.ts islandSlots): the sunrise order kept, cards that
// left marked, and a card that came later (the Parrot's replacement) placed by rank.
import { describe, expect, it } from 'vitest';
import { islandSlots } from '../../web/src/slots';
import type { Game, GameEvent } from '../../web/src/types';

const sunrise = (island: string[]): GameEvent =>
  ({ seq: 5, type: 'sunrise', at: '', text: 'Sunrise', data: { round: 1, day: 2, island } }) as unknown as GameEvent;
const game = (island: [number, number][], phase = 'DAY') =>
  ({
    status: 'ACTIVE',
    phase,
    round: 1,
    day: 2,
    island: island.map(([seat, rank]) => ({ seat, rank })),
  }) as unknown as Game;

describe('islandSlots', () => {
  it('keeps the sunrise places and marks the cards that left', () => {
    const slots = islandSlots(
      game([
        [1, 9],
        [2, 30],
      ]),
      [sunrise(['0:3', '1:9', '2:30'])],
    );
    expect(slots).toEqual([
      { seat: 0, rank: 3, here: false },
      { seat: 1, rank: 9, here: true },
      { seat: 2, rank: 30, here: true },
    ]);
  });

  it("puts the Parrot's replacement after the Parrot's empty place, in rank order", () => {
    const slots = islandSlots(
      game([
        [0, 3],
        [1, 3],
        [2, 30],
      ]),
      [sunrise(['0:1', '1:3', '2:30'])],
    );
    expect(slots.map((s) => [s.seat, s.rank, s.here])).toEqual([
      [0, 1, false],
      [0, 3, true],
      [1, 3, true],
      [2, 30, true],
    ]);
  });

  it('shows the game island as it is while the players choose', () => {
    expect(islandSlots(game([], 'CHOOSE'), [sunrise(['0:1'])])).toEqual([]);
  });
});
