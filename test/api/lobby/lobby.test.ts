// Lobby conveniences: the creator may leave (the next player becomes the creator; the last
// one out cancels the lobby); rematch makes one new lobby with the same seats and a new seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStore } from '../../../functions/store/index.js';
import { codeOf, testApp } from '../../setup/app.js';
import { allEvents, playToEnd } from '../../setup/play.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const LOBBY_FIELDS = `id status creatorId seatCount spectators decisionTimeLimitHours timeoutsBeforeBot rematchId seats { seat playerId name isBot isOpen }`;
const open = async () => (await t.gql(`{ openGames { id } }`)).data.openGames.map((g: any) => g.id);

describe('leaving the lobby', () => {
  it('the creator leaves: the next player may start; the last one out cancels the game', async () => {
    const [a, b, c] = await Promise.all([t.signUp('Creator'), t.signUp('Heir'), t.signUp('Third')]);
    const id = (await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 3 }) { id } }`, {}, a.token)).data
      .createGame.id;
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    const left = (await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { ${LOBBY_FIELDS} } }`, { g: id }, a.token))
      .data.leaveGame;
    expect(left.creatorId).toBe(b.playerId);
    expect(left.seats[0].isOpen).toBe(true);
    expect(codeOf(await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token))).toBe(
      'FORBIDDEN',
    );
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, c.token);
    await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: id }, c.token);
    expect(await open()).toContain(id);
    const gone = (await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { ${LOBBY_FIELDS} } }`, { g: id }, b.token))
      .data.leaveGame;
    expect(gone.status).toBe('CANCELLED');
    expect(await open()).not.toContain(id);
    expect((await t.gql(`{ myGames { id } }`, {}, b.token)).data.myGames).toEqual([]);
    expect(codeOf(await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, c.token))).toBe(
      'WRONG_PHASE',
    );
    const types = (await allEvents(t.gql, id)).map((e) => e.type);
    expect(types.filter((x) => ['creatorChanged', 'gameCancelled'].includes(x))).toEqual([
      'creatorChanged',
      'gameCancelled',
    ]);
  });
});

describe('rematch', () => {
  it('one new lobby with the same seats and options and a new seed, however often it is asked for', async () => {
    const [a, b, x] = await Promise.all([t.signUp('Rem Anne'), t.signUp('Rem Mary'), t.signUp('Outsider')]);
    const input = {
      edition: 'CLASSIC',
      seats: 3,
      bots: 1,
      botKind: 'RANDOM',
      seed: 'first',
      decisionTimeLimitHours: 12,
      spectators: false,
      timeoutsBeforeBot: 4,
    };
    const id = (await t.gql(`mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`, { i: input }, a.token))
      .data.createGame.id;
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
    const REMATCH = `mutation($g: ID!) { rematch(gameId: $g) { ${LOBBY_FIELDS} } }`;
    expect(codeOf(await t.gql(REMATCH, { g: id }, a.token))).toBe('WRONG_PHASE'); // not finished
    await playToEnd(t.gql, id, [a.token, b.token, null], 3);
    expect(codeOf(await t.gql(REMATCH, { g: id }, x.token))).toBe('FORBIDDEN');
    const [r1, r2] = await Promise.all([t.gql(REMATCH, { g: id }, b.token), t.gql(REMATCH, { g: id }, a.token)]);
    expect(r1.errors).toBeUndefined();
    expect(r2.data.rematch.id).toBe(r1.data.rematch.id);
    // Both asked for it, so both accepted it: both are seated.
    const next = (
      await t.gql(`query($id: ID!) { game(id: $id) { ${LOBBY_FIELDS} } }`, { id: r1.data.rematch.id }, a.token)
    ).data.game;
    expect(next).toMatchObject({
      status: 'LOBBY',
      seatCount: 3,
      spectators: false,
      decisionTimeLimitHours: 12,
      timeoutsBeforeBot: 4,
      rematchId: null,
    });
    expect(next.seats.map((s: any) => [s.playerId, s.isBot])).toEqual([
      [a.playerId, false],
      [b.playerId, false],
      [null, true],
    ]);
    expect([a.playerId, b.playerId]).toContain(next.creatorId);
    const old = (await t.gql(`query($id: ID!) { game(id: $id) { rematchId } }`, { id }, a.token)).data.game;
    expect(old.rematchId).toBe(next.id);
    expect((await allEvents(t.gql, id, a.token)).filter((e) => e.type === 'rematch').map((e) => e.data)).toEqual([
      { gameId: next.id },
    ]);
    const store = t.app.services.store;
    const doc = (await store.log.loadGame<any>(next.id))!.game!.doc;
    expect(doc.seed).not.toBe('first');
    expect(doc.seats[2].bot).toBe('random');
    // Both players find it in their lobbies and its creator can start it.
    for (const p of [a, b])
      expect(
        (await t.gql(`{ myGames(status: LOBBY) { id } }`, {}, p.token)).data.myGames.map((g: any) => g.id),
      ).toContain(next.id);
    const creator = next.creatorId === a.playerId ? a : b;
    expect(
      (await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { status } }`, { g: next.id }, creator.token)).data
        .startGame.status,
    ).toBe('ACTIVE');
  });

  it('consent: only the asker is seated; the others accept by asking or joining, may leave, and strangers cannot take their seats', async () => {
    const [a, b, x] = await Promise.all([t.signUp('Con Anne'), t.signUp('Con Mary'), t.signUp('Con Stranger')]);
    const id = (await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, a.token)).data
      .createGame.id;
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
    await playToEnd(t.gql, id, [a.token, b.token], 2);
    const REMATCH = `mutation($g: ID!) { rematch(gameId: $g) { ${LOBBY_FIELDS} } }`;
    const next = (await t.gql(REMATCH, { g: id }, a.token)).data.rematch;
    expect(next.seats.map((s: any) => [s.playerId, s.isOpen])).toEqual([
      [a.playerId, false],
      [null, true],
    ]);
    // Mary never agreed: she is not in it, it cannot start with her, and a stranger cannot take her seat.
    expect(
      (await t.gql(`{ myGames(status: LOBBY) { id } }`, {}, b.token)).data.myGames.map((g: any) => g.id),
    ).not.toContain(next.id);
    expect(codeOf(await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: next.id }, a.token))).toBe(
      'WRONG_PHASE',
    );
    expect(codeOf(await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: next.id }, x.token))).toBe(
      'CONFLICT',
    );
    expect(await open()).not.toContain(next.id);
    // She accepts by joining, takes her old seat, and may still leave.
    const joined = (
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { ${LOBBY_FIELDS} } }`, { g: next.id }, b.token)
    ).data.joinGame;
    expect(joined.seats.map((s: any) => s.playerId)).toEqual([a.playerId, b.playerId]);
    const left = (
      await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { ${LOBBY_FIELDS} } }`, { g: next.id }, b.token)
    ).data.leaveGame;
    expect(left.seats[1].playerId).toBeNull();
    expect((await t.gql(`{ myGames { id } }`, {}, b.token)).data.myGames.map((g: any) => g.id)).not.toContain(next.id);
    const types = (await allEvents(t.gql, next.id, a.token)).map((e) => e.type);
    expect(types).toEqual(['gameCreated', 'playerJoined', 'playerInvited', 'playerJoined', 'playerLeft']);
  });
});
