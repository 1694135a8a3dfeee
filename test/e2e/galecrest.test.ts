// Full Winds of Galecrest games over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullGame } from '../setup/games.js';
import { startServer } from '../setup/http.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('Winds of Galecrest over HTTP', () => {
  it.each([
    [2, 1, 1],
    [4, 2, 2],
    [6, 6, 0],
  ])('%i seats: %i humans and %i bots on the calm board', async (seats, humans, bots) => {
    const game = await fullGame(
      s,
      { edition: 'GALECREST', board: 'CALM', seats, bots, seed: `gc-${seats}` },
      humans,
      seats + 100,
    );
    expect(game.board).toBe('CALM');
    expect(game.seats.every((x: any) => typeof x.reputation === 'number')).toBe(true);
  });

  it('answers NOT_AVAILABLE for a board without rules data', async () => {
    const p = await s.signUp('Stormy');
    const r = await s.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
      { i: { edition: 'GALECREST', board: 'STORMY', seats: 3 } },
      p.token,
    );
    expect(r.errors?.[0].extensions?.code).toBe('NOT_AVAILABLE');
  });
});
