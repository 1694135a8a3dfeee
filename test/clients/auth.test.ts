// The SDK's auth helpers against the local server and its OpenID Provider: an integrator site
// (client credentials, then actAs for two of its users) sets up and starts a game; a guest
// session; a player account whose access token is renewed with its refresh token.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../setup/http.js';
import { signIn } from '../setup/oidc.js';

const SDK = join(import.meta.dirname, '..', '..', 'clients', 'typescript', 'src', 'index.ts');
let s: Awaited<ReturnType<typeof startServer>>;
let sdk: any;

beforeAll(async () => {
  s = await startServer();
  sdk = await import(SDK);
}, 60_000);
afterAll(() => s?.close());

describe('SDK auth', () => {
  it('a site acts for two of its users with client credentials and actAs', async () => {
    const tokenUrl = await sdk.discoverTokenEndpoint(`${s.url}/oidc`);
    const site = new sdk.LibertaliaClient({
      url: s.url,
      token: sdk.clientCredentials({ tokenUrl, clientId: 'dev-site', clientSecret: 'dev-site-secret' }),
    });
    expect((await site.request(sdk.MeDocument, {})).me).toMatchObject({ kind: 'CLIENT', clientId: 'dev-site' });
    const alice = new sdk.LibertaliaClient({ url: s.url, token: sdk.actingFor(site, 'sdk-alice', 'SDK Alice') });
    const bob = new sdk.LibertaliaClient({ url: s.url, token: sdk.actingFor(site, 'sdk-bob', 'SDK Bob') });
    const game = await alice.createGame({ edition: 'CLASSIC', seats: 3, bots: 1 });
    await bob.joinGame(game.id);
    const started = await alice.startGame(game.id);
    expect(started.status).toBe('ACTIVE');
    expect((await bob.request(sdk.MeDocument, {})).me).toMatchObject({
      kind: 'SITE_USER',
      name: 'SDK Bob',
      clientId: 'dev-site',
    });
  });

  it('a guest session, and an account renewed with its refresh token', async () => {
    const guest = new sdk.LibertaliaClient({ url: s.url });
    const session = await sdk.guestSession(guest, 'SDK Guest');
    expect((await guest.request(sdk.MeDocument, {})).me).toMatchObject({ kind: 'GUEST', playerId: session.playerId });

    const t = await signIn(s.url, 'sdk@example.test');
    const grants: string[] = [];
    const counting = (url: string, init: RequestInit) => {
      grants.push(new URLSearchParams(String(init.body)).get('grant_type')!);
      return fetch(url, init);
    };
    const player = new sdk.LibertaliaClient({
      url: s.url,
      // An access token already due: used once, then renewed with the refresh token.
      token: sdk.oidcTokens({
        tokenUrl: `${s.url}/oidc/token`,
        clientId: 'libertalia-web',
        refreshToken: t.refresh_token,
        accessToken: t.access_token,
        expiresAt: Date.now(),
        fetch: counting,
      }),
    });
    expect((await player.request(sdk.RegisterDocument, { name: 'SDK Account' }, { retry: false })).register.kind).toBe(
      'ACCOUNT',
    );
    expect(grants).toEqual([]);
    expect((await player.request(sdk.MeDocument, {})).me.name).toBe('SDK Account');
    expect(grants).toEqual(['refresh_token']);
    const { verifier, challenge } = await sdk.pkce();
    expect(verifier.length).toBeGreaterThanOrEqual(43);
    expect(
      sdk.authorizeUrl({
        authorizationEndpoint: `${s.url}/oidc/auth`,
        clientId: 'libertalia-web',
        redirectUri: `${s.url}/`,
        scope: 'openid',
        challenge,
        state: 'x',
      }),
    ).toContain('code_challenge_method=S256');
  });
});
