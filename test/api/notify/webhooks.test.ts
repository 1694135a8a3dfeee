// Webhooks against receivers on localhost: the right notices, correctly signed; a failing
// receiver is retried by the notice worker with backoff and never blocks the game; a receiver
// that never answers costs the move nothing (the worker waits, not the move).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUrl, DEFAULT_WEBHOOKS, MAX_ATTEMPTS } from '../../../functions/api/notify/webhooks.js';
import { codeOf, testApp } from '../../setup/app.js';
import { GAME_QUERY, PLAY, playToEnd } from '../../setup/play.js';

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
}

/** A receiver answering `status(n)` to its n-th request (1-based), or never for 0. */
async function receiver(status: (n: number) => number) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push({ headers: req.headers, raw });
      const code = status(got.length);
      if (code === 0) return; // hang
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((ok) => server.close(() => ok()));
  };
  return { url, got, close };
}

let t: Awaited<ReturnType<typeof testApp>>;
let clock = new Date('2031-06-01T12:00:00.000Z');
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

beforeAll(async () => {
  // 2 s a try, as deployed: on the in-memory store a game's moves, and so its deliveries, come
  // at machine speed, and a receiver on this busy machine may take longer than a short timeout.
  t = await testApp({ now: () => clock, webhooks: { allowPrivateHosts: true, timeoutMs: 2000 } });
});
afterAll(() => t.close());

const REGISTER = `mutation($u: String!, $g: ID) { registerWebhook(url: $u, gameId: $g) { secret webhook { id url gameId createdAt } } }`;

const verify = (r: Received, secret: string) => {
  const want = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
  expect(r.headers['x-libertalia-signature']).toBe(want);
  const body = JSON.parse(r.raw);
  expect(r.headers['x-libertalia-timestamp']).toBe(String(Math.floor(Date.parse(body.sentAt) / 1000)));
  expect(r.headers['x-libertalia-delivery']).toBe(body.deliveryId);
  // The v2 signature covers the timestamp too; the recipient and the registration are named.
  const ts = r.headers['x-libertalia-timestamp'];
  const v2 = createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex');
  expect(r.headers['x-libertalia-signature-v2']).toBe(`t=${ts},sha256=${v2}`);
  expect(r.headers['x-libertalia-webhook-id']).toBe(body.webhookId);
  expect(r.headers['x-libertalia-player-id']).toBe(body.playerId);
  expect(Object.keys(body).sort()).toEqual([
    'actor',
    'attempt',
    'deliveryId',
    'gameId',
    'kind',
    'playerId',
    'seat',
    'sentAt',
    'version',
    'webhookId',
  ]);
  return body;
};

