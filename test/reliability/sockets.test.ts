// Finding 3: the WebSocket path skipped the HTTP limits. The same documents over HTTP and over
// graphql-ws get the same typed, named answer (one shared set of limits), big messages close the
// socket before they are read, and subscriptions per connection and connections per player are
// capped. (A socket flooding the server while others play: flood.test.ts.)
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type LocalServer, startLocal } from '../../functions/local/server.js';
import { CLOSE_TOO_MANY, WS_LIMITS } from '../../functions/local/subscriptions.js';
import { MAX_BODY_BYTES } from '../../functions/api/http/app.js';
import { RATES } from '../../functions/api/http/ratelimit.js';

let s: LocalServer;
beforeAll(async () => {
  // Default rate limits: this is the server as `npm start` runs it.
  s = await startLocal({
    port: 0,
    dataDir: null,
    endpoint: inject('dynamoEndpoint'),
    tableName: `ws-${randomUUID().slice(0, 8)}`,
    sweepIntervalMs: 0,
  });
});
afterAll(() => s.close());

async function http(query: string, token?: string) {
  const r = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return (await r.json()) as any;
}

/** A raw graphql-transport-ws connection: messages received, and a way to wait for one. */
async function socket(token?: string) {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const got: any[] = [];
  let closed: { code: number; reason: string } | null = null;
  let wake: (() => void) | null = null;
  ws.on('message', (m) => {
    got.push(JSON.parse(String(m)));
    wake?.();
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
    wake?.();
  });
  ws.on('error', () => {});
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} }));
  const until = async (pred: () => boolean) => {
    const end = Date.now() + 10_000;
    while (!pred() && Date.now() < end) await new Promise<void>((r) => ((wake = r), setTimeout(r, 200)));
    return pred();
  };
  await until(() => got.some((m) => m.type === 'connection_ack') || closed !== null);
  const subscribe = (id: string, query: string, variables: Record<string, unknown> = {}) =>
    ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
  return {
    ws,
    got,
    until,
    subscribe,
    closed: () => closed as { code: number; reason: string } | null,
    acked: got.some((m) => m.type === 'connection_ack'),
  };
}

const signUp = async (name: string) =>
  (await http(`mutation { signUp(name: "${name}") { playerId token } }`)).data.signUp as {
    playerId: string;
    token: string;
  };

