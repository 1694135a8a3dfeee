// Site-wide webhooks against a receiver on localhost: one registration with a site's client
// credentials hears the notices of every user the site acts for, each delivery naming the
// recipient player and the registration (body and headers), signed over the timestamp and the
// body; registering the URL again is idempotent (one delivery per notice); a site holds a
// bounded number of registrations; a player's token cannot touch them.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../functions/api/accounts/auth.js';
import { MAX_SITE_WEBHOOKS_PER_CLIENT } from '../../../functions/api/notify/sites.js';
import { codeOf, testApp } from '../../setup/app.js';
import { playToEnd } from '../../setup/play.js';
import { testIssuer } from '../../setup/tokens.js';

let idp: Awaited<ReturnType<typeof testIssuer>>;
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  idp = await testIssuer('https://id.sites.test', 'libertalia');
  t = await testApp({ issuers: [idp.config], webhooks: { allowPrivateHosts: true, timeoutMs: 1000 } });
});
afterAll(() => t.close());

const siteToken = (clientId: string, scope = `${SCOPES.createGames} ${SCOPES.actForUsers}`) =>
  idp.token({ sub: clientId, client_id: clientId, scope });
const ACT_AS = `mutation($u: String!, $n: String) { actAs(user: $u, name: $n) { playerId token } }`;
const REGISTER = `mutation($u: String!) { registerSiteWebhook(url: $u) { created secret webhook { id url createdAt } } }`;

