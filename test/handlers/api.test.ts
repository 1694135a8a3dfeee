/**
 * The API Lambda handler, invoked in-process with real API Gateway HTTP API (payload format 2.0)
 * events, against the shared dynalite server. It plays a full day of a classic game (three
 * humans) and must behave exactly like the local server's path (Apollo + `app.context`, `app.rest`
 * of the same `buildApp`): the same game, step by step, with the same seed.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp, MAX_BODY_BYTES } from '../../functions/api/http/app.js';
import { callerAddress, handler, ORIGIN_HEADER, resetApiHandlerForTests } from '../../functions/handlers/api.js';
import { getDocumentClient } from '../../functions/handlers/config.js';
import { resetForTests } from '../infra/reset.js';
import { handler as sweepHandler } from '../../functions/handlers/sweep.js';
import { createDynamoStore } from '../../functions/store/index.js';
import { crashedStart } from '../setup/crash.js';
import { freshTable } from '../setup/db.js';

const SIGNING_KEY = `test-only-${randomUUID()}`;
const savedEnv = { ...process.env };

// ---- API Gateway v2 events and a Lambda context ------------------------------------------------

let requestNo = 0;
function apiEvent(opts: {
  method: 'GET' | 'POST';
  path: string;
  routeKey: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  base64?: boolean;
  pathParameters?: Record<string, string>;
}): APIGatewayProxyEventV2 {
  const now = new Date();
  const rawQueryString = new URLSearchParams(opts.query ?? {}).toString();
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-length': String(opts.body?.length ?? 0),
    host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    'user-agent': 'vitest',
    'x-amzn-trace-id': `Root=1-${now.getTime().toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    'x-forwarded-for': '203.0.113.7',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
    ...(opts.headers ?? {}),
  };
  const requestId = `req-${++requestNo}`;
  return {
    version: '2.0',
    routeKey: opts.routeKey,
    rawPath: opts.path,
    rawQueryString,
    headers,
    ...(opts.query ? { queryStringParameters: opts.query } : {}),
    ...(opts.pathParameters ? { pathParameters: opts.pathParameters } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: {
        method: opts.method,
        path: opts.path,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'vitest',
      },
      requestId,
      routeKey: opts.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(opts.body !== undefined
      ? { body: opts.base64 ? Buffer.from(opts.body).toString('base64') : opts.body, isBase64Encoded: !!opts.base64 }
      : { isBase64Encoded: false }),
  };
}

function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'LibertaliaOnline-ApiFunction',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:LibertaliaOnline-ApiFunction',
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/LibertaliaOnline-ApiFunction',
    logStreamName: '2024/01/01/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function invoke(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return handler(event, lambdaContext());
}

// ---- Two transports running the same script ------------------------------------------------------

interface GqlResult {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}
interface Transport {
  gql(query: string, variables: Record<string, unknown>, token?: string): Promise<GqlResult>;
  rest(path: string, query?: Record<string, string>, token?: string): Promise<{ status: number; body: string }>;
}

/** Through the Lambda handler, as API Gateway would call it. */
const lambdaTransport: Transport = {
  async gql(query, variables, token) {
    const res = await invoke(
      apiEvent({
        method: 'POST',
        path: '/graphql',
        routeKey: 'POST /graphql',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(String(res.headers?.['content-type'])).toMatch(/application\/(graphql-response\+)?json/);
    return JSON.parse(res.body!) as GqlResult;
  },
  async rest(path, query, token) {
    // The routes with a game id, as API Gateway names them (see infra/stack.ts).
    const gameRoute = /^\/games\/([^/]+)\/(events|scenario)$/.exec(path);
    const res = await invoke(
      apiEvent({
        method: 'GET',
        path,
        routeKey: gameRoute ? `GET /games/{id}/${gameRoute[2]}` : `GET ${path}`,
        query,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(gameRoute ? { pathParameters: { id: gameRoute[1] } } : {}),
      }),
    );
    return { status: res.statusCode!, body: res.body ?? '' };
  },
};

/** The local server's path: Apollo with `app.context(headers)`, and `app.rest`. */
function directTransport(app: ReturnType<typeof buildApp>): Transport {
  return {
    async gql(query, variables, token) {
      const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const res = await app.apollo.executeOperation({ query, variables }, { contextValue: await app.context(headers) });
      if (res.body.kind !== 'single') throw new Error('unexpected incremental response');
      return JSON.parse(JSON.stringify(res.body.singleResult)) as GqlResult;
    },
    async rest(path, query, token) {
      const res = await app.rest({
        method: 'GET',
        path,
        query: query ?? {},
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: res.status, body: res.body };
    },
  };
}

// ---- The script: a full day of a classic game ----------------------------------------------------

const GAME_FIELDS = `id status edition round day phase awaiting
  seats { seat name isBot hasChosen awaited doubloons score handSize den lootCount }
  me { seat hand choice prompts { id kind options { id label } } }`;

function ok(r: GqlResult, what: string): Record<string, any> {
  expect(r.errors, `${what}: ${JSON.stringify(r.errors)}`).toBeUndefined();
  return r.data!;
}

/** Plays from the lobby to the first choice of day 2; returns a replayable log with ids removed. */
async function playFullDay(t: Transport, seed: string) {
  const log: unknown[] = [];
  const tokens: string[] = [];
  for (const n of ['Anne', 'Bonny', 'Calico']) {
    tokens.push(
      ok(await t.gql('mutation($n: String!) { signUp(name: $n) { playerId token } }', { n }), 'signUp').signUp.token,
    );
  }

  const created = ok(
    await t.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { ${GAME_FIELDS} } }`,
      {
        // Humans only: bot moves are seeded by the (random) game id, so a game with bots would not
        // replay identically on the second path.
        i: { edition: 'CLASSIC', seats: 3, bots: 0, seed },
      },
      tokens[0],
    ),
    'createGame',
  ).createGame;
  const gameId = created.id as string;
  expect(created.status).toBe('LOBBY');
  for (const token of tokens.slice(1)) {
    const joined = ok(
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { ${GAME_FIELDS} } }`, { g: gameId }, token),
      'joinGame',
    ).joinGame;
    expect(joined.me.seat).not.toBe(0);
  }
  const started = ok(
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { ${GAME_FIELDS} } }`, { g: gameId }, tokens[0]),
    'startGame',
  ).startGame;
  expect(started.status).toBe('ACTIVE');
  const firstDay = { round: started.round as number, day: started.day as number };
  log.push(['started', firstDay, started.phase]);

  const view = async (token: string) =>
    ok(await t.gql(`query($g: ID!) { game(id: $g) { ${GAME_FIELDS} } }`, { g: gameId }, token), 'game').game;

  let plays = 0;
  let answers = 0;
  for (let step = 0; step < 200; step++) {
    let acted = false;
    for (const token of tokens) {
      const g = await view(token);
      if (g.status !== 'ACTIVE' || g.round !== firstDay.round || g.day !== firstDay.day) continue;
      const me = g.me;
      if (me.prompts.length > 0) {
        const p = me.prompts[0];
        const after = ok(
          await t.gql(
            `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { ${GAME_FIELDS} } }`,
            { g: gameId, p: p.id, o: p.options[0].id },
            token,
          ),
          'answerPrompt',
        ).answerPrompt;
        log.push(['answer', me.seat, p.kind, p.options[0].label, after.phase]);
        answers++;
        acted = true;
      } else if (g.phase === 'CHOOSE' && g.seats[me.seat].awaited && me.choice === null) {
        const rank = me.hand[0] as number;
        const after = ok(
          await t.gql(
            `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r, requestId: "r-${me.seat}") { ${GAME_FIELDS} } }`,
            { g: gameId, r: rank },
            token,
          ),
          'playCard',
        ).playCard;
        log.push(['play', me.seat, rank, after.phase]);
        plays++;
        acted = true;
      }
    }
    const g = await view(tokens[0]);
    if (g.status !== 'ACTIVE' || g.round !== firstDay.round || g.day !== firstDay.day) break;
    expect(acted, `nobody could act in phase ${g.phase} (awaiting ${JSON.stringify(g.awaiting)})`).toBe(true);
  }

  const finals = await Promise.all(tokens.map(view));
  const eventsPage = ok(
    await t.gql(
      'query($g: ID!) { events(gameId: $g, limit: 100) { events { seq type data } hasMore } }',
      { g: gameId },
      tokens[0],
    ),
    'events',
  ).events;
  const restEvents = await t.rest(`/games/${gameId}/events`, { after: '0' }, tokens[0]);
  return { gameId, firstDay, plays, answers, log, finals, eventsPage, restEvents, tokens };
}

// ---- Setup -------------------------------------------------------------------------------------

let tableName: string;

beforeAll(async () => {
  ({ tableName } = await freshTable('lambda'));
  process.env.TABLE_NAME = tableName;
  process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
  process.env.SIGNING_KEY = SIGNING_KEY;
  delete process.env.SIGNING_KEY_SECRET_ARN;
  // What the Lambda runtime provides; dynalite does not check credentials.
  process.env.AWS_REGION = 'eu-west-1';
  process.env.AWS_ACCESS_KEY_ID = 'local';
  process.env.AWS_SECRET_ACCESS_KEY = 'local';
  resetForTests();
  resetApiHandlerForTests();
});

afterAll(() => {
  process.env = savedEnv;
  resetForTests();
  resetApiHandlerForTests();
});

describe('API Lambda handler (API Gateway HTTP API, payload 2.0)', () => {
  it('answers GET /health through the REST routes', async () => {
    const res = await invoke(apiEvent({ method: 'GET', path: '/health', routeKey: 'GET /health' }));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBeTruthy();
  });

  it('plays a full day exactly like the local server path', async () => {
    // A fixed seed: the same deal every run (this one has dusk prompts to answer).
    const seed = 'lambda-full-day-1';
    const viaLambda = await playFullDay(lambdaTransport, seed);

    // The day really happened: every seat chose, the game moved on to the next day.
    expect(viaLambda.plays).toBe(3);
    expect(viaLambda.answers).toBeGreaterThanOrEqual(1);
    expect(viaLambda.eventsPage.events.map((e: any) => e.type)).toContain('dayEnd');
    const after = viaLambda.finals[0];
    expect([after.round, after.day]).not.toEqual([viaLambda.firstDay.round, viaLambda.firstDay.day]);
    expect(viaLambda.finals.map((g: any) => g.me.seat).sort()).toEqual([0, 1, 2]);

    // The event log, via GraphQL and via REST (as integrators without GraphQL read it).
    const seqs = viaLambda.eventsPage.events.map((e: any) => e.seq);
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs).toEqual([...seqs].sort((a: number, b: number) => a - b));
    expect(viaLambda.restEvents.status).toBe(200);
    const rest = JSON.parse(viaLambda.restEvents.body);
    const restSeqs = (rest.events as { seq: number }[]).map((e) => e.seq);
    expect(restSeqs.slice(0, seqs.length)).toEqual(seqs.slice(0, restSeqs.length));
    // The scenario is published only once the game is finished.
    const scenario = await lambdaTransport.rest(`/games/${viaLambda.gameId}/scenario`, {}, viaLambda.tokens[0]);
    expect(JSON.parse(scenario.body).error.code).toBe('WRONG_PHASE');

    // Same script and seed through Apollo + app.context / app.rest on a fresh table: same game.
    const { client, tableName: otherTable } = await freshTable('direct');
    const app = buildApp({ tableName: otherTable, client, signingKey: SIGNING_KEY });
    await app.apollo.start();
    try {
      const direct = await playFullDay(directTransport(app), seed);
      const strip = (g: any) => ({ ...g, id: undefined });
      expect(viaLambda.log).toEqual(direct.log);
      expect(viaLambda.finals.map(strip)).toEqual(direct.finals.map(strip));
      expect(viaLambda.eventsPage.events.map((e: any) => e.type)).toEqual(
        direct.eventsPage.events.map((e: any) => e.type),
      );
      expect(viaLambda.restEvents.status).toBe(direct.restEvents.status);
    } finally {
      await app.apollo.stop();
    }
  });

  it('serves GraphQL queries over GET and base64-encoded POST bodies', async () => {
    const signUp = await lambdaTransport.gql('mutation { signUp(name: "Cid") { token } }', {});
    const token = ok(signUp, 'signUp').signUp.token as string;

    const get = await invoke(
      apiEvent({
        method: 'GET',
        path: '/graphql',
        routeKey: 'GET /graphql',
        query: { query: '{ openGames { id } }' },
        headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' },
      }),
    );
    expect(get.statusCode).toBe(200);
    expect(Array.isArray(JSON.parse(get.body!).data.openGames)).toBe(true);

    const b64 = await invoke(
      apiEvent({
        method: 'POST',
        path: '/graphql',
        routeKey: 'POST /graphql',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ myGames { id } }' }),
        base64: true,
      }),
    );
    expect(b64.statusCode).toBe(200);
    expect(JSON.parse(b64.body!).data.myGames).toEqual([]);
  });

  it("refuses GraphQL bodies over the local server's limit with the same 413", async () => {
    const query = `{ openGames { id } } # ${'x'.repeat(MAX_BODY_BYTES)}`;
    const res = await invoke(
      apiEvent({
        method: 'POST',
        path: '/graphql',
        routeKey: 'POST /graphql',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      }),
    );
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body!).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('rejects a token signed with another key as UNAUTHENTICATED', async () => {
    const other = buildApp({ tableName, client: getDocumentClient(), signingKey: `another-key-${randomUUID()}` });
    await other.apollo.start();
    try {
      const foreign = await directTransport(other).gql('mutation { signUp(name: "Eve") { token } }', {});
      const token = ok(foreign, 'signUp').signUp.token as string;
      const r = await lambdaTransport.gql('{ myGames { id } }', {}, token);
      expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    } finally {
      await other.apollo.stop();
    }
  });

  it('answers the events of an unknown game with a 404 from the REST router', async () => {
    const res = await lambdaTransport.rest(`/games/${randomUUID()}/events`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error.code).toBe('NOT_FOUND');
  });

  it('routes a game scenario request to the REST router', async () => {
    const missing = await lambdaTransport.rest(`/games/${randomUUID()}/scenario`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('NOT_FOUND');
  });
});

