// One human and three bots (seated at the start) play a classic game to the end through the API;
// then: the scenario re-runs to the identical result, a replay at every seq matches the engine's
// own replay of the log, and a spectator never sees hidden information.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyInPlace,
  createGame,
  type GameEvent,
  type GameState,
  playScenario,
  view,
  viewEvent,
} from '../../../functions/engine/index.js';
import { createDynamoStore } from '../../../functions/store/index.js';
import { codeOf, GAME_FIELDS, testApp } from '../../setup/app.js';
import { allEvents, expectEventsRedacted, expectNoLeak, GAME_QUERY, playToEnd } from '../../setup/play.js';

let t: Awaited<ReturnType<typeof testApp>>;
let gameId: string;
let anne: { playerId: string; token: string };
const spectatorViews: any[] = [];

const REPLAY = `query($g: ID!, $at: Int!) { replay(gameId: $g, at: $at) { ${GAME_FIELDS} } }`;

beforeAll(async () => {
  t = await testApp();
  anne = await t.signUp('Anne Bonny');
  gameId = (
    await t.gql(
      `mutation { createGame(input: { edition: CLASSIC, seats: 4, seed: "replay me" }) { id } }`,
      {},
      anne.token,
    )
  ).data.createGame.id;
  const started = await t.gql(
    `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true, botKind: GREEDY) { ${GAME_FIELDS} } }`,
    { g: gameId },
    anne.token,
  );
  expect(started.errors).toBeUndefined();
  const gql: typeof t.gql = async (q, v, token) => {
    const r = await t.gql(q, v, token);
    // Between moves, look as a spectator too.
    if (q.includes('playCard') || q.includes('answerPrompt'))
      spectatorViews.push((await t.gql(GAME_QUERY, { id: gameId })).data.game);
    return r;
  };
  await playToEnd(gql, gameId, [anne.token, null, null, null], 11);
});
afterAll(() => t.close());

