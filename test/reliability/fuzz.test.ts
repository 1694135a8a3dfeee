// Bad input: fast-check sends thousands of malformed, out-of-phase, wrong-seat, wrong-token,
// oversized and deeply nested requests over HTTP to the local server's adapter. Every answer
// must be a typed error (GraphQL `errors[].extensions.code`, or a clean 4xx with a JSON error
// body for what is not GraphQL at all), never a 5xx or a stack trace, and the game under
// attack must not change (version, last seq, log). CI: 2,000 requests; STRESS=1: 20,000.
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARMOR, MAX_BODY_BYTES } from '../../functions/api/http/app.js';
import { SIGNING_KEY } from '../setup/app.js';
import { allEvents, GAME_QUERY } from '../setup/play.js';
import { type Harness, type HttpAnswer, newGame, size, startHarness, timeout } from './harness.js';

const RUNS = size(2000, 20_000);

let h: Harness;
let game: { id: string; tokens: string[]; hands: number[][]; outsider: string };
beforeAll(async () => {
  h = await startHarness();
  const g = await newGame(h, { edition: 'CLASSIC', seats: 3, seed: 'fuzz' }, 3, 'Target');
  const hands = await Promise.all(
    g.tokens.map(async (t) => (await h.gql(GAME_QUERY, { id: g.id }, t)).data.game.me.hand as number[]),
  );
  game = { id: g.id, tokens: g.tokens, hands, outsider: (await h.signUp('Outsider')).token };
});
afterAll(() => h.close());

const key = (s: string) => new TextEncoder().encode(s);
const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** Tokens that must all be refused or treated as someone with no seat. */
async function badTokens(): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { name: 'Mallory' };
  return [
    'garbage',
    'a.b.c',
    `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ sub: 'x', name: 'n', iss: 'libertalia-online' })}.`,
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('someone')
      .setIssuer('libertalia-online')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key('another-key-another-key-another-key-!!')),
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('someone')
      .setIssuer('libertalia-online')
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key(SIGNING_KEY)),
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('someone')
      .setIssuer('elsewhere')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key(SIGNING_KEY)),
    'x'.repeat(5000),
  ];
}

type Req = { path: string; init: RequestInit; what: string };

const post = (body: string, headers: Record<string, string> = {}, what = 'post'): Req => ({
  path: '/graphql',
  init: { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body },
  what,
});
const gqlReq = (query: string, variables: unknown, token: string | null, what: string): Req =>
  post(JSON.stringify({ query, variables }), token === null ? {} : { authorization: `Bearer ${token}` }, what);