describe('sweep Lambda handler', () => {
  it('runs the app sweep over the table: visits the active games, finds nothing left undone', async () => {
    // Its own game: started with a bot seat, which chose at once; it waits for the human only.
    const token = ok(await lambdaTransport.gql('mutation { signUp(name: "Swept") { token } }', {}), 'signUp').signUp
      .token as string;
    const game = ok(
      await lambdaTransport.gql(
        'mutation($i: CreateGameInput!) { createGame(input: $i) { id } }',
        { i: { edition: 'CLASSIC', seats: 2, bots: 1 } },
        token,
      ),
      'createGame',
    ).createGame;
    const started = ok(
      await lambdaTransport.gql(
        'mutation($g: ID!) { startGame(gameId: $g) { status awaiting } }',
        { g: game.id },
        token,
      ),
      'startGame',
    ).startGame;
    expect(started).toEqual({ status: 'ACTIVE', awaiting: [0] });
    const res = await sweepHandler();
    expect(res.gamesChecked).toBeGreaterThanOrEqual(1);
    expect(res.advanced).toBe(0);
  });

  it('finishes an advance that a crashed API invocation left undone', async () => {
    const token = ok(await lambdaTransport.gql('mutation { signUp(name: "Crash") { token } }', {}), 'signUp').signUp
      .token as string;
    const game = ok(
      await lambdaTransport.gql(
        'mutation($i: CreateGameInput!) { createGame(input: $i) { id } }',
        { i: { edition: 'CLASSIC', seats: 4, bots: 3 } },
        token,
      ),
      'createGame',
    ).createGame;
    // As if the invocation that started the game died after its commit, before any bot moved.
    const store = createDynamoStore({ tableName, client: getDocumentClient() });
    await crashedStart(store, game.id);
    const awaiting = async () =>
      ok(await lambdaTransport.gql('query($g: ID!) { game(id: $g) { awaiting } }', { g: game.id }, token), 'game').game
        .awaiting;
    expect(await awaiting()).toEqual([0, 1, 2, 3]);

    const first = await sweepHandler();
    expect(first.advanced).toBeGreaterThanOrEqual(1);
    expect(await awaiting()).toEqual([0]); // the bots chose; only the human is awaited
    expect((await sweepHandler()).advanced).toBe(0); // exactly once: nothing left on the next run
  });
});