async function receiver() {
  const got: { headers: IncomingMessage['headers']; raw: string }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push({ headers: req.headers, raw });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/site-hook`;
  return { url, got, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

describe('site-wide webhooks', () => {
  it("hear every site user's notices, name the recipient and the registration, and sign the timestamp", async () => {
    const hook = await receiver();
    try {
      const site = await siteToken(`site-${Date.now()}`);
      const first = (await t.gql(REGISTER, { u: hook.url }, site)).data.registerSiteWebhook;
      expect(first.created).toBe(true);
      // The same URL again: the same registration and secret, not a second one.
      const again = (await t.gql(REGISTER, { u: hook.url }, site)).data.registerSiteWebhook;
      expect(again).toEqual({ ...first, created: false });
      const listed = (await t.gql(`{ siteWebhooks { id url } }`, {}, site)).data.siteWebhooks;
      expect(listed).toEqual([{ id: first.webhook.id, url: hook.url }]);
      expect(JSON.stringify(listed)).not.toContain(first.secret);

      const anne = (await t.gql(ACT_AS, { u: 'anne', n: 'Site Anne' }, site)).data.actAs;
      const bart = (await t.gql(ACT_AS, { u: 'bart', n: 'Site Bart' }, site)).data.actAs;
      const g = (
        await t.gql(
          `mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "site" }) { id } }`,
          {},
          anne.token,
        )
      ).data.createGame.id;
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g }, bart.token);
      await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g }, anne.token);
      await t.app.notices!.drain();
      const turns = hook.got.map((r) => JSON.parse(r.raw));
      // One yourTurn for each user (not two: the URL was registered twice).
      expect(turns.map((b) => b.playerId).sort()).toEqual([anne.playerId, bart.playerId].sort());
      expect(turns.every((b) => b.kind === 'yourTurn' && b.gameId === g && b.webhookId === first.webhook.id)).toBe(
        true,
      );
      for (const r of hook.got) {
        const body = JSON.parse(r.raw);
        const ts = r.headers['x-libertalia-timestamp'] as string;
        const mac = createHmac('sha256', first.secret).update(`${ts}.${r.raw}`).digest('hex');
        expect(r.headers['x-libertalia-signature-v2']).toBe(`t=${ts},sha256=${mac}`);
        expect(r.headers['x-libertalia-signature']).toBeUndefined(); // the body-only signature is for player webhooks
        expect(r.headers['x-libertalia-webhook-id']).toBe(first.webhook.id);
        expect(r.headers['x-libertalia-player-id']).toBe(body.playerId);
        // A changed timestamp no longer verifies.
        const forged = createHmac('sha256', first.secret)
          .update(`${Number(ts) + 1}.${r.raw}`)
          .digest('hex');
        expect(forged).not.toBe(mac);
      }

      // To the end: both users hear of it, through the one registration.
      await playToEnd(t.gql, g, [anne.token, bart.token], 7);
      await t.app.notices!.drain();
      const ends = hook.got.map((r) => JSON.parse(r.raw)).filter((b) => b.kind === 'gameEnded');
      expect(ends.map((b) => b.playerId).sort()).toEqual([anne.playerId, bart.playerId].sort());
      const ids = hook.got.map((r) => r.headers['x-libertalia-delivery']);
      expect(new Set(ids).size).toBe(ids.length); // never one notice twice

      // Deleted: no more deliveries; a player of another site or a guest hears nothing of this one.
      expect(
        (await t.gql(`mutation($i: ID!) { deleteSiteWebhook(id: $i) }`, { i: first.webhook.id }, site)).data
          .deleteSiteWebhook,
      ).toBe(true);
      expect((await t.gql(`{ siteWebhooks { id } }`, {}, site)).data.siteWebhooks).toEqual([]);
    } finally {
      await hook.close();
    }
  });

  it('another site does not hear them; only a client with users.act registers; a bounded number per site', async () => {
    const hook = await receiver();
    try {
      const mine = await siteToken(`mine-${Date.now()}`);
      const other = await siteToken(`other-${Date.now()}`);
      await t.gql(REGISTER, { u: hook.url }, other);
      const carl = (await t.gql(ACT_AS, { u: 'carl', n: 'Site Carl' }, mine)).data.actAs;
      const g = (
        await t.gql(
          `mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1, seed: "other" }) { id } }`,
          {},
          carl.token,
        )
      ).data.createGame.id;
      await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g }, carl.token);
      await t.app.notices!.drain();
      expect(hook.got).toEqual([]);

      // A player (even a site user) cannot register or list a site's webhooks.
      expect(codeOf(await t.gql(REGISTER, { u: hook.url }, carl.token))).toBe('FORBIDDEN');
      expect(codeOf(await t.gql(`{ siteWebhooks { id } }`, {}, carl.token))).toBe('FORBIDDEN');
      expect(codeOf(await t.gql(REGISTER, { u: hook.url }))).toBe('UNAUTHENTICATED');
      const joinOnly = await siteToken(`nojoin-${Date.now()}`, SCOPES.createGames);
      expect(codeOf(await t.gql(REGISTER, { u: hook.url }, joinOnly))).toBe('FORBIDDEN');
      expect(codeOf(await t.gql(REGISTER, { u: 'ftp://example.com/' }, mine))).toBe('BAD_USER_INPUT');

      for (let i = 0; i < MAX_SITE_WEBHOOKS_PER_CLIENT; i++)
        expect((await t.gql(REGISTER, { u: `https://example.com/${i}` }, mine)).errors).toBeUndefined();
      const full = await t.gql(REGISTER, { u: 'https://example.com/one-more' }, mine);
      expect(codeOf(full)).toBe('LIMIT_EXCEEDED');
      expect(full.errors![0].extensions!.limit).toEqual({
        name: 'siteWebhooksPerClient',
        max: MAX_SITE_WEBHOOKS_PER_CLIENT,
      });
      // Registering one it holds already still answers it (idempotent, not a new one).
      expect((await t.gql(REGISTER, { u: 'https://example.com/0' }, mine)).data.registerSiteWebhook.created).toBe(
        false,
      );
      expect((await t.gql(`{ siteWebhooks { id } }`, {}, mine)).data.siteWebhooks).toHaveLength(
        MAX_SITE_WEBHOOKS_PER_CLIENT,
      );
    } finally {
      await hook.close();
    }
  });
});