describe('webhooks', () => {
  it('signed notices for your turn and the end; a failing receiver is retried by the notice worker without blocking the game', async () => {
    const drain = () => t.app.notices!.drain();
    const good = await receiver(() => 204);
    const flaky = await receiver((n) => (n <= 2 ? 500 : 200));
    const hanging = await receiver(() => 0);
    try {
      const [a, b] = await Promise.all([t.signUp('Hooked Anne'), t.signUp('Flaky Mary')]);
      const id = (
        await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "hooks" }) { id } }`, {}, a.token)
      ).data.createGame.id;
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
      const ha = (await t.gql(REGISTER, { u: good.url }, a.token)).data.registerWebhook;
      const hb = (await t.gql(REGISTER, { u: flaky.url, g: id }, b.token)).data.registerWebhook;
      const hh = (await t.gql(REGISTER, { u: hanging.url, g: id }, b.token)).data.registerWebhook;
      expect(ha.secret).toMatch(/^[\w-]{40,}$/);
      expect(hb.webhook).toMatchObject({ url: flaky.url, gameId: id });
      const mine = (await t.gql(`{ myWebhooks { id url gameId } }`, {}, b.token)).data.myWebhooks;
      expect(mine.map((w: any) => w.id).sort()).toEqual([hb.webhook.id, hh.webhook.id].sort());
      expect(JSON.stringify(mine)).not.toContain(hb.secret);

      // The start awaits both seats: one notice each (the hanging receiver only costs the timeout).
      const started = (
        await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { version awaiting } }`, { g: id }, a.token)
      ).data.startGame;
      await drain();
      expect(started.awaiting).toEqual([0, 1]);
      expect(good.got).toHaveLength(1);
      expect(verify(good.got[0], ha.secret)).toMatchObject({
        gameId: id,
        kind: 'yourTurn',
        seat: 0,
        version: started.version,
        attempt: 1,
      });
      expect(flaky.got).toHaveLength(1); // answered 500
      expect(verify(flaky.got[0], hb.secret)).toMatchObject({ kind: 'yourTurn', seat: 1, attempt: 1 });
      expect(hanging.got).toHaveLength(1);

      // The game goes on regardless: Mary plays.
      const hand = (await t.gql(GAME_QUERY, { id }, b.token)).data.game.me.hand;
      expect((await t.gql(PLAY, { g: id, r: hand[0] }, b.token)).errors).toBeUndefined();
      await drain();
      expect(flaky.got).toHaveLength(1); // no new notice: Mary's turn is not new

      // Retries: not before the backoff; then attempt 2 (fails again), attempt 3 (succeeds), then nothing.
      later(30_000);
      expect(await drain()).toBe(0);
      later(31_000);
      expect(await drain()).toBe(2); // flaky and hanging
      expect(flaky.got).toHaveLength(2);
      const second = verify(flaky.got[1], hb.secret);
      expect(second).toMatchObject({ attempt: 2, deliveryId: JSON.parse(flaky.got[0].raw).deliveryId });
      later(121_000);
      await drain();
      expect(flaky.got).toHaveLength(3);
      expect(verify(flaky.got[2], hb.secret).attempt).toBe(3);
      later(3600_000);
      await drain();
      expect(flaky.got).toHaveLength(3); // delivered: never sent again
      expect(hanging.got.length).toBeLessThanOrEqual(MAX_ATTEMPTS);

      // Deleting a webhook stops its notices.
      expect(
        (await t.gql(`mutation($i: ID!) { deleteWebhook(id: $i) }`, { i: hh.webhook.id }, b.token)).data.deleteWebhook,
      ).toBe(true);
      expect(
        (await t.gql(`mutation($i: ID!) { deleteWebhook(id: $i) }`, { i: hh.webhook.id }, b.token)).data.deleteWebhook,
      ).toBe(false);

      // Play to the end: every notice is signed, names only public facts; both hear of the end.
      const hangingBefore = hanging.got.length;
      await playToEnd(t.gql, id, [a.token, b.token], 5);
      await drain();
      const bodies = good.got.map((r) => verify(r, ha.secret));
      expect(bodies.every((x) => x.gameId === id && x.seat === 0)).toBe(true);
      // The end is the last notice in version order (arrival order is not promised: see below).
      const last = (xs: { kind: string; version: number }[]) => xs.reduce((m, x) => (x.version > m.version ? x : m));
      expect(last(bodies).kind).toBe('gameEnded');
      expect(bodies.filter((x) => x.kind === 'gameEnded')).toHaveLength(1);
      expect(bodies.filter((x) => x.kind === 'yourTurn').length).toBeGreaterThan(5);
      // Each notice once; the queue may deliver them out of order (a notice waits for its commit
      // to be found), so receivers order by `version` (docs/correspondence.md, webhooks).
      const keys = bodies.map((x) => `${x.kind}@${x.version}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(last(flaky.got.map((r) => verify(r, hb.secret))).kind).toBe('gameEnded');
      expect(hanging.got.length).toBe(hangingBefore);
    } finally {
      await Promise.all([good.close(), flaky.close(), hanging.close()]);
    }
  });

  it('the other players hear when a bot takes over a seat that kept timing out', async () => {
    const hook = await receiver(() => 200);
    try {
      const [a, b] = await Promise.all([t.signUp('Gone Anne'), t.signUp('Told Mary')]);
      const id = (
        await t.gql(
          `mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "told", decisionTimeLimitHours: 1, timeoutsBeforeBot: 1 }) { id } }`,
          {},
          a.token,
        )
      ).data.createGame.id;
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
      const { secret } = (await t.gql(REGISTER, { u: hook.url, g: id }, b.token)).data.registerWebhook;
      await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
      const hand = (await t.gql(GAME_QUERY, { id }, b.token)).data.game.me.hand;
      await t.gql(PLAY, { g: id, r: hand[0] }, b.token);
      later(3600_000);
      expect((await t.app.sweep()).timeouts).toBe(1);
      await t.app.notices!.drain();
      const told = hook.got.map((r) => verify(r, secret)).filter((x) => x.kind === 'seatReplaced');
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ gameId: id, seat: 0 });
    } finally {
      await hook.close();
    }
  });

  it('only http(s) URLs, public hosts unless allowed, a few per player', async () => {
    const a = await t.signUp('Checker');
    expect(codeOf(await t.gql(REGISTER, { u: 'ftp://example.com/x' }, a.token))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(REGISTER, { u: 'not a url' }, a.token))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(REGISTER, { u: 'https://user:pw@example.com/' }, a.token))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(REGISTER, { u: 'https://example.com/', g: 'no-such-game' }, a.token))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(REGISTER, { u: 'https://example.com/' }))).toBe('UNAUTHENTICATED');
    for (const u of [
      'http://localhost:8080/',
      'http://127.0.0.1/',
      'http://10.1.2.3/',
      'http://169.254.169.254/latest',
      'http://[::1]/',
      'http://192.168.0.4/',
    ]) {
      expect(() => checkUrl(u, DEFAULT_WEBHOOKS)).toThrow(/public host/);
    }
    expect(checkUrl('https://hooks.example.com/libertalia', DEFAULT_WEBHOOKS).hostname).toBe('hooks.example.com');
    for (let i = 0; i < 10; i++)
      expect((await t.gql(REGISTER, { u: `https://example.com/${i}` }, a.token)).errors).toBeUndefined();
    expect(codeOf(await t.gql(REGISTER, { u: 'https://example.com/11' }, a.token))).toBe('CONFLICT');
    // The same URL again (a retry): the registration already there, not an 11th.
    const twice = await Promise.all([0, 1].map(() => t.gql(REGISTER, { u: 'https://example.com/3' }, a.token)));
    expect(twice[0].data.registerWebhook).toEqual(twice[1].data.registerWebhook);
    expect((await t.gql(`{ myWebhooks { id } }`, {}, a.token)).data.myWebhooks).toHaveLength(10);
  });
});
