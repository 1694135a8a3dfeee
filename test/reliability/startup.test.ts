// Issue 23, finding 7: a request that arrived while `npm start` was starting never got an answer
// (the port listened before the request handler was attached). Now every request and upgrade
// racing the start gets 503 with Retry-After at once, and the real answer once ready.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { expect, inject, it } from 'vitest';
import { type LocalServer, startLocal } from '../../functions/local/server.js';
import { STARTING_RETRY_AFTER_SECONDS } from '../../functions/local/starting.js';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((ok) => probe.close(() => ok()));
  return port;
}

interface Answer {
  status: number;
  retryAfter: string | null;
}

/** One GET (or WebSocket upgrade) with a hard timeout; null: nobody listens yet. */
function ask(port: number, path: string, upgrade: boolean): Promise<Answer | null> {
  return new Promise((ok, fail) => {
    const headers: Record<string, string> = upgrade
      ? {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'sec-websocket-protocol': 'graphql-transport-ws',
        }
      : {};
    const req = request({ host: '127.0.0.1', port, path, headers, timeout: 3000 });
    req.on('response', (res) => {
      res.resume();
      ok({ status: res.statusCode!, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null });
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      ok({ status: 101, retryAfter: null });
    });
    req.on('timeout', () =>
      fail(new Error(`no answer within 3 s to ${upgrade ? 'an upgrade' : path} during the start`)),
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET' ? ok(null) : fail(e),
    );
    req.end();
  });
}

it('requests and upgrades racing the start get 503 with Retry-After, never silence; then the real answers', async () => {
  const port = await freePort();
  let local: LocalServer | null = null;
  const starting = startLocal({
    port,
    dataDir: null,
    endpoint: inject('dynamoEndpoint'),
    tableName: `start-${randomUUID().slice(0, 8)}`,
    sweepIntervalMs: 0,
  }).then((l) => (local = l));
  const early: Answer[] = [];
  try {
    while (!local) {
      const answers = await Promise.all([
        ask(port, '/health', false),
        ask(port, '/graphql?query=%7B__typename%7D', false),
        ask(port, '/graphql', true),
      ]);
      if (!local) early.push(...answers.filter((a): a is Answer => a !== null));
      if (answers.every((a) => a === null)) await new Promise((r) => setTimeout(r, 2));
    }
    await starting;
    // the race was real: answers came while starting, and each was a prompt 503 with Retry-After
    expect(early.length).toBeGreaterThan(0);
    for (const a of early)
      expect(a.status === 503 ? a.retryAfter : 'ready').toBe(
        a.status === 503 ? String(STARTING_RETRY_AFTER_SECONDS) : 'ready',
      );
    expect(early.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // once ready: everything answers for real
    expect((await ask(port, '/health', false))?.status).toBe(200);
    expect((await ask(port, '/graphql', true))?.status).toBe(101);
  } finally {
    await starting.catch(() => undefined);
    await (local as LocalServer | null)?.close();
  }
}, 60_000);
