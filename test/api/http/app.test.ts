import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../functions/api/http/app.js';
import { ownToken } from '../../setup/tokens.js';
import { localDocumentClient } from '../../../functions/local/dynalite.js';
import { createDynamoStore } from '../../../functions/store/index.js';
import { inject } from 'vitest';
import { codeOf, GAME_FIELDS, SIGNING_KEY, testApp } from '../../setup/app.js';
import { counters, logger } from '../../../functions/api/http/telemetry.js';
import { crashedStart } from '../../setup/crash.js';
import { allEvents, expectEventsRedacted, expectNoLeak, GAME_QUERY, PLAY, playToEnd } from '../../setup/play.js';

let t: Awaited<ReturnType<typeof testApp>>;
let clock = new Date('2030-01-01T00:00:00.000Z');

beforeAll(async () => {
  t = await testApp({ now: () => clock });
});
afterAll(() => t.close());

const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { ${GAME_FIELDS} } }`;
const JOIN = `mutation($g: ID!) { joinGame(gameId: $g) { id status seats { seat name isOpen } } }`;
const LEAVE = `mutation($g: ID!) { leaveGame(gameId: $g) { id seats { seat name isOpen } } }`;
const START = `mutation($g: ID!) { startGame(gameId: $g) { ${GAME_FIELDS} } }`;

async function created(token: string, input: Record<string, unknown>) {
  const r = await t.gql(CREATE, { i: input }, token);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data.createGame;
}

describe('answers', () => {
  it('are never stored by caches: cache-control no-store, errors too (functions/api/http/app.ts, noStorePlugin)', async () => {
    const contextValue = await t.app.context({});
    for (const query of ['{ __typename }', '{ nope }']) {
      const r = await t.app.apollo.executeOperation({ query }, { contextValue });
      expect(r.http.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('sessions and auth', () => {
  it('signs up and names the player in the token', async () => {
    const s = await t.signUp('Mary Read');
    const g = await created(s.token, { edition: 'CLASSIC', seats: 2 });
    expect(g.creatorId).toBe(s.playerId);
    expect(g.seats[0]).toMatchObject({ playerId: s.playerId, name: 'Mary Read', isBot: false });
  });

  it('refuses missing, forged and expired tokens with UNAUTHENTICATED', async () => {
    expect(codeOf(await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(`{ myGames { id } }`, {}, 'not-a-jwt'))).toBe('UNAUTHENTICATED');
    const forged = await ownToken('another-key-another-key-another-key!!', { sub: 'x', name: 'x' }, { now: clock });
    expect(codeOf(await t.gql(`{ openGames { id } }`, {}, forged))).toBe('UNAUTHENTICATED');
    const old = await ownToken(SIGNING_KEY, { sub: 'x', name: 'x' }, { now: new Date('2020-01-01T00:00:00Z') });
    expect(codeOf(await t.gql(`{ myGames { id } }`, {}, old))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(`mutation { signUp(name: "  ") { token } }`))).toBe('BAD_USER_INPUT');
  });
});

describe('lobby', () => {
  it('joins, leaves, lists and starts; errors are typed', async () => {
    const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((n) => t.signUp(n)));
    const g = await created(a.token, { edition: 'CLASSIC', seats: 3 });
    expect(g.status).toBe('LOBBY');
    expect(g.seats.map((s: any) => s.isOpen)).toEqual([false, true, true]);
    expect((await t.gql(`{ openGames { id } }`)).data.openGames.map((x: any) => x.id)).toContain(g.id);
    expect(codeOf(await t.gql(START, { g: g.id }, a.token))).toBe('WRONG_PHASE'); // seats free: nothing filled silently
    expect((await t.gql(JOIN, { g: g.id }, b.token)).data.joinGame.seats[1].name).toBe('B');
    expect(codeOf(await t.gql(JOIN, { g: g.id }, b.token))).toBe('CONFLICT');
    expect(codeOf(await t.gql(LEAVE, { g: g.id }, c.token))).toBe('FORBIDDEN');
    expect((await t.gql(LEAVE, { g: g.id }, b.token)).data.leaveGame.seats[1].isOpen).toBe(true);
    expect((await t.gql(`{ myGames { id } }`, {}, b.token)).data.myGames).toEqual([]);
    await t.gql(JOIN, { g: g.id }, b.token);
    await t.gql(JOIN, { g: g.id }, c.token);
    expect(codeOf(await t.gql(JOIN, { g: g.id }, d.token))).toBe('CONFLICT');
    expect((await t.gql(`{ openGames { id } }`)).data.openGames.map((x: any) => x.id)).not.toContain(g.id);
    expect(codeOf(await t.gql(START, { g: g.id }, b.token))).toBe('FORBIDDEN');
    const started = (await t.gql(START, { g: g.id }, a.token)).data.startGame;
    expect(started.status).toBe('ACTIVE');
    expect(started.awaiting).toEqual([0, 1, 2]);
    expect(codeOf(await t.gql(LEAVE, { g: g.id }, b.token))).toBe('WRONG_PHASE');
    expect(codeOf(await t.gql(JOIN, { g: g.id }, d.token))).toBe('WRONG_PHASE');
    expect(codeOf(await t.gql(START, { g: g.id }, a.token))).toBe('WRONG_PHASE');
    const mine = await t.gql(`{ myGames(status: ACTIVE) { id } }`, {}, c.token);
    expect(mine.data.myGames.map((x: any) => x.id)).toEqual([g.id]);
    expect((await t.gql(`{ myGames(status: LOBBY) { id } }`, {}, c.token)).data.myGames).toEqual([]);
  });

  it('validates the options', async () => {
    const a = await t.signUp('V');
    const bad = async (i: Record<string, unknown>) => codeOf(await t.gql(CREATE, { i }, a.token));
    expect(await bad({ edition: 'CLASSIC', seats: 7 })).toBe('BAD_USER_INPUT');
    expect(await bad({ edition: 'CLASSIC', seats: 1 })).toBe('BAD_USER_INPUT');
    expect(await bad({ edition: 'CLASSIC', seats: 3, bots: 3 })).toBe('BAD_USER_INPUT');
    expect(await bad({ edition: 'CLASSIC', seats: 3, board: 'CALM' })).toBe('BAD_USER_INPUT');
    expect(await bad({ edition: 'CLASSIC', seats: 3, decisionTimeLimitHours: 0 })).toBe('BAD_USER_INPUT');
    expect(await bad({ edition: 'PIRATES', seats: 3 })).toBe('BAD_USER_INPUT'); // not an enum value
    expect(codeOf(await t.gql(GAME_QUERY, { id: 'missing' }))).toBeUndefined();
    expect((await t.gql(GAME_QUERY, { id: 'missing' })).data.game).toBeNull();
    expect(codeOf(await t.gql(JOIN, { g: 'missing' }, a.token))).toBe('NOT_FOUND');
  });
});

describe('playing', () => {
  it('plays a 1 human + 2 bots game to the end; deadlines follow the time limit', async () => {
    const a = await t.signUp('Solo');
    const g = await created(a.token, {
      edition: 'CLASSIC',
      seats: 3,
      bots: 2,
      seed: 'solo',
      decisionTimeLimitHours: 24,
    });
    clock = new Date('2030-01-01T10:00:00.000Z');
    const s = (await t.gql(START, { g: g.id }, a.token)).data.startGame;
    expect(s.seats.filter((x: any) => x.hasChosen).map((x: any) => x.seat)).toEqual([1, 2]); // bots chose at once
    expect(s.awaiting).toEqual([0]);
    expect(s.me.choiceDeadline).toBe('2030-01-02T10:00:00.000Z');
    expect(s.seats[0].deadline).toBe('2030-01-02T10:00:00.000Z');
    expect(s.seats[1].deadline).toBeNull();
    expectNoLeak(s, 0);
    // A replacement choice before the last seat chooses: here the human is the last seat, so play.
    clock = new Date('2030-01-01T12:00:00.000Z');
    const { game, moves } = await playToEnd(t.gql, g.id, [a.token, null, null], 7);
    expect(moves).toBeGreaterThan(10);
    expect(game.status).toBe('FINISHED');
    expect(game.ranking).toHaveLength(3);
    expect(game.ranking.map((r: any) => r.place)).toEqual([1, 2, 3]);
    expect(game.seed).toBe('solo');
    expect(game.awaiting).toEqual([]);
    const spectator = (await t.gql(GAME_QUERY, { id: g.id })).data.game;
    expectNoLeak(spectator, null);
    const log = await allEvents(t.gql, g.id, a.token);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log[log.length - 1].seq).toBe(game.lastSeq);
    expect(log.at(-1).type).toBe('gameEnd');
    expectEventsRedacted(log, 0);
    expectEventsRedacted(await allEvents(t.gql, g.id), null);
  });

  it('a prompt carries its deadline; answering someone else’s prompt is FORBIDDEN', async () => {
    const [a, b] = await Promise.all([t.signUp('P0'), t.signUp('P1')]);
    const g = await created(a.token, { edition: 'CLASSIC', seats: 2, seed: 'prompts', decisionTimeLimitHours: 2 });
    await t.gql(JOIN, { g: g.id }, b.token);
    await t.gql(START, { g: g.id }, a.token);
    const tokens = [a.token, b.token];
    for (let i = 0; i < 200; i++) {
      const pub = (await t.gql(GAME_QUERY, { id: g.id }, a.token)).data.game;
      if (pub.pending) {
        const owner = pub.pending.seat;
        clock = new Date(clock.getTime() + 1000);
        const mine = (await t.gql(GAME_QUERY, { id: g.id }, tokens[owner])).data.game;
        expect(mine.me.prompts).toHaveLength(1);
        expect(Date.parse(mine.me.prompts[0].deadline) - Date.parse(mine.seats[owner].deadline)).toBe(0);
        expect(Date.parse(mine.me.prompts[0].deadline)).toBeGreaterThan(Date.parse(pub.updatedAt));
        const other = (await t.gql(GAME_QUERY, { id: g.id }, tokens[1 - owner])).data.game;
        expect(other.me.prompts).toEqual([]);
        const p = mine.me.prompts[0];
        const wrong = await t.gql(
          `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }`,
          { g: g.id, p: p.id, o: p.options[0].id },
          tokens[1 - owner],
        );
        expect(codeOf(wrong)).toBe('FORBIDDEN');
        const illegal = await t.gql(
          `mutation($g: ID!, $p: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: "no-such-option") { id } }`,
          { g: g.id, p: p.id },
          tokens[owner],
        );
        expect(codeOf(illegal)).toBe('ILLEGAL_MOVE');
        expect(codeOf(await t.gql(PLAY, { g: g.id, r: mine.me.hand[0] }, tokens[owner]))).toBe('WRONG_PHASE');
        return;
      }
      for (const s of pub.awaiting) {
        const mine = (await t.gql(GAME_QUERY, { id: g.id }, tokens[s])).data.game;
        const r = await t.gql(PLAY, { g: g.id, r: mine.me.hand[mine.me.hand.length - 1] }, tokens[s]);
        expect(r.errors).toBeUndefined();
      }
    }
    throw new Error('no prompt came up');
  });

  it('refuses cards not in hand, strangers, unstarted games; replaces a choice until the last seat chose', async () => {
    const [a, b, x] = await Promise.all([t.signUp('Q0'), t.signUp('Q1'), t.signUp('X')]);
    const g = await created(a.token, { edition: 'CLASSIC', seats: 2, seed: 'q' });
    expect(codeOf(await t.gql(PLAY, { g: g.id, r: 1 }, a.token))).toBe('WRONG_PHASE');
    await t.gql(JOIN, { g: g.id }, b.token);
    const s = (await t.gql(START, { g: g.id }, a.token)).data.startGame;
    const notInHand = [...Array(30).keys()].map((i) => i + 1).find((r) => !s.me.hand.includes(r));
    expect(codeOf(await t.gql(PLAY, { g: g.id, r: notInHand }, a.token))).toBe('ILLEGAL_MOVE');
    expect(codeOf(await t.gql(PLAY, { g: g.id, r: s.me.hand[0] }, x.token))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(PLAY, { g: g.id, r: s.me.hand[0] }, 'bad'))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(PLAY, { g: 'nope', r: 1 }, a.token))).toBe('NOT_FOUND');
    const first = (await t.gql(PLAY, { g: g.id, r: s.me.hand[0] }, a.token)).data.playCard;
    expect(first.me.choice).toBe(s.me.hand[0]);
    const second = (await t.gql(PLAY, { g: g.id, r: s.me.hand[1] }, a.token)).data.playCard;
    expect(second.me.choice).toBe(s.me.hand[1]);
    const seenByB = (await t.gql(GAME_QUERY, { id: g.id }, b.token)).data.game;
    expect(seenByB.seats[0].hasChosen).toBe(true);
    expectNoLeak(seenByB, 1);
    const log = await allEvents(t.gql, g.id, b.token);
    expectEventsRedacted(log, 1);
    expect(log.filter((e) => e.type === 'cardChosen').map((e) => e.data)).toEqual([
      { seat: 0, changed: false },
      { seat: 0, changed: true },
    ]);
  });
});

describe('idempotent requests', () => {
  it('applies a requestId once and answers retries the same; a reused id for another command is a CONFLICT', async () => {
    const [a, b] = await Promise.all([t.signUp('I0'), t.signUp('I1')]);
    const g = await created(a.token, { edition: 'CLASSIC', seats: 2, seed: 'idem' });
    await t.gql(JOIN, { g: g.id }, b.token);
    const s = (await t.gql(START, { g: g.id }, a.token)).data.startGame;
    const once = await t.gql(PLAY, { g: g.id, r: s.me.hand[0], q: 'req-1' }, a.token);
    const again = await t.gql(PLAY, { g: g.id, r: s.me.hand[0], q: 'req-1' }, a.token);
    expect(again).toEqual(once);
    expect(codeOf(await t.gql(PLAY, { g: g.id, r: s.me.hand[1], q: 'req-1' }, a.token))).toBe('CONFLICT');
    // b may use the same id: request ids are per caller.
    const bHand = (await t.gql(GAME_QUERY, { id: g.id }, b.token)).data.game.me.hand;
    expect((await t.gql(PLAY, { g: g.id, r: bHand[0], q: 'req-1' }, b.token)).errors).toBeUndefined();
    const after = await t.gql(PLAY, { g: g.id, r: s.me.hand[0], q: 'req-1' }, a.token);
    expect(after).toEqual(once); // the day has run since, the answer is still the first one
    const chosen = (await allEvents(t.gql, g.id)).filter((e) => e.type === 'cardChosen');
    expect(chosen.map((e) => e.data.seat)).toEqual([0, 1]);
  });
});

describe('errors', () => {
  it('hides unexpected failures behind INTERNAL_SERVER_ERROR with a generic message', async () => {
    const client = localDocumentClient(inject('dynamoEndpoint'));
    const logged = vi.spyOn(logger, 'error');
    const internal = () => counters()['Errors{code=INTERNAL_SERVER_ERROR}'] ?? 0;
    const before = internal();
    const broken = buildApp({ tableName: 'no-such-table', client, signingKey: SIGNING_KEY });
    await broken.apollo.start();
    const r = await broken.apollo.executeOperation(
      { query: `mutation { signUp(name: "x") { token } }` },
      { contextValue: await broken.context({}) },
    );
    const body = r.body.kind === 'single' ? r.body.singleResult : null;
    expect(body?.errors?.[0]).toMatchObject({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(JSON.stringify(body)).not.toContain('no-such-table');
    expect(logged).toHaveBeenCalled(); // the details go to the server log only
    // An HTTP 200 answer, so only the Errors metric (code INTERNAL_SERVER_ERROR) and its alarm see it.
    expect(internal()).toBe(before + 1);
    logged.mockRestore();
    await broken.apollo.stop();
  });

  it('limits query depth and aliases', async () => {
    const deep = `{ game(id: "x") { seats { loot { kind } } me { prompts { options { id } } } } }`;
    expect(codeOf(await t.gql(deep))).toBeUndefined();
    const aliases = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: openGames { id }`).join(' ')} }`;
    expect(codeOf(await t.gql(aliases))).toBe('GRAPHQL_VALIDATION_FAILED');
    const tooDeep = `{ __type(name: "Game") { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } }`;
    expect(codeOf(await t.gql(tooDeep))).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('events: limit 1-100, after >= 0, NOT_FOUND for unknown games', async () => {
    const a = await t.signUp('E');
    const g = await created(a.token, { edition: 'CLASSIC', seats: 2 });
    const q = `query($g: ID!, $a: Int, $l: Int) { events(gameId: $g, after: $a, limit: $l) { events { seq type } hasMore } }`;
    expect(codeOf(await t.gql(q, { g: g.id, l: 101 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(q, { g: g.id, l: 0 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(q, { g: g.id, a: -1 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(q, { g: 'nope' }))).toBe('NOT_FOUND');
    const page = (await t.gql(q, { g: g.id, a: 0, l: 1 })).data.events;
    expect(page).toEqual({ events: [{ seq: 1, type: 'gameCreated' }], hasMore: true });
  });
});

describe('sweep and REST', () => {
  it('the sweep finishes bot moves an interrupted start left undone', async () => {
    const a = await t.signUp('S');
    const g = await created(a.token, { edition: 'CLASSIC', seats: 4, bots: 3 });
    // Simulate a crash right after the start commit, before any bot moved.
    const store = t.app.services.store;
    await crashedStart(store, g.id);
    expect((await t.gql(GAME_QUERY, { id: g.id }, a.token)).data.game.awaiting).toEqual([0, 1, 2, 3]);
    const res = await t.app.sweep();
    expect(res.gamesChecked).toBeGreaterThanOrEqual(1);
    expect(res.advanced).toBeGreaterThanOrEqual(1);
    expect((await t.gql(GAME_QUERY, { id: g.id }, a.token)).data.game.awaiting).toEqual([0]);
    expect((await t.app.sweep()).advanced).toBe(0); // nothing left to do
  });

  it('serves /health and the event log; unknown routes are 404', async () => {
    const a = await t.signUp('R');
    const g = await created(a.token, { edition: 'CLASSIC', seats: 2 });
    const health = await t.app.rest({ method: 'GET', path: '/health', query: {}, headers: {} });
    expect(health.status).toBe(200);
    const ev = await t.app.rest({
      method: 'GET',
      path: `/games/${g.id}/events`,
      query: { after: '1' },
      headers: { Authorization: `Bearer ${a.token}` },
    });
    expect(ev.status).toBe(200);
    expect(JSON.parse(ev.body).events.map((e: any) => e.seq)).toEqual([2]);
    expect((await t.app.rest({ method: 'GET', path: '/games/nope/events', query: {}, headers: {} })).status).toBe(404);
    expect(
      (await t.app.rest({ method: 'GET', path: `/games/${g.id}/events`, query: { after: 'x' }, headers: {} })).status,
    ).toBe(400);
    expect(
      (
        await t.app.rest({
          method: 'GET',
          path: `/games/${g.id}/events`,
          query: {},
          headers: { authorization: 'Bearer bad' },
        })
      ).status,
    ).toBe(401);
    expect((await t.app.rest({ method: 'POST', path: '/health', query: {}, headers: {} })).status).toBe(405);
    const unknown = await t.app.rest({ method: 'GET', path: '/nowhere', query: {}, headers: {} });
    expect(unknown.status).toBe(404);
  });
});

describe('catalog', () => {
  it('lists an edition’s characters without a token, and a game says how long its rounds are', async () => {
    const r = await t.gql(`{ characters(edition: GALECREST) { rank name text timings } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.characters).toHaveLength(40);
    expect(r.data.characters[0]).toMatchObject({ rank: 1, name: 'Scout', timings: ['day'] });
    const s = await t.signUp('Catalog');
    const g = await created(s.token, { edition: 'CLASSIC', seats: 2 });
    const read = await t.gql(`query($g: ID!) { game(id: $g) { daysPerRound } }`, { g: g.id }, s.token);
    expect(read.data.game.daysPerRound).toEqual([6, 6, 6]);
    // No board asked: the engine's default side, named as it is played.
    const gc = await created(s.token, { edition: 'GALECREST', seats: 2 });
    expect(gc.board).toBe('CALM');
    expect(g.board).toBeNull();
  });
});
