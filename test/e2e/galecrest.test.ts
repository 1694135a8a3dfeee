// Full Winds of Galecrest games over real HTTP (skipped while the engine lacks the edition).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEditionId } from '../../functions/engine/index.js';
import { fullGame } from '../setup/games.js';
import { startServer } from '../setup/http.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const galecrest = isEditionId('galecrest');
describe.skipIf(!galecrest)(`Winds of Galecrest over HTTP${galecrest ? '' : ' (skipped: the engine has no galecrest edition yet)'}`, () => {
  it.each([
    [2, 1, 1],
    [4, 2, 2],
    [6, 6, 0],
  ])('%i seats: %i humans and %i bots on the calm board', async (seats, humans, bots) => {
    const game = await fullGame(s, { edition: 'GALECREST', board: 'CALM', seats, bots, seed: `gc-${seats}` }, humans, seats + 100);
    expect(game.board).toBe('CALM');
    expect(game.seats.every((x: any) => typeof x.reputation === 'number')).toBe(true);
  });

  it('answers NOT_AVAILABLE for a board without rules data', async () => {
    const p = await s.signUp('Stormy');
    const r = await s.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`, { i: { edition: 'GALECREST', board: 'STORMY', seats: 3 } }, p.token);
    expect(r.errors?.[0].extensions?.code).toBe('NOT_AVAILABLE');
  });
});
