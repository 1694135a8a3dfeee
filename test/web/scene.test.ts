// The island's places through a day (scene.ts islandSlots): the sunrise order kept, cards that
// left marked, and a card that came later (the Parrot's replacement) placed by rank.
// The loot tokens taken since a drawing (day.ts lootFlights), each from its day space or the bag.
// The order the cards that left fade in (slots.ts leaveOrder).
import { describe, expect, it } from 'vitest';
import { lootFlights } from '../../web/src/day';
import { islandSlots, leaveOrder } from '../../web/src/slots';
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

describe('lootFlights', () => {
  const ev = (seq: number, type: string, data: Record<string, unknown>) =>
    ({ seq, type, at: '', text: type, data }) as unknown as GameEvent;
  const log = [
    ev(1, 'sunrise', { round: 1, day: 1, island: [] }),
    ev(2, 'lootGained', { seat: 1, kind: 'chest', n: 1, why: 'day' }),
    ev(3, 'sunrise', { round: 1, day: 2, island: [] }),
    ev(4, 'lootGained', { seat: 2, kind: 'jewel', n: 1, why: 'day' }),
    ev(5, 'lootGained', { seat: 0, n: 2, why: 'bag' }),
  ];

  it('sends each token taken after the given event from its day space, in the order taken', () => {
    expect(lootFlights(log, 3)).toEqual([
      { seq: 4, seat: 2, kind: 'jewel', day: 2 },
      { seq: 5, seat: 0, kind: undefined, day: null },
      { seq: 5, seat: 0, kind: undefined, day: null },
    ]);
  });

  it('sends nothing for tokens taken before', () => {
    expect(lootFlights(log, 5)).toEqual([]);
    expect(lootFlights(log, 1)[0]).toEqual({ seq: 2, seat: 1, kind: 'chest', day: 1 });
  });
});

describe('leaveOrder', () => {
  const left = (seq: number, seat: number, rank: number, to: string) =>
    ({ seq, type: 'character', at: '', text: '', data: { seat, rank, from: 'island', to } }) as unknown as GameEvent;
  const slots = [
    { seat: 0, rank: 3, here: false },
    { seat: 1, rank: 9, here: true },
    { seat: 2, rank: 12, here: false },
    { seat: 3, rank: 30, here: false },
  ];

  it('fades the cards in the order they left: a day ability first (left to right), then dusk right to left', () => {
    // Seat 2's card killed during the day, then dusk from the right: seat 3, then seat 0.
    const events = [left(10, 2, 12, 'graveyard'), left(11, 3, 30, 'den'), left(12, 0, 3, 'den')];
    expect(leaveOrder(slots, events)).toEqual([2, 0, 0, 1]);
  });

  it('uses the latest time a card left (a card that came back and left again)', () => {
    const events = [left(5, 0, 3, 'den'), left(10, 3, 30, 'den'), left(11, 2, 12, 'den'), left(12, 0, 3, 'den')];
    expect(leaveOrder(slots, events)).toEqual([2, 0, 1, 0]);
  });
});