describe('callerAddress: CloudFront-Viewer-Address only with the edge origin secret', () => {
  const event = (headers: Record<string, string>) =>
    ({ headers, requestContext: { http: { sourceIp: '198.51.100.7' } } }) as never;
  const SECRET = 'edge-origin-secret-for-this-test';

  it('a request through the edge (the secret matches) counts against the viewer', () => {
    expect(
      callerAddress(event({ 'cloudfront-viewer-address': '203.0.113.9:51234', [ORIGIN_HEADER]: SECRET }), SECRET),
    ).toBe('203.0.113.9');
    expect(
      callerAddress(event({ 'cloudfront-viewer-address': '[2001:db8::1]:443', [ORIGIN_HEADER]: SECRET }), SECRET),
    ).toBe('2001:db8::1');
  });

  it('a request straight to execute-api with a forged header counts against its source IP (40 changing headers: one address)', () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 40; i++) {
      seen.add(callerAddress(event({ 'cloudfront-viewer-address': `203.0.113.${i}:1` }), SECRET));
      seen.add(
        callerAddress(
          event({ 'cloudfront-viewer-address': `203.0.113.${i}:1`, [ORIGIN_HEADER]: `guess-${i}` }),
          SECRET,
        ),
      );
      seen.add(
        callerAddress(
          event({ 'cloudfront-viewer-address': `203.0.113.${i}:1`, [ORIGIN_HEADER]: SECRET.slice(0, -1) }),
          SECRET,
        ),
      );
    }
    expect([...seen]).toEqual(['198.51.100.7']);
  });

  it('without an edge (no secret configured) the header is never trusted', () => {
    expect(callerAddress(event({ 'cloudfront-viewer-address': '203.0.113.9:1', [ORIGIN_HEADER]: '' }), null)).toBe(
      '198.51.100.7',
    );
  });
});
