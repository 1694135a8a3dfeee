// Issue 23, finding 4: limits count what Apollo parsed, not the text. Every root field of the
// operation is a token (aliases and fragments included), the same over HTTP and graphql-ws;
// signUp is a sign-up whatever token is sent; introspection fields have their own bucket and
// their own depth and cost bounds. Each refused request answers a typed error and writes nothing.
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getIntrospectionQuery } from 'graphql';
import { afterEach, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { INTROSPECTION_LIMITS } from '../../functions/api/http/app.js';
import { RATES } from '../../functions/api/http/ratelimit.js';
import { ARG_BOUNDS } from '../../functions/api/resolvers/bounds.js';
import { localDocumentClient } from '../../functions/local/dynalite.js';
import { type LocalServer, startLocal } from '../../functions/local/server.js';

const SIGN_UPS = 6; // a small sign-up burst, so a test can empty it
let s: LocalServer;
let tableName = '';
const inspect = localDocumentClient(inject('dynamoEndpoint'));

async function server(signUpBurst = SIGN_UPS) {
  tableName = `ops-${randomUUID().slice(0, 8)}`;
  s = await startLocal({
    port: 0,
    dataDir: null,
    oidc: false,
    endpoint: inject('dynamoEndpoint'),
    tableName,
    sweepIntervalMs: 0,
    rateLimits: { signUp: { perSecond: 1 / 3600, burst: signUpBurst } },
  });
}
afterEach(() => s?.close());

async function post(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const r = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: r.status, body: (await r.json()) as any };
}
const items = async () => (await inspect.send(new ScanCommand({ TableName: tableName, Select: 'COUNT' }))).Count ?? 0;
const signUp = async (name: string, token?: string) =>
  (await post(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: name }, token)).body;
const aliased = (n: number, tag: string) =>
  `mutation { ${Array.from({ length: n }, (_, i) => `g${i}: signUp(name: "${tag} ${i}") { token }`).join(' ')} }`;

describe('signUp is counted per field, per address, whatever the path', () => {
  it(`${SIGN_UPS - 1} aliased signUp fields take ${SIGN_UPS - 1} sign-ups: one more single signUp passes, the next is RATE_LIMITED and writes nothing`, async () => {
    await server();
    const many = await post(aliased(SIGN_UPS - 1, 'Alias'));
    expect(Object.keys(many.body.data)).toHaveLength(SIGN_UPS - 1);
    expect((await signUp('Last Seat')).data.signUp.token).toBeTruthy();
    const before = await items();
    const refused = await post(aliased(2, 'Over'));
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.body.data).toBeUndefined();
    expect(await items()).toBe(before);
  });

  it('more aliased signUp fields than a whole burst: LIMIT_EXCEEDED (400), nobody signed up', async () => {
    await server();
    const before = await items();
    const r = await post(aliased(SIGN_UPS + 1, 'Sybil'));
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe('LIMIT_EXCEEDED');
    expect(await items()).toBe(before);
  });

  it('a signUp sent with a token is still a sign-up of the address', async () => {
    await server();
    const { token } = (await signUp('Token Holder')).data.signUp;
    for (let i = 1; i < SIGN_UPS; i++) expect((await signUp(`With Token ${i}`, token)).errors).toBeUndefined();
    const before = await items();
    const refused = await signUp('One Too Many', token);
    expect(refused.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await items()).toBe(before);
  });

  it('a signUp behind an inline fragment after a `#` in a string default is found by the parse, not hidden from it', async () => {
    await server(1);
    // The text sniffer drops everything after a `#` on its line: it sees no signUp here.
    const hidden = `mutation M($n: String = "#") { ... on Mutation { signUp(name: $n) { token } } }`;
    expect((await post(hidden, { n: 'Hidden A' })).body.data.signUp.token).toBeTruthy();
    const before = await items();
    const again = await post(hidden, { n: 'Hidden B' });
    expect(again.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await items()).toBe(before);
    // The same through a named fragment.
    const spread = await post(`mutation { ...S } fragment S on Mutation { signUp(name: "Hidden C") { token } }`);
    expect(spread.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(await items()).toBe(before);
  });

  it('over graphql-ws a signUp takes the same bucket as over HTTP', async () => {
    await server(2);
    expect((await signUp('Http First')).data.signUp.token).toBeTruthy();
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const got: any[] = [];
    ws.on('message', (m) => got.push(JSON.parse(String(m))));
    await new Promise((ok) => ws.once('open', ok));
    ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    const waitFor = async (pred: (m: any) => boolean) => {
      const end = Date.now() + 10_000;
      while (!got.some(pred) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return got.find(pred);
    };
    await waitFor((m) => m.type === 'connection_ack');
    ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: aliased(2, 'Socket') } }));
    const answer = await waitFor((m) => m.id === '1' && (m.type === 'error' || m.type === 'next'));
    ws.close();
    // One token left, two fields: refused, nobody signed up.
    expect(answer.type === 'error' ? answer.payload[0].extensions.code : answer.payload.errors[0].extensions.code).toBe(
      'RATE_LIMITED',
    );
    expect((await signUp('Http Last')).data.signUp.token).toBeTruthy();
  });
});