describe('one set of limits for HTTP and WebSocket', () => {
  const cases: [string, string, string][] = [
    ['tokens', `subscription { gameUpdated(gameId: "x") { ${'id '.repeat(2100)} } }`, 'GRAPHQL_PARSE_FAILED'],
    [
      'aliases',
      `subscription { gameUpdated(gameId: "x") { ${Array.from({ length: 16 }, (_, i) => `a${i}: id`).join(' ')} } }`,
      'GRAPHQL_VALIDATION_FAILED',
    ],
    [
      'directives',
      `subscription { gameUpdated(gameId: "x") { id ${'@include(if: true) '.repeat(21)} } }`,
      'GRAPHQL_VALIDATION_FAILED',
    ],
  ];
  it.each(cases)('%s: the same named error on both paths', async (name, doc, code) => {
    const overHttp = (await http(doc)).errors[0];
    expect(overHttp.extensions.code).toBe(code);
    expect(overHttp.extensions.limit.name).toBe(name);
    expect(overHttp.message).not.toMatch(/Syntax Error/);
    const c = await socket();
    c.subscribe('1', doc);
    await c.until(() => c.got.some((m) => m.id === '1'));
    const overWs = c.got.find((m) => m.id === '1');
    expect(overWs.type).toBe('error');
    expect(overWs.payload[0]).toEqual({ message: overHttp.message, extensions: overHttp.extensions });
    c.ws.close();
  });

  it.each([
    ['depth', `{ __type(name: "Game") { fields { type { ${'ofType { '.repeat(5)}name ${'} '.repeat(5)}} } } }`],
    [
      'cost',
      `query { ${Array.from({ length: 15 }, (_, i) => `o${i}: openGames { ${'...S '.repeat(20)}}`).join(' ')} } fragment S on Game { seats { seat name loot { kind count } } me { prompts { options { id label } } } }`,
    ],
  ])('%s: the same named error on both paths', async (name, doc) => {
    const overHttp = (await http(doc)).errors[0];
    expect(overHttp.extensions.limit?.name).toBe(name);
    expect(overHttp.message).not.toMatch(/Syntax Error/);
    expect(overHttp.message).toMatch(new RegExp(`${name} limit`, 'i'));
    const c = await socket();
    c.subscribe('q', doc);
    await c.until(() => c.got.some((m) => m.id === 'q'));
    const overWs = c.got.find((m) => m.id === 'q');
    expect(overWs.type).toBe('error');
    expect(overWs.payload[0]).toEqual({ message: overHttp.message, extensions: overHttp.extensions });
    c.ws.close();
  });

  it(`a message over ${MAX_BODY_BYTES} bytes closes the socket unread (1009), like the HTTP body limit (413)`, async () => {
    const doc = `subscription { gameUpdated(gameId: "x") { ${Array.from({ length: 100_000 }, (_, i) => `f${i}: id`).join(' ')} } }`;
    const c = await socket();
    c.subscribe('big', doc);
    await c.until(() => c.closed() !== null);
    expect(c.closed()!.code).toBe(1009);
    const r = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: doc }),
    });
    expect(r.status).toBe(413);
  });

  it(`at most ${WS_LIMITS.subscriptionsPerConnection} subscriptions per connection and ${WS_LIMITS.connectionsPerPrincipal} connections per player`, async () => {
    const p = await signUp('Socket Hog');
    const id = (await http(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, p.token)).data
      .createGame.id;
    const c = await socket(p.token);
    for (let i = 0; i <= WS_LIMITS.subscriptionsPerConnection; i++)
      c.subscribe(`s${i}`, `subscription($g: ID!) { gameUpdated(gameId: $g) { version } }`, { g: id });
    const last = `s${WS_LIMITS.subscriptionsPerConnection}`;
    await c.until(() => c.got.some((m) => m.id === last && m.type === 'error'));
    expect(c.got.find((m) => m.id === last && m.type === 'error').payload[0].extensions.code).toBe('LIMIT_EXCEEDED');
    await c.until(
      () =>
        new Set(c.got.filter((m) => m.type === 'next').map((m) => m.id)).size >= WS_LIMITS.subscriptionsPerConnection,
    );
    expect(new Set(c.got.filter((m) => m.type === 'next').map((m) => m.id)).size).toBe(
      WS_LIMITS.subscriptionsPerConnection,
    );
    const more = [];
    for (let i = 1; i < WS_LIMITS.connectionsPerPrincipal; i++) more.push(await socket(p.token));
    expect(more.every((m) => m.acked)).toBe(true);
    const refused = await socket(p.token);
    await refused.until(() => refused.closed() !== null);
    expect(refused.acked).toBe(false);
    expect(refused.closed()!.code).toBe(CLOSE_TOO_MANY);
    // Another player is not affected, and a closed connection frees its place.
    const other = await socket((await signUp('Socket Neighbour')).token);
    expect(other.acked).toBe(true);
    c.ws.close();
    await c.until(() => c.closed() !== null);
    await new Promise((r) => setTimeout(r, 50));
    const again = await socket(p.token);
    expect(again.acked).toBe(true);
    for (const x of [...more, other, again]) x.ws.close();
  });
});

describe('upgrades per address', () => {
  it(`a burst of upgrades from one address is refused before the handshake (HTTP 429, Retry-After) past ${RATES.upgrade.burst}`, async () => {
    // Its own server: the upgrade bucket of this address is not shared with the cases above.
    const t = await startLocal({
      port: 0,
      dataDir: null,
      endpoint: inject('dynamoEndpoint'),
      tableName: `ws-${randomUUID().slice(0, 8)}`,
      sweepIntervalMs: 0,
      oidc: false,
    });
    try {
      const tries = await Promise.all(
        Array.from(
          { length: RATES.upgrade.burst + 10 },
          () =>
            new Promise<{ open: boolean; status?: number; retryAfter?: string; body?: string; ws: WebSocket }>((ok) => {
              const ws = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
              ws.on('open', () => ok({ open: true, ws }));
              ws.on('unexpected-response', (_req, res) => {
                let body = '';
                res.on('data', (c: Buffer) => (body += String(c)));
                res.on('end', () =>
                  ok({ open: false, status: res.statusCode, retryAfter: res.headers['retry-after'], body, ws }),
                );
              });
              ws.on('error', () => {});
            }),
        ),
      );
      const opened = tries.filter((x) => x.open);
      const refused = tries.filter((x) => !x.open);
      expect(opened.length).toBeGreaterThanOrEqual(RATES.upgrade.burst);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0].status).toBe(429);
      expect(Number(refused[0].retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(refused[0].body!).errors[0].extensions.code).toBe('RATE_LIMITED');
      for (const x of tries) x.ws.terminate();
      // /health and HTTP GraphQL from the same address are not affected.
      expect((await fetch(`${t.url}/health`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
