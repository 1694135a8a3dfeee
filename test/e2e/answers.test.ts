// One kind of answer for one kind of mistake, whatever the transport: a subscription sent over
// HTTP says where subscriptions are served; over WebSocket, parse, validation, limit and
// resolver errors carry the same codes as over HTTP.
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../setup/http.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** The errors a graphql-ws subscription ends with (or its first result's errors). */
async function wsErrors(query: string, variables: Record<string, unknown> = {}): Promise<any[]> {
  const client = createClient({
    url: `${s.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
  });
  try {
    return await new Promise<any[]>((resolve) => {
      client.subscribe(
        { query, variables },
        {
          next: (r) => r.errors && resolve(r.errors as any[]),
          error: (e) => resolve(Array.isArray(e) ? e : [e]),
          complete: () => resolve([]),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

async function httpErrors(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, errors: ((await res.json()) as any).errors as any[] };
}

const codes = (errors: any[]) => errors.map((e) => e.extensions?.code);

describe('consistent answers', () => {
  it('a subscription over HTTP is a typed 400 that says where subscriptions are served', async () => {
    const r = await httpErrors(`subscription { gameUpdated(gameId: "x") { id } }`);
    expect(r.status).toBe(400);
    expect(codes(r.errors)).toEqual(['SUBSCRIPTION_OVER_HTTP']);
    expect(r.errors[0].message).toMatch(/WebSocket.*graphql-ws.*\/graphql/);
  });

  it('WebSocket errors use the HTTP codes', async () => {
    const cases: [string, string][] = [
      ['subscription { gameUpdated(gameId: "x") { id ', 'GRAPHQL_PARSE_FAILED'],
      ['subscription { gameUpdated(gameId: "x") { idd } }', 'GRAPHQL_VALIDATION_FAILED'],
      [
        'subscription { gameUpdated(gameId: "x") { seats { loot { kind } } me { prompts { options { id } } } island { seat } days } }',
        '',
      ],
      ['subscription { gameUpdated(gameId: "no-such-game") { id } }', 'NOT_FOUND'],
      [
        `subscription { ${Array.from({ length: 20 }, (_, i) => `a${i}: gameUpdated(gameId: "x") { id }`).join(' ')} }`,
        'GRAPHQL_VALIDATION_FAILED',
      ],
    ];
    for (const [query, code] of cases) {
      const ws = await wsErrors(query);
      if (code === '') {
        expect(codes(ws)).toEqual(['NOT_FOUND']); // valid document: the resolver's answer
        continue;
      }
      expect([...new Set(codes(ws))], query).toEqual([code]);
      if (code !== 'NOT_FOUND') {
        // The same document as a query over HTTP gets the same code.
        const http = await httpErrors(
          query.replace(/^subscription/, 'query').replace(/gameUpdated\(gameId: "x"\)/g, 'game(id: "x")'),
        );
        expect(codes(http.errors)[0], query).toBe(code);
      }
    }
  });
});
