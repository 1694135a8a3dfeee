// Full games over real HTTP against the local server: humans and bots, both editions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEditionId } from '../../functions/engine/index.js';
import { GAME_FIELDS } from '../setup/app.js';
import { startServer } from '../setup/http.js';
import { allEvents, expectEventsRedacted, expectNoLeak, GAME_QUERY, playToEnd } from '../setup/play.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { id status } }`;

/** Signs up the humans, creates, joins, starts and plays a whole game; checks what each seat saw. */
async function fullGame(input: Record<string, unknown>, humans: number, seed: number) {
  const players = await Promise.all(Array.from({ length: humans }, (_, i) => s.signUp(`Pirate ${i}`)));
  const created = await s.gql(CREATE, { i: input }, players[0].token);
  expect(created.errors).toBeUndefined();
  const id = created.data.createGame.id;
  for (const p of players.slice(1)) expect((await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, p.token)).errors).toBeUndefined();
  const started = await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { ${GAME_FIELDS} } }`, { g: id }, players[0].token);
  expect(started.data.startGame.status).toBe('ACTIVE');
  const seats = input.seats as number;
  const tokens = Array.from({ length: seats }, (_, i) => (i < humans ? players[i].token : null));
  const { game } = await playToEnd(s.gql, id, tokens, seed);
  expect(game.status).toBe('FINISHED');
  expect(game.ranking.map((r: any) => r.seat).sort()).toEqual([...Array(seats).keys()]);
  expect(game.seats.filter((x: any) => x.isBot)).toHaveLength(seats - humans);
  // Every seat's log is complete and shows secrets of that seat only; so is the spectator's.
  const viewers: (number | null)[] = [...Array(humans).keys(), null];
  const logs = await Promise.all(viewers.map((v) => allEvents(s.gql, id, v === null ? undefined : tokens[v]!)));
  logs.forEach((log, i) => {
    expect(log.map((e) => e.seq)).toEqual(log.map((_, k) => k + 1));
    expect(log.map((e) => e.type)).toEqual(logs[0].map((e) => e.type));
    expectEventsRedacted(log, viewers[i]);
  });
  expect(logs[0].filter((e) => e.type === 'gameEnd')).toHaveLength(1);
  const mine = await s.gql(`{ myGames(status: FINISHED) { id } }`, {}, players[humans - 1].token);
  expect(mine.data.myGames.map((g: any) => g.id)).toContain(id);
  expectNoLeak((await s.gql(GAME_QUERY, { id })).data.game, null);
  return game;
}

describe('classic over HTTP', () => {
  const cases: [number, number, number, string][] = [
    // seats, humans, bots, bot kind
    [2, 1, 1, 'GREEDY'],
    [6, 1, 5, 'RANDOM'],
    [3, 2, 1, 'GREEDY'],
    [4, 4, 0, 'GREEDY'],
    [5, 3, 2, 'RANDOM'],
    [6, 6, 0, 'GREEDY'],
  ];
  it.each(cases)('%i seats: %i humans and %i %s bots play to the end', async (seats, humans, bots, botKind) => {
    await fullGame({ edition: 'CLASSIC', seats, bots, botKind, seed: `classic-${seats}-${humans}` }, humans, seats * 10 + humans);
  });
});

const galecrest = isEditionId('galecrest');
describe.skipIf(!galecrest)(`Winds of Galecrest over HTTP${galecrest ? '' : ' (skipped: the engine has no galecrest edition yet)'}`, () => {
  it.each([
    [2, 1, 1],
    [4, 2, 2],
    [6, 6, 0],
  ])('%i seats: %i humans and %i bots on the calm board', async (seats, humans, bots) => {
    const game = await fullGame({ edition: 'GALECREST', board: 'CALM', seats, bots, seed: `gc-${seats}` }, humans, seats + 100);
    expect(game.board).toBe('CALM');
    expect(game.seats.every((x: any) => typeof x.reputation === 'number')).toBe(true);
  });

  it('answers NOT_AVAILABLE for a board without rules data', async () => {
    const p = await s.signUp('Stormy');
    const r = await s.gql(CREATE, { i: { edition: 'GALECREST', board: 'STORMY', seats: 3 } }, p.token);
    expect(r.errors?.[0].extensions?.code).toBe('NOT_AVAILABLE');
  });
});
