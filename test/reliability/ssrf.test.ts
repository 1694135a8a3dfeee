// Finding 4: the webhook SSRF check read the literal host only. Every form the review found
// accepted, their IPv6 spellings, names that resolve to private addresses, DNS rebinding and
// redirects: refused, at registration where the URL says it and at delivery time on the
// address actually connected to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkUrl,
  DEFAULT_WEBHOOKS,
  isPublicAddress,
  post,
  recordDeliveries,
  attempt,
} from '../../functions/api/notify/webhooks.js';
import { codeOf, testApp } from '../setup/app.js';

// Addresses a webhook must never reach: the review's findings first, then their IPv6 spellings
// and the other non-public ranges.
const REFUSED = [
  '::127.0.0.1',
  '64:ff9b::127.0.0.1',
  '2002:7f00:1::',
  '198.18.0.0',
  '198.18.0.1',
  '198.19.255.255',
  '224.0.0.0',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '127.0.0.1',
  '127.255.255.254',
  '0.0.0.0',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '192.0.0.1',
  '192.0.2.1',
  '198.51.100.1',
  '203.0.113.1',
  '240.0.0.1',
  '::1',
  '::',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:0001',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::7f00:1',
  '::a00:1',
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::808:808',
  '64:ff9b:1::1',
  '2002:a00:1::',
  '2002:c0a8:101::1',
  '2002:808:808::',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  'fe80::1',
  'fe80::1%eth0',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  'ff05::1:3',
  '2001:db8::1',
  '100::1',
  'fec0::1',
];
const ALLOWED = ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e'];

// URL spellings (the WHATWG parser turns 0x7f.1, 2130706433, 0177.0.0.1 ... into 127.0.0.1 first).
const REFUSED_URLS = [
  'http://localhost./',
  'http://LOCALHOST/',
  'http://localhost:8080/',
  'http://a.localhost/',
  'http://instance-data/',
  'http://instance-data./latest/meta-data',
  'http://metadata.google.internal/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[2002:7f00:1::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::1]/',
  'http://[fe80::1]/',
  'http://198.18.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://0x7f.1/',
  'http://2130706433/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://0/',
  'http://169.254.169.254/latest',
];

describe('webhook SSRF', () => {
  it.each(REFUSED)('refuses %s', (ip) => expect(isPublicAddress(ip)).toBe(false));
  it.each(ALLOWED)('allows %s', (ip) => expect(isPublicAddress(ip)).toBe(true));
  it.each(REFUSED_URLS)('refuses the URL %s', (u) =>
    expect(() => checkUrl(u, DEFAULT_WEBHOOKS)).toThrow(/public host/),
  );
  it('accepts a public name (resolved at delivery)', () =>
    expect(checkUrl('https://hooks.example.com/x', DEFAULT_WEBHOOKS).hostname).toBe('hooks.example.com'));
});

let receiver: Server;
let hits = 0;
let port = 0;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
    else res.writeHead(204).end();
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((ok) => receiver.close(() => ok())));

describe('at delivery time, on the address connected to', () => {
  it('a name resolving to a private address is refused, and the receiver never hears', async () => {
    hits = 0;
    const cfg = { ...DEFAULT_WEBHOOKS, resolve: async () => [{ address: '127.0.0.1', family: 4 }] };
    await expect(post(new URL(`http://hooks.example.com:${port}/x`), {}, '{}', cfg)).rejects.toThrow(
      /resolves to 127\.0\.0\.1, not a public host/,
    );
    const mixed = {
      ...DEFAULT_WEBHOOKS,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '::ffff:127.0.0.1', family: 6 },
      ],
    };
    await expect(post(new URL(`http://hooks.example.com:${port}/x`), {}, '{}', mixed)).rejects.toThrow(
      /not a public host/,
    );
    expect(hits).toBe(0);
  });

  it('DNS rebinding: each attempt resolves once and connects to what it checked', async () => {
    hits = 0;
    let n = 0;
    // Public at registration time (and on every odd lookup), loopback on the next.
    const rebinding = {
      ...DEFAULT_WEBHOOKS,
      timeoutMs: 300,
      resolve: async () => [{ address: n++ % 2 === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }],
    };
    const t = await testApp({ store: 'dynamodb', webhooks: rebinding });
    try {
      const a = await t.signUp('Rebinder');
      const reg = await t.gql(
        `mutation($u: String!) { registerWebhook(url: $u) { webhook { id } } }`,
        { u: `http://rebind.example.com:${port}/x` },
        a.token,
      );
      expect(reg.errors).toBeUndefined();
      const [d] = await recordDeliveries(t.app.services, [
        { playerId: a.playerId, gameId: 'g', kind: 'yourTurn', seat: 0, version: 1 },
      ]);
      for (let i = 0; i < 4; i++) {
        const cur = (await t.app.services.store.notify.getDelivery(d.id))!;
        expect(await attempt(t.app.services, cur)).toBe('retry');
      }
      const last = (await t.app.services.store.notify.getDelivery(d.id))!;
      expect(last.attempts).toBe(4);
      expect(last.lastError).toMatch(/not a public host/);
      expect(hits).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('redirects are not followed: a 3xx is a failed attempt', async () => {
    hits = 0;
    const local = { ...DEFAULT_WEBHOOKS, allowPrivateHosts: true };
    expect(await post(new URL(`http://127.0.0.1:${port}/redirect`), {}, '{}', local)).toBe(302);
    expect(hits).toBe(1); // the redirect itself, never its target
  });

  it('registration refuses the literal forms with a typed error', async () => {
    const t = await testApp({ store: 'dynamodb' });
    try {
      const a = await t.signUp('Ssrf');
      for (const u of REFUSED_URLS)
        expect(
          codeOf(await t.gql(`mutation($u: String!) { registerWebhook(url: $u) { secret } }`, { u }, a.token)),
          u,
        ).toBe('BAD_USER_INPUT');
      expect((await t.gql(`{ myWebhooks { id } }`, {}, a.token)).data.myWebhooks).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