describe('a 4-seat game with 3 bots, one human', () => {
  it('bots were seated at the start and answered at once; the log has the real set-up events', async () => {
    const g = (await t.gql(GAME_QUERY, { id: gameId }, anne.token)).data.game;
    expect(g.status).toBe('FINISHED');
    expect(g.seats.map((s: any) => s.isBot)).toEqual([false, true, true, true]);
    const log = await allEvents(t.gql, gameId, anne.token);
    expect(log.filter((e) => e.type === 'botSeated').map((e) => e.data.seat)).toEqual([1, 2, 3]);
    const start = log.findIndex((e) => e.type === 'gameStarted');
    expect(log.slice(start + 1, start + 3).map((e) => e.type)).toContain('roundStart');
    expect(log.at(-1).type).toBe('gameEnd');
  });

  it('the finished game’s scenario re-runs to the identical result', async () => {
    const g = (
      await t.gql(
        `query($id: ID!) { game(id: $id) { seed scenario ranking { seat score } } }`,
        { id: gameId },
        anne.token,
      )
    ).data.game;
    expect(g.scenario.seed).toBe('replay me');
    const res = playScenario(g.scenario);
    if ('error' in res) throw new Error(res.error.message);
    expect(res.summary.finished).toBe(true);
    expect(res.summary.ranking).toEqual(g.ranking.map((r: any) => r.seat));
    expect(res.summary.seats.map((s) => s.score)).toEqual(
      [...g.ranking].sort((x: any, y: any) => x.seat - y.seat).map((r: any) => r.score),
    );
    const rest = await t.app.rest({ method: 'GET', path: `/games/${gameId}/scenario`, query: {}, headers: {} });
    expect(rest.status).toBe(200);
    expect(JSON.parse(rest.body)).toEqual(g.scenario);
  });

  it('a replay at every seq matches the engine’s replay of the log, as seat 0 and as a spectator', async () => {
    const store = t.app.services.store;
    const stored = (await store.log.listEvents(gameId, 0, 100000)).events;
    const scenario = (await t.gql(`query($id: ID!) { game(id: $id) { scenario } }`, { id: gameId }, anne.token)).data
      .game.scenario;
    // Engine side: the states after each command, and the engine events each produced, in order.
    const engineEvents: GameEvent[] = [];
    const g: GameState = createGame(scenario, engineEvents);
    const states: { state: GameState; eventsUpTo: number }[] = [
      { state: structuredClone(g), eventsUpTo: engineEvents.length },
    ];
    for (const c of scenario.commands) {
      applyInPlace(g, c, engineEvents);
      states.push({ state: structuredClone(g), eventsUpTo: engineEvents.length });
    }
    // Align the stored log with the engine's events (the service adds its own lobby events).
    const serviceOnly = new Set([
      'gameCreated',
      'playerJoined',
      'playerLeft',
      'botSeated',
      'gameStarted',
      'timeout',
      'seatReplaced',
      'rematch',
      'creatorChanged',
    ]);
    let k = 0;
    const expectedAt: (GameState | null)[] = [];
    let started = false;
    let done = 0; // engine events seen so far
    for (let seq = 0; seq <= stored.length; seq++) {
      if (seq > 0) {
        const e = stored[seq - 1];
        if (e.type === 'gameStarted') started = true;
        if (!serviceOnly.has(e.type)) {
          expect({ type: e.type, data: e.data, secret: e.secret }).toEqual({
            type: engineEvents[done].type,
            data: engineEvents[done].data,
            secret: engineEvents[done].secret,
          });
          done++;
        }
      }
      while (k + 1 < states.length && states[k + 1].eventsUpTo <= done) k++;
      expectedAt.push(started ? states[k].state : null);
    }
    expect(done).toBe(engineEvents.length);
    for (let seq = 0; seq <= stored.length; seq++) {
      const [mine, watcher] = await Promise.all([
        t.gql(REPLAY, { g: gameId, at: seq }, anne.token),
        t.gql(REPLAY, { g: gameId, at: seq }),
      ]);
      expect(mine.errors).toBeUndefined();
      const r = mine.data.replay;
      const want = expectedAt[seq];
      expect(r.lastSeq).toBe(seq);
      if (!want) {
        expect(r.status).toBe('LOBBY');
        continue;
      }
      for (const [seat, got] of [
        [0, r],
        [null, watcher.data.replay],
      ] as const) {
        const v = view(want, seat);
        expect(got.phase).toBe(v.phase.toUpperCase());
        expect([got.round, got.day, got.island, got.days, got.bagSize]).toEqual([
          v.round,
          v.day,
          v.island,
          v.days,
          v.bagSize,
        ]);
        expect(got.seats.map((s: any) => [s.doubloons, s.score, s.den, s.handSize, s.hasChosen, s.lootCount])).toEqual(
          v.seats.map((s) => [s.doubloons, s.score, s.den, s.handSize, s.hasChosen, s.lootCount]),
        );
        expect(got.me?.hand ?? null).toEqual(v.me?.hand ?? null);
        expect(got.me?.choice ?? null).toEqual(v.me?.choice ?? null);
        expectNoLeak(got, seat);
      }
    }
    expect(codeOf(await t.gql(REPLAY, { g: gameId, at: stored.length + 1 }, anne.token))).toBe('BAD_USER_INPUT');
  }, 120_000);

  it('a spectator never saw hidden information, in the game or in the log', async () => {
    expect(spectatorViews.length).toBeGreaterThan(10);
    for (const g of spectatorViews) expectNoLeak(g, null);
    const store = t.app.services.store;
    const stored = (await store.log.listEvents(gameId, 0, 100000)).events;
    const seen = await allEvents(t.gql, gameId);
    expectEventsRedacted(seen, null);
    expect(seen.map((e) => e.data)).toEqual(stored.map((e) => viewEvent(e, null).data));
    expect(seen.map((e) => e.data)).toEqual(stored.map((e) => e.data)); // the public part only
  });
});

describe('private games', () => {
  it('without spectators, non-players get FORBIDDEN for game, events, replay and the scenario', async () => {
    const [a, b, x] = await Promise.all([t.signUp('Owner'), t.signUp('Guest'), t.signUp('Stranger')]);
    const g = (
      await t.gql(
        `mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1, spectators: false, seed: "private" }) { id spectators } }`,
        {},
        a.token,
      )
    ).data.createGame;
    expect(g.spectators).toBe(false);
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: g.id }, a.token);
    for (const token of [undefined, x.token, b.token]) {
      expect(codeOf(await t.gql(GAME_QUERY, { id: g.id }, token))).toBe('FORBIDDEN');
      expect(codeOf(await t.gql(`query($g: ID!) { events(gameId: $g) { hasMore } }`, { g: g.id }, token))).toBe(
        'FORBIDDEN',
      );
      expect(codeOf(await t.gql(REPLAY, { g: g.id, at: 1 }, token))).toBe('FORBIDDEN');
    }
    expect((await t.app.rest({ method: 'GET', path: `/games/${g.id}/events`, query: {}, headers: {} })).status).toBe(
      403,
    );
    expect((await t.app.rest({ method: 'GET', path: `/games/${g.id}/scenario`, query: {}, headers: {} })).status).toBe(
      403,
    );
    expect((await t.gql(GAME_QUERY, { id: g.id }, a.token)).data.game.me.seat).toBe(0);
    // Not finished yet: no scenario for anyone.
    expect(
      (
        await t.app.rest({
          method: 'GET',
          path: `/games/${g.id}/scenario`,
          query: {},
          headers: { authorization: `Bearer ${a.token}` },
        })
      ).status,
    ).toBe(409);
  });
});
