// Conceding over the API: the seat ranks last, a bot plays it to the end, the game ends; retries
// are answered once; the scenario export replays to the same ranking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playScenario, type Scenario } from '../../../functions/engine/index.js';
import { codeOf, GAME_FIELDS, testApp } from '../../setup/app.js';
import { allEvents, PLAY, playToEnd } from '../../setup/play.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const CONCEDE = `mutation($g: ID!, $q: ID) { concede(gameId: $g, requestId: $q) { ${GAME_FIELDS} seats { seat conceded replacedByBot isBot } } }`;

async function startedGame(seats: number, seed: string) {
  const players = await Promise.all(Array.from({ length: seats }, (_, i) => t.signUp(`Conceder ${i}`)));
  const g = (
    await t.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
      { i: { edition: 'CLASSIC', seats, seed } },
      players[0].token,
    )
  ).data.createGame;
  for (const p of players.slice(1))
    expect(
      (await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: g.id }, p.token)).errors,
    ).toBeUndefined();
  return { id: g.id as string, players, lobbyToken: players[0].token };
}

const start = (id: string, token: string) =>
  t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, token);

describe('concede', () => {
  it('a conceded seat finishes last, its game ends, and a retry is applied once', async () => {
    const { id, players, lobbyToken } = await startedGame(3, 'give-up');
    expect(codeOf(await t.gql(CONCEDE, { g: id }, lobbyToken))).toBe('WRONG_PHASE'); // not started
    expect((await start(id, lobbyToken)).errors).toBeUndefined();
    const [a, b, c] = players;

    const first = await t.gql(CONCEDE, { g: id, q: 'concede-1' }, c.token);
    expect(first.errors).toBeUndefined();
    expect(first.data.concede.seats[2]).toMatchObject({ conceded: true, replacedByBot: true, isBot: true });
    expect(first.data.concede.awaiting).not.toContain(2); // the bot chose at once
    const retry = await t.gql(CONCEDE, { g: id, q: 'concede-1' }, c.token);
    expect(retry.data.concede.version).toBe(first.data.concede.version);
    expect(codeOf(await t.gql(CONCEDE, { g: id, q: 'concede-2' }, c.token))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(PLAY, { g: id, r: 1 }, c.token))).toBe('FORBIDDEN');
    const stranger = await t.signUp('Onlooker');
    expect(codeOf(await t.gql(CONCEDE, { g: id }, stranger.token))).toBe('FORBIDDEN');

    const { game } = await playToEnd(t.gql, id, [a.token, b.token, null], 7);
    expect(game.status).toBe('FINISHED');
    expect(game.ranking.map((r: { seat: number }) => r.seat)[2]).toBe(2);
    const log = await allEvents(t.gql, id, a.token);
    expect(log.filter((e) => e.type === 'conceded').map((e) => e.data)).toEqual([{ seat: 2 }]);
    const end = log.find((e) => e.type === 'gameEnd');
    expect(end.data.ranking[2]).toBe(2);
    expect(codeOf(await t.gql(CONCEDE, { g: id }, a.token))).toBe('WRONG_PHASE'); // over

    // The export holds the concession as a command: it replays to the service's ranking.
    const sc = (await t.gql(`query($id: ID!) { game(id: $id) { scenario } }`, { id }, a.token)).data.game
      .scenario as Scenario;
    const replayed = playScenario(sc);
    expect('summary' in replayed && replayed.summary.ranking).toEqual(end.data.ranking);
  });

  it('when every human concedes, the bots finish the game at once; the earliest concession is last', async () => {
    const { id, players, lobbyToken } = await startedGame(2, 'both-give-up');
    expect((await start(id, lobbyToken)).errors).toBeUndefined();
    expect((await t.gql(CONCEDE, { g: id }, players[1].token)).errors).toBeUndefined();
    const last = await t.gql(CONCEDE, { g: id }, players[0].token);
    expect(last.errors).toBeUndefined();
    expect(last.data.concede.status).toBe('FINISHED');
    expect(last.data.concede.ranking.map((r: { seat: number }) => r.seat)).toEqual([0, 1]);
  });
});
