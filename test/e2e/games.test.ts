// Full classic games over real HTTP against the local server: humans and bots.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fullGame } from '../setup/games.js';
import { startServer } from '../setup/http.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('classic over HTTP', () => {
  const cases: [number, number, number, string][] = [
    // seats, humans, bots, bot kind
    [2, 1, 1, 'GREEDY'],
    [6, 1, 5, 'RANDOM'],
    [3, 2, 1, 'GREEDY'],
    [4, 4, 0, 'GREEDY'],
    [5, 3, 2, 'RANDOM'],
    [6, 6, 0, 'GREEDY'],
    [3, 1, 2, 'EXPERT'],
  ];
  it.each(cases)('%i seats: %i humans and %i %s bots play to the end', async (seats, humans, bots, botKind) => {
    await fullGame(
      s,
      { edition: 'CLASSIC', seats, bots, botKind, seed: `classic-${seats}-${humans}` },
      humans,
      seats * 10 + humans,
    );
  });
});