function requests(tokens: { seated: string[]; others: string[] }): fc.Arbitrary<Req> {
  const id = game.id;
  const anyToken = fc.constantFrom(null, ...tokens.seated, ...tokens.others);
  const wrongToken = fc.constantFrom(null, ...tokens.others);
  const notInHand = (seat: number) => fc.integer({ min: -5, max: 40 }).filter((r) => !game.hands[seat].includes(r));
  const junkValue = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const gameId = fc.oneof(fc.constant(id), fc.string({ maxLength: 60 }), fc.uuid());
  const deep = (n: number, open: string, close: string, inner: string) => open.repeat(n) + inner + close.repeat(n);
  return fc.oneof(
    // Not JSON, JSON that is not a GraphQL request, batches, wrong methods and content types.
    fc.string({ maxLength: 300 }).map((s) => post(s, {}, 'not json')),
    fc.uint8Array({ maxLength: 300 }).map((b) => post(Buffer.from(b).toString('latin1'), {}, 'bytes')),
    fc.jsonValue({ maxDepth: 4 }).map((v) => post(JSON.stringify(v), {}, 'json value')),
    fc
      .array(fc.record({ query: fc.constant('{ __typename }') }), { minLength: 1, maxLength: 3 })
      .map((b) => post(JSON.stringify(b), {}, 'batch')),
    fc
      .record({ query: junkValue, variables: junkValue, operationName: junkValue })
      .map((b) => post(JSON.stringify(b), {}, 'junk fields')),
    fc.string({ maxLength: 200 }).map((q) => ({
      path: `/graphql?query=${encodeURIComponent(q)}`,
      init: { method: 'GET', headers: { 'apollo-require-preflight': '1' } },
      what: 'get',
    })),
    fc.constantFrom('PUT', 'DELETE', 'PATCH').map((m) => ({
      path: '/graphql',
      init: { method: m, headers: { 'content-type': 'application/json' }, body: '{}' },
      what: 'method',
    })),
    fc
      .string({ maxLength: 100 })
      .map((s) => post(JSON.stringify({ query: s }), { 'content-type': 'text/plain' }, 'text/plain')),
    // GraphQL text: random, and random cuts of real documents.
    fc.string({ maxLength: 400 }).map((q) => gqlReq(q, {}, null, 'random document')),
    fc
      .tuple(fc.constantFrom(GAME_QUERY, `mutation { playCard(gameId: "${id}", rank: 3) { id } }`), fc.nat(400))
      .map(([q, n]) => gqlReq(q.slice(0, n), { id }, null, 'cut document')),
    // Deeply nested documents, variables and bodies.
    fc
      .integer({ min: 9, max: 3000 })
      .map((n) => gqlReq(`{ ${deep(n, 'game(id: "x") { ', ' }', 'id')} }`, {}, null, 'deep selection')),
    fc
      .integer({ min: 10, max: 3000 })
      .map((n) =>
        gqlReq(
          `mutation { playCard(gameId: "${id}", rank: ${deep(n, '[', ']', '1')}) { id } }`,
          {},
          null,
          'deep literal',
        ),
      ),
    fc
      .integer({ min: 10, max: 20_000 })
      .map((n) =>
        post(
          `{"query":${JSON.stringify(`mutation($r: Int!) { playCard(gameId: "${id}", rank: $r) { id } }`)},"variables":{"r":${deep(n, '[', ']', '1')}}}`,
          { authorization: `Bearer ${game.tokens[0]}` },
          'deep variable',
        ),
      ),
    fc.integer({ min: 10, max: 30_000 }).map((n) => post(deep(n, '{"a":', '}', '1'), {}, 'deep body')),
    fc
      .integer({ min: 16, max: 200 })
      .map((n) =>
        gqlReq(
          `{ ${Array.from({ length: n }, (_, i) => `a${i}: game(id: "${id}") { id }`).join(' ')} }`,
          {},
          null,
          'aliases',
        ),
      ),
    fc
      .integer({ min: 21, max: 200 })
      .map((n) => gqlReq(`{ __typename ${'@include(if: true) '.repeat(n)} }`, {}, null, 'directives')),
    fc.integer({ min: 2001, max: 8000 }).map((n) => gqlReq(`{ ${'__typename '.repeat(n)} }`, {}, null, 'tokens')),
    fc
      .integer({ min: 4, max: 40 })
      .map((n) =>
        gqlReq(
          `{ openGames { ${'seats { seat '.repeat(1)}} ${'id '.repeat(n)} } ${Array.from({ length: 14 }, (_, i) => `o${i}: openGames { seats { seat name } me { hand prompts { options { id label } } } }`).join(' ')} }`,
          {},
          null,
          'cost',
        ),
      ),
    fc
      .integer({ min: MAX_BODY_BYTES + 1, max: MAX_BODY_BYTES * 3 })
      .map((n) => gqlReq('{ __typename }', { pad: 'x'.repeat(n) }, null, 'oversized')),
    fc
      .integer({ min: 41, max: 60_000 })
      .map((n) =>
        gqlReq(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: 'n'.repeat(n) }, null, 'long name'),
      ),
    // Well-formed calls that must be refused: wrong token, wrong seat, out of phase, bad values.
    fc
      .tuple(fc.integer({ min: 0, max: 2 }), fc.option(fc.string({ maxLength: 120 })))
      .chain(([seat, q]) =>
        notInHand(seat).map((r) =>
          gqlReq(
            `mutation($g: ID!, $r: Int!, $q: ID) { playCard(gameId: $g, rank: $r, requestId: $q) { id } }`,
            { g: id, r, q },
            game.tokens[seat],
            'card not in hand',
          ),
        ),
      ),
    fc
      .tuple(wrongToken, fc.integer({ min: 0, max: 30 }))
      .map(([t, r]) =>
        gqlReq(
          `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }`,
          { g: id, r },
          t,
          'wrong seat or token',
        ),
      ),
    fc
      .tuple(anyToken, fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
      .map(([t, p, o]) =>
        gqlReq(
          `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }`,
          { g: id, p, o },
          t,
          'out of phase answer',
        ),
      ),
    fc
      .tuple(anyToken, fc.constantFrom('joinGame', 'leaveGame', 'startGame'))
      .map(([t, m]) => gqlReq(`mutation($g: ID!) { ${m}(gameId: $g) { id } }`, { g: id }, t, `${m} when started`)),
    fc
      .tuple(anyToken, gameId, junkValue)
      .map(([t, g, r]) =>
        gqlReq(`mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }`, { g, r }, t, 'bad variables'),
      ),
    fc
      .tuple(wrongToken, fc.record({ edition: junkValue, seats: junkValue, bots: junkValue, seed: junkValue }))
      .map(([t, i]) =>
        gqlReq(`mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`, { i }, t, 'bad game input'),
      ),
    fc
      .tuple(anyToken, gameId, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }))
      .map(([t, g, a, l]) =>
        gqlReq(
          `query($g: ID!, $a: Int, $l: Int) { events(gameId: $g, after: $a, limit: $l) { events { seq } } }`,
          { g, a, l },
          t,
          'events paging',
        ),
      ),
    fc
      .tuple(fc.string({ maxLength: 80 }), fc.string({ maxLength: 40 }), fc.integer({ min: -5, max: 5 }))
      .map(([g, a, l]) => ({
        path: `/games/${encodeURIComponent(g)}/events?after=${encodeURIComponent(a)}&limit=${l}`,
        init: { method: 'GET' },
        what: 'rest events',
      })),
    fc.string({ maxLength: 80 }).map((p) => ({
      path: `/games/${p.replace(/[?#]/g, '')}/events`,
      init: { method: 'GET', headers: { authorization: 'Bearer garbage' } },
      what: 'rest raw path',
    })),
  );
}

