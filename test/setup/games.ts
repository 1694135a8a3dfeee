// A whole game over HTTP: sign-ups, lobby, start, random legal moves to the end, then the
// checks every full game must pass (ranking, complete and redacted logs for every viewer).
import { expect } from 'vitest';
import { GAME_FIELDS } from './app.js';
import type { startServer } from './http.js';
import { allEvents, expectEventsRedacted, expectNoLeak, GAME_QUERY, playToEnd } from './play.js';

type Server = Awaited<ReturnType<typeof startServer>>;

/** Signs up the humans, creates, joins, starts and plays a whole game; checks what each seat saw. */
export async function fullGame(s: Server, input: Record<string, unknown>, humans: number, seed: number) {
  const players = await Promise.all(Array.from({ length: humans }, (_, i) => s.signUp(`Pirate ${i}`)));
  const created = await s.gql(
    `mutation($i: CreateGameInput!) { createGame(input: $i) { id status } }`,
    { i: input },
    players[0].token,
  );
  expect(created.errors).toBeUndefined();
  const id = created.data.createGame.id;
  for (const p of players.slice(1))
    expect(
      (await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, p.token)).errors,
    ).toBeUndefined();
  const started = await s.gql(
    `mutation($g: ID!) { startGame(gameId: $g) { ${GAME_FIELDS} } }`,
    { g: id },
    players[0].token,
  );
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
