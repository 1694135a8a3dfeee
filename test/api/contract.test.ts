// The API's contract round 2 (issue 26): replays answer the version and time of `at`, the lobby
// has its own phase, game(gameId) and eventsPage (the consistent names and the one paging
// shape, the old forms still answering), expired tokens say so (and REST 401 challenges), and
// the operation allowlist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, testApp } from '../setup/app.js';
import { freshTable } from '../setup/db.js';
import { SIGNING_KEY } from '../setup/app.js';
import { buildApp } from '../../functions/api/http/app.js';
import { allowlistFromEnv, operationId } from '../../functions/api/http/allowlist.js';

let clock = new Date('2026-12-01T10:00:00.000Z');
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({ now: () => clock, accessTokenSeconds: 3600 });
});
afterAll(() => t.close());

const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

async function twoSeatGame() {
  const a = await t.signUp('Anne');
  const b = await t.signUp('Bonny');
  const created = await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, a.token);
  const id = created.data.createGame.id as string;
  tick(1000);
  await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
  tick(1000);
  await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
  return { a, b, id };
}

async function playFirstCard(gameId: string, token: string) {
  const g = await t.gql(`query($g: ID!) { game(gameId: $g) { me { hand } } }`, { g: gameId }, token);
  const r = await t.gql(
    `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`,
    { g: gameId, r: g.data.game.me.hand[0] },
    token,
  );
  if (r.errors) throw new Error(JSON.stringify(r.errors));
}

describe('replay(at)', () => {
  it('answers the version and time of `at`, and LOBBY (not CHOOSE) before the start', async () => {
    const { a, id } = await twoSeatGame();
    const now = await t.gql(
      `query($g: ID!) { game(gameId: $g) { version updatedAt lastSeq createdAt } }`,
      { g: id },
      a.token,
    );
    const game = now.data.game;
    const at0 = await t.gql(
      `query($g: ID!) { replay(gameId: $g, at: 0) { status phase version updatedAt lastSeq } }`,
      { g: id },
      a.token,
    );
    expect(at0.data.replay).toEqual({
      status: 'LOBBY',
      phase: 'LOBBY',
      version: 0,
      updatedAt: game.createdAt,
      lastSeq: 0,
    });
    // Bonny's join is the second commit (version 2), a second after the creation.
    const log = await t.gql(
      `query($g: ID!) { eventsPage(gameId: $g, first: 100) { events { seq type at ... on PlayerJoinedEvent { name } } } }`,
      { g: id },
      a.token,
    );
    const joined = log.data.eventsPage.events.find((e: { name?: string }) => e.name === 'Bonny');
    expect(joined.at).toBe(new Date(Date.parse(game.createdAt) + 1000).toISOString());
    const atJoin = await t.gql(
      `query($g: ID!, $at: Int!) { replay(gameId: $g, at: $at) { phase version updatedAt } }`,
      { g: id, at: joined.seq },
      a.token,
    );
    expect(atJoin.data.replay).toEqual({ phase: 'LOBBY', version: 2, updatedAt: joined.at });
    const end = await t.gql(
      `query($g: ID!, $at: Int!) { replay(gameId: $g, at: $at) { status phase version updatedAt } }`,
      { g: id, at: game.lastSeq },
      a.token,
    );
    expect(end.data.replay).toEqual({
      status: 'ACTIVE',
      phase: 'CHOOSE',
      version: game.version,
      updatedAt: game.updatedAt,
    });
  });

  it('shows the live lobby with phase LOBBY too', async () => {
    const a = await t.signUp('Read');
    const created = await t.gql(
      `mutation { createGame(input: { edition: GALECREST, seats: 3 }) { phase status } }`,
      {},
      a.token,
    );
    expect(created.data.createGame).toEqual({ phase: 'LOBBY', status: 'LOBBY' });
  });
});