describe('introspection is counted', () => {
  it('the standard introspection query answers; two in one operation are over the introspection cost', async () => {
    await server();
    const q = getIntrospectionQuery();
    expect((await post(q)).body.data.__schema.queryType.name).toBe('Query');
    const cut = q.indexOf('fragment');
    const field = q.slice(0, cut).slice(q.indexOf('{') + 1, q.slice(0, cut).lastIndexOf('}'));
    const two = await post(`query { a: ${field} b: ${field} } ${q.slice(cut)}`);
    expect(two.status).toBe(400);
    expect(two.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(two.body.errors[0].message).toMatch(new RegExp(`Cost limit of ${INTROSPECTION_LIMITS.maxCost}`));
  });

  it(`nesting under __schema is bounded (depth ${INTROSPECTION_LIMITS.maxDepth}): graphql-armor alone skips it`, async () => {
    await server();
    const deep = `{ __schema { types { ${'fields { type { '.repeat(5)} name ${'} } '.repeat(5)} } } }`;
    const r = await post(deep);
    expect(r.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(r.body.errors[0].message).toMatch(/depth/i);
  });

  it(`introspection fields per player: ${RATES.introspection.burst} then RATE_LIMITED, other reads still served`, async () => {
    await server();
    const { token } = (await signUp('Schema Reader')).data.signUp;
    const answers = [];
    for (let i = 0; i < RATES.introspection.burst + 1; i++)
      answers.push(await post(`{ __type(name: "Game") { name } }`, {}, token));
    expect(answers.slice(0, RATES.introspection.burst).every((a) => a.body.data.__type.name === 'Game')).toBe(true);
    expect(answers.at(-1)!.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect((await post(`{ __typename }`, {}, token)).body.data.__typename).toBe('Query');
  });
});

describe('finding 7: every ID and String argument is length-checked', () => {
  const long = 'x'.repeat(3000);
  it.each([
    ['deleteWebhook(id)', `mutation($v: ID!) { deleteWebhook(id: $v) }`, 'id', ARG_BOUNDS.id],
    ['game(id)', `query($v: ID!) { game(id: $v) { id } }`, 'id', ARG_BOUNDS.id],
    ['joinGame(gameId)', `mutation($v: ID!) { joinGame(gameId: $v) { id } }`, 'gameId', ARG_BOUNDS.id],
    [
      'answerPrompt(promptId)',
      `mutation($v: ID!) { answerPrompt(gameId: "g", promptId: $v, optionId: "o") { id } }`,
      'promptId',
      ARG_BOUNDS.id,
    ],
    [
      'refreshSession(refreshToken)',
      `mutation($v: String!) { refreshSession(refreshToken: $v) { token } }`,
      'refreshToken',
      ARG_BOUNDS.string,
    ],
  ])(
    '%s with 3,000+ characters: BAD_USER_INPUT naming the argument, nothing written',
    async (_name, query, argument, max) => {
      await server();
      const { token } = (await signUp('Long Ids')).data.signUp;
      const before = await items();
      const r = await post(query, { v: long.repeat(Math.ceil((max + 1) / long.length)) }, token);
      expect(r.status).toBe(200);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument, maxLength: max });
      expect(await items()).toBe(before);
    },
  );

  it('an id at the bound is an ordinary miss (false / null), not an error', async () => {
    await server();
    const { token } = (await signUp('Bound Ids')).data.signUp;
    const r = await post(`mutation($v: ID!) { deleteWebhook(id: $v) }`, { v: 'x'.repeat(ARG_BOUNDS.id) }, token);
    expect(r.body).toEqual({ data: { deleteWebhook: false } });
  });
});