/** The one rule for every answer. Returns a short description of what is wrong, or null. */
function problem(r: HttpAnswer): string | null {
  if (r.status >= 500) return `HTTP ${r.status}`;
  if (/\n\s+at |stacktrace|node_modules|\.ts:\d+/.test(r.text)) return 'stack trace or source path';
  if (r.json === undefined || r.json === null || typeof r.json !== 'object') return 'body is not a JSON object';
  if (r.status === 200 && !r.json.errors) return null; // a harmless request that simply worked
  if (Array.isArray(r.json.errors)) {
    if (r.json.errors.length === 0) return 'empty errors';
    for (const e of r.json.errors)
      if (typeof e?.extensions?.code !== 'string' || typeof e.message !== 'string')
        return `error without code: ${JSON.stringify(e).slice(0, 200)}`;
    if (r.json.errors.some((e: any) => e.extensions.code === 'INTERNAL_SERVER_ERROR')) return 'INTERNAL_SERVER_ERROR';
    return null;
  }
  if (r.json.error && typeof r.json.error.code === 'string' && r.status >= 400) return null; // REST
  return `unexpected body ${r.text.slice(0, 200)}`;
}

describe('bad input', () => {
  it(
    `${RUNS} fuzzed requests: typed errors only, never a 5xx or a stack trace, and the game does not change`,
    async () => {
      const before = { game: await h.game(game.id), log: await allEvents(h.gql, game.id) };
      const tokens = { seated: game.tokens, others: [game.outsider, ...(await badTokens())] };
      const seen = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(requests(tokens), async (req) => {
          const r = await h.http(req.path, req.init);
          seen.set(req.what, (seen.get(req.what) ?? 0) + 1);
          const p = problem(r);
          if (p) throw new Error(`${req.what}: ${p}\n${String(req.init.body ?? req.path).slice(0, 300)}`);
        }),
        { numRuns: RUNS, seed: 20240501, endOnFailure: true },
      );
      // The game under attack is exactly as it was.
      const after = { game: await h.game(game.id), log: await allEvents(h.gql, game.id) };
      expect(after).toEqual(before);
      expect(seen.size).toBeGreaterThan(25); // every kind of request was tried
    },
    timeout(90_000, 900_000),
  );

  it('the cost limit is tried just below and just above: the cheaper query runs, the dearer one is refused', async () => {
    // graphql-armor's cost rule with its defaults (the app sets only maxCost): a scalar costs 1,
    // an object field 2 plus 1.5 times the cost of its selection. The probe nests four object
    // fields and repeats a scalar k times at the bottom, so its cost grows by 1.5^4 per field.
    const max = ARMOR.costLimit.maxCost;
    const cost = (k: number) => 2 + 1.5 * (2 + 1.5 * (2 + 1.5 * (2 + 1.5 * k)));
    const probe = (k: number) => `{ openGames { me { prompts { options { ${'id '.repeat(k)}} } } } }`;
    let k = 0;
    while (cost(k + 1) <= max) k++;
    expect([cost(k) <= max, cost(k + 1) > max]).toEqual([true, true]);
    expect(cost(k)).toBeGreaterThan(max - 6); // just below, not far below
    const below = await h.gql(probe(k));
    expect(below.errors).toBeUndefined();
    expect(Array.isArray(below.data.openGames)).toBe(true);
    const above = await h.gql(probe(k + 1));
    expect(above.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(above.errors?.[0]?.message).toContain(`Cost limit of ${max} exceeded, found ${cost(k + 1)}`);
  });

  it('the depth limit is tried at the limit and one above', async () => {
    // __type > fields > type > ofType (n times) > name: depth n + 4.
    const max = ARMOR.maxDepth.n;
    const probe = (depth: number) =>
      `{ __type(name: "Game") { fields { type { ${'ofType { '.repeat(depth - 4)}name ${'} '.repeat(depth - 4)}} } } }`;
    const at = await h.gql(probe(max));
    expect(at.errors).toBeUndefined();
    const above = await h.gql(probe(max + 1));
    expect(above.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(above.errors?.[0]?.message).toContain(`depth limit of ${max} exceeded, found ${max + 1}`);
  });

  it('the limits hold: aliases, tokens, directives, body size', async () => {
    const code = async (q: string) => (await h.gql(q)).errors?.[0]?.extensions?.code;
    expect(await code(`{ __typename }`)).toBeUndefined();
    expect(await code(`{ ${Array.from({ length: 16 }, (_, i) => `a${i}: openGames { id }`).join(' ')} }`)).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    expect(await code(`{ ${'__typename '.repeat(2100)} }`)).toBe('GRAPHQL_PARSE_FAILED');
    expect(await code(`{ __typename ${'@include(if: true) '.repeat(21)} }`)).toBe('GRAPHQL_VALIDATION_FAILED');
    const big = await h.http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }', pad: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(big.status).toBe(413);
    expect(big.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