describe('consistent names and one paging shape', () => {
  it('takes game(gameId), and still game(id) (deprecated); refuses neither or two different ones', async () => {
    const { a, id } = await twoSeatGame();
    expect((await t.gql(`query($g: ID!) { game(gameId: $g) { id } }`, { g: id }, a.token)).data.game.id).toBe(id);
    expect((await t.gql(`query($g: ID!) { game(id: $g) { id } }`, { g: id }, a.token)).data.game.id).toBe(id);
    expect(codeOf(await t.gql(`{ game { id } }`, {}, a.token))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(`query($g: ID!) { game(gameId: $g, id: "other") { id } }`, { g: id }, a.token))).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('pages the event log with eventsPage(first, after: String) and PageInfo, the same events as events()', async () => {
    const { a, b, id } = await twoSeatGame();
    for (const p of [a, b]) await playFirstCard(id, p.token); // sunrise: a day's worth of events
    const seen: number[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const r: any = await t.gql(
        `query($g: ID!, $a: String) { eventsPage(gameId: $g, first: 7, after: $a) { events { seq } pageInfo { hasNextPage endCursor } } }`,
        { g: id, a: after },
        a.token,
      );
      const page = r.data.eventsPage;
      seen.push(...page.events.map((e: { seq: number }) => e.seq));
      if (page.events.length) expect(page.pageInfo.endCursor).toBe(String(seen[seen.length - 1]));
      after = page.pageInfo.endCursor;
      if (!page.pageInfo.hasNextPage) break;
    }
    const old = await t.gql(`query($g: ID!) { events(gameId: $g, first: 100) { events { seq } } }`, { g: id }, a.token);
    expect(seen).toEqual(old.data.events.events.map((e: { seq: number }) => e.seq));
    // Polling at the end: an empty page keeps its cursor.
    const poll = await t.gql(
      `query($g: ID!, $a: String) { eventsPage(gameId: $g, after: $a) { events { seq } pageInfo { hasNextPage endCursor } } }`,
      { g: id, a: after },
      a.token,
    );
    expect(poll.data.eventsPage).toEqual({ events: [], pageInfo: { hasNextPage: false, endCursor: after } });
    expect(
      codeOf(
        await t.gql(`query($g: ID!) { eventsPage(gameId: $g, after: "x1") { events { seq } } }`, { g: id }, a.token),
      ),
    ).toBe('BAD_USER_INPUT');
  }, 90_000);
});

describe('expired tokens', () => {
  it('say so: UNAUTHENTICATED with reason expired (GraphQL), a WWW-Authenticate challenge (REST 401)', async () => {
    const a = await t.signUp('Late');
    expect((await t.gql(`{ me { name } }`, {}, a.token)).data.me.name).toBe('Late');
    tick(2 * 3600 * 1000);
    const r = await t.gql(`{ me { name } }`, {}, a.token);
    expect(codeOf(r)).toBe('UNAUTHENTICATED');
    expect(r.errors![0].extensions!.reason).toBe('expired');
    expect(r.errors![0].message).toMatch(/expired/);
    const bad = await t.gql(`{ me { name } }`, {}, 'not-a-token');
    expect(bad.errors![0].extensions!.reason).toBe('malformed');
    const rest = await t.app.rest({
      method: 'GET',
      path: '/games/some-game/events',
      query: {},
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(rest.status).toBe(401);
    expect(rest.headers['www-authenticate']).toMatch(
      /^Bearer realm="libertalia", error="invalid_token", error_description="token expired/,
    );
    expect(JSON.parse(rest.body).error).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'expired' });
  });
});

describe('operation allowlist', () => {
  it('runs only listed documents (whitespace and comments do not matter) and answers OPERATION_NOT_ALLOWED otherwise', async () => {
    const listed = 'query Characters($e: Edition!) { characters(edition: $e) { rank name } }';
    const env = allowlistFromEnv({ OPERATION_ALLOWLIST: `${operationId(listed)}, ` });
    expect(env).toEqual(new Set([operationId(listed)]));
    expect(() => allowlistFromEnv({ OPERATION_ALLOWLIST: 'abc' })).toThrow(/SHA-256/);
    const { client, tableName } = await freshTable('allow');
    const app = buildApp({ tableName, client, signingKey: SIGNING_KEY, rateLimits: false, operationAllowlist: env });
    await app.apollo.start();
    const run = async (query: string) => {
      const r = await app.apollo.executeOperation(
        { query, variables: { e: 'CLASSIC' } },
        { contextValue: await app.context({}) },
      );
      return r.body.kind === 'single'
        ? { http: r.http.status, ...JSON.parse(JSON.stringify(r.body.singleResult)) }
        : null;
    };
    const ok = await run(
      `# the SDK's document, reformatted\nquery Characters($e: Edition!) {\n  characters(edition: $e) {\n    rank\n    name\n  }\n}`,
    );
    expect(ok.data.characters).toHaveLength(30);
    const refused = await run(`query Characters($e: Edition!) { characters(edition: $e) { rank name text } }`);
    expect(refused.http).toBe(400);
    expect(refused.errors[0].extensions.code).toBe('OPERATION_NOT_ALLOWED');
    expect(refused.data).toBeUndefined();
    await app.apollo.stop();
  });
});
