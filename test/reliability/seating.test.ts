// Issue 23, finding 5 (griefing): one account took the free seat of every open lobby, nobody
// could remove a seated player before the start, and a game without a time limit waited for a
// silent seat forever. Each attack replayed over HTTP: the typed answer, and nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDS } from '../../functions/api/http/ratelimit.js';
import { DEFAULT_DECISION_TIME_LIMIT_HOURS, JOINED_LOBBIES } from '../../functions/api/lobby/joined.js';
import { CREATE, type Harness, JOIN, START, startHarness } from './harness.js';

let h: Harness;
let clock = Date.parse('2031-06-01T08:00:00.000Z');
beforeAll(async () => {
  h = await startHarness({ now: () => new Date(clock) });
});
afterAll(() => h.close());

const codeOf = (r: { errors?: any[] }) => r.errors?.[0]?.extensions?.code;
const REMOVE = `mutation($g: ID!, $p: ID!) { removePlayer(gameId: $g, playerId: $p) { id status seats { playerId } } }`;
const SEATS = `query($id: ID!) { game(id: $id) { status seats { playerId } } }`;
const seated = async (id: string, token: string) =>
  (await h.gql(SEATS, { id }, token)).data.game.seats.map((s: any) => s.playerId);

async function lobby(creatorName: string, seats = 2) {
  const creator = await h.signUp(creatorName);
  const id = (await h.gql(CREATE, { i: { edition: 'CLASSIC', seats } }, creator.token)).data.createGame.id as string;
  return { id, creator };
}

describe('finding 5: griefing the lobby', () => {
  it(`one player waits in at most ${BOUNDS.joinedLobbiesPerPlayer} joined lobbies; the next join is LIMIT_EXCEEDED and takes no seat; leaving or a start frees a place`, async () => {
    const squatter = await h.signUp('Squatter');
    const lobbies = [];
    for (let i = 0; i <= BOUNDS.joinedLobbiesPerPlayer; i++) lobbies.push(await lobby(`Host ${i}`));
    // all at once: the cap is exact under concurrent joins
    const answers = await Promise.all(lobbies.map((l) => h.gql(JOIN, { g: l.id }, squatter.token)));
    const refused = answers.filter((a) => codeOf(a) === 'LIMIT_EXCEEDED');
    expect(refused).toHaveLength(1);
    expect(refused[0].errors![0].extensions.limit).toEqual({
      name: 'joinedLobbiesPerPlayer',
      max: BOUNDS.joinedLobbiesPerPlayer,
    });
    const left = lobbies[answers.indexOf(refused[0])];
    expect(await seated(left.id, left.creator.token)).toEqual([left.creator.playerId, null]); // unchanged
    expect(await h.store.players.listPlayerSet(squatter.playerId, JOINED_LOBBIES)).toHaveLength(
      BOUNDS.joinedLobbiesPerPlayer,
    );
    // leaving one gives its place back at once
    const joined = lobbies.filter((l) => l !== left);
    await h.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: joined[0].id }, squatter.token);
    expect(codeOf(await h.gql(JOIN, { g: left.id }, squatter.token))).toBeUndefined();
    expect(codeOf(await h.gql(JOIN, { g: joined[0].id }, squatter.token))).toBe('LIMIT_EXCEEDED');
    // a lobby that starts is no longer one the player waits in
    expect((await h.gql(START, { g: joined[1].id }, joined[1].creator.token)).data.startGame.status).toBe('ACTIVE');
    expect(codeOf(await h.gql(JOIN, { g: joined[0].id }, squatter.token))).toBeUndefined();
  });

  it('the creator removes a seated player before the start; others may not; the removed player cannot come back', async () => {
    const { id, creator } = await lobby('Captain Remover', 3);
    const pest = await h.signUp('Pest');
    const friend = await h.signUp('Friend');
    await h.gql(JOIN, { g: id }, pest.token);
    await h.gql(JOIN, { g: id }, friend.token);
    const before = await h.partition(id);
    // not the creator: FORBIDDEN, nothing written
    expect(codeOf(await h.gql(REMOVE, { g: id, p: pest.playerId }, friend.token))).toBe('FORBIDDEN');
    expect(codeOf(await h.gql(REMOVE, { g: id, p: friend.playerId }, pest.token))).toBe('FORBIDDEN');
    // not seated, or the creator's own seat: typed, nothing written
    expect(codeOf(await h.gql(REMOVE, { g: id, p: '00000000-0000-4000-8000-000000000000' }, creator.token))).toBe(
      'NOT_FOUND',
    );
    expect(codeOf(await h.gql(REMOVE, { g: id, p: creator.playerId }, creator.token))).toBe('BAD_USER_INPUT');
    expect(await h.partition(id)).toEqual(before);
    // the creator removes the pest: the seat is free, the event says who removed whom
    const r = await h.gql(REMOVE, { g: id, p: pest.playerId }, creator.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.removePlayer.seats.map((s: any) => s.playerId)).toEqual([creator.playerId, null, friend.playerId]);
    const events = (
      await h.gql(
        `query($g: ID!) { events(gameId: $g) { events { type text ... on PlayerLeftEvent { playerId removedBy } } } }`,
        { g: id },
        creator.token,
      )
    ).data.events.events;
    expect(events.at(-1)).toMatchObject({ type: 'playerLeft', playerId: pest.playerId, removedBy: creator.playerId });
    expect(events.at(-1).text).toMatch(/removed/);
    expect((await h.gql(`{ myGames { id } }`, {}, pest.token)).data.myGames.map((g: any) => g.id)).not.toContain(id);
    // the pest cannot sit down again
    expect(codeOf(await h.gql(JOIN, { g: id }, pest.token))).toBe('FORBIDDEN');
    expect(await seated(id, creator.token)).toEqual([creator.playerId, null, friend.playerId]);
    // after the start: WRONG_PHASE, nothing written
    await h.gql(`mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { id } }`, { g: id }, creator.token);
    const started = await h.partition(id);
    expect(codeOf(await h.gql(REMOVE, { g: id, p: friend.playerId }, creator.token))).toBe('WRONG_PHASE');
    expect(await h.partition(id)).toEqual(started);
  });

  it(`every game has a clock: ${DEFAULT_DECISION_TIME_LIMIT_HOURS} h when none is given; a silent seat is played by the sweep, then by a bot`, async () => {
    const { id, creator } = await lobby('Clockless');
    const silent = await h.signUp('Silent Sam');
    await h.gql(JOIN, { g: id }, silent.token);
    await h.gql(START, { g: id }, creator.token);
    const g = (
      await h.gql(
        `query($id: ID!) { game(id: $id) { decisionTimeLimitHours seats { deadline } } }`,
        { id },
        creator.token,
      )
    ).data.game;
    expect(g.decisionTimeLimitHours).toBe(DEFAULT_DECISION_TIME_LIMIT_HOURS);
    expect(g.seats[1].deadline).toBe(new Date(clock + DEFAULT_DECISION_TIME_LIMIT_HOURS * 3600_000).toISOString());
    // nobody moves: each pass of the clock lets the sweep play the awaited seats, until bots take them over
    // (read from the store: the players' hour-long tokens have long expired)
    let replaced = false;
    for (let i = 0; i < 3 * BOUNDS.commandsPerSeatPerMinute && !replaced; i++) {
      clock += (DEFAULT_DECISION_TIME_LIMIT_HOURS + 1) * 3600_000;
      await h.app.sweep(new Date(clock));
      replaced = (await h.game(id))!.doc.seats[1].replaced === true;
    }
    expect(replaced).toBe(true);
  }, 120_000);
});
