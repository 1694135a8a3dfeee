// Sign-in end to end: the real local server with its OpenID Provider (oidc-provider), real HTTP,
// dynalite. Authorization code + PKCE for players, client credentials for integrator sites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, GAME_FIELDS } from '../setup/app.js';
import { startServer } from '../setup/http.js';
import { authorize, exchange, refresh, signIn, siteToken } from '../setup/oidc.js';
import { playToEnd } from '../setup/play.js';

let s: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;

beforeAll(async () => {
  [s, other] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([s?.close(), other?.close()]);
});

const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { id creatorId } }`;
const ACT_AS = `mutation($u: String!, $n: String) { actAs(user: $u, name: $n) { playerId token } }`;

describe('the local OpenID Provider', () => {
  it('authorization code + PKCE: sign in, choose a name once, play; the discovery document says S256', async () => {
    const disco = (await (await fetch(`${s.url}/oidc/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(disco.issuer).toBe(`${s.url}/oidc`);
    expect(disco.code_challenge_methods_supported).toEqual(['S256']);
    const config = (await s.gql(`{ authConfig { issuer clientId scope guests } }`)).data.authConfig;
    expect(config).toMatchObject({ issuer: `${s.url}/oidc`, clientId: 'libertalia-web', guests: true });
    expect(config.scope).toContain('libertalia/play');

    const tokens = await signIn(s.url, 'anne@example.test');
    expect(tokens.refresh_token).toBeTruthy();
    expect((await s.gql(`{ me { playerId kind issuer clientId } }`, {}, tokens.access_token)).data.me).toEqual({
      playerId: null,
      kind: 'ACCOUNT',
      issuer: `${s.url}/oidc`,
      clientId: 'libertalia-web',
    });
    const reg = await s.gql(`mutation { register(name: "Anne Bonny") { playerId name } }`, {}, tokens.access_token);
    expect(reg.data.register.name).toBe('Anne Bonny');
    const g = await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1 } }, tokens.access_token);
    expect(g.data.createGame.creatorId).toBe(reg.data.register.playerId);
  });

  it('refuses a flow without PKCE and a code with the wrong verifier', async () => {
    await expect(authorize(s.url, 'mary@example.test', undefined, false)).rejects.toThrow(/invalid_request/);
    const { code } = await authorize(s.url, 'mary@example.test');
    await expect(exchange(s.url, code, 'x'.repeat(43))).rejects.toThrow(/invalid_grant/);
    await expect(signIn(s.url, 'mary@example.test', { password: 'wrong' })).rejects.toThrow(/refused|stopped/);
  });

  it('refuses a token of another issuer, an ID token (wrong audience) and a revoked token', async () => {
    const foreign = await signIn(other.url, 'anne@example.test');
    expect(codeOf(await s.gql(`{ me { kind } }`, {}, foreign.access_token))).toBe('UNAUTHENTICATED');
    const mine = await signIn(s.url, 'jack@example.test');
    expect(codeOf(await s.gql(`{ me { kind } }`, {}, mine.id_token))).toBe('UNAUTHENTICATED');
    await s.gql(`mutation { register(name: "Jack Rackham") { playerId } }`, {}, mine.access_token);
    expect((await s.gql(`mutation { signOut }`, {}, mine.access_token)).data.signOut).toBe(true);
    expect(codeOf(await s.gql(`{ myGames { id } }`, {}, mine.access_token))).toBe('UNAUTHENTICATED');
  });

  it('the same player plays from two sessions (phone and desktop), and a refreshed token keeps working', async () => {
    const phone = await signIn(s.url, 'calico@example.test');
    const desk = await signIn(s.url, 'calico@example.test');
    expect(desk.access_token).not.toBe(phone.access_token);
    const me = (await s.gql(`mutation { register(name: "Calico Jack") { playerId } }`, {}, phone.access_token)).data
      .register.playerId;
    expect((await s.gql(`{ me { playerId } }`, {}, desk.access_token)).data.me.playerId).toBe(me);
    const g = (await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1 } }, phone.access_token)).data
      .createGame;
    const started = await s.gql(
      `mutation($g: ID!) { startGame(gameId: $g) { ${GAME_FIELDS} } }`,
      { g: g.id },
      desk.access_token,
    );
    expect(started.data.startGame.status).toBe('ACTIVE');
    const hand = started.data.startGame.me.hand;
    const played = await s.gql(
      `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { me { choice } } }`,
      { g: g.id, r: hand[0] },
      phone.access_token,
    );
    expect(played.errors).toBeUndefined();
    const renewed = await refresh(s.url, desk.refresh_token!);
    const seen = await s.gql(`query($g: ID!) { game(id: $g) { me { seat } } }`, { g: g.id }, renewed.access_token);
    expect(seen.data.game.me.seat).toBe(0);
  });
});

describe('integrator sites (client credentials)', () => {
  it('a site creates a game for two of its users and they play it through; events and the log name the site', async () => {
    const site = (await siteToken(s.url, 0)).access_token;
    const alice = (await s.gql(ACT_AS, { u: 'alice', n: 'Alice' }, site)).data.actAs;
    const bob = (await s.gql(ACT_AS, { u: 'bob', n: 'Bob' }, site)).data.actAs;
    const g = (await s.gql(CREATE, { i: { edition: 'GALECREST', seats: 2 } }, alice.token)).data.createGame;
    expect(
      (await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: g.id }, bob.token)).errors,
    ).toBeUndefined();
    expect(
      (await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { status } }`, { g: g.id }, alice.token)).data.startGame
        .status,
    ).toBe('ACTIVE');
    const { game } = await playToEnd(s.gql, g.id, [alice.token, bob.token], 3);
    expect(game.status).toBe('FINISHED');
    const log = (
      await s.gql(
        `query($g: ID!) { events(gameId: $g, after: 0, limit: 100) { events { actor { clientId } } } }`,
        { g: g.id },
        bob.token,
      )
    ).data.events.events;
    expect(new Set(log.map((e: any) => e.actor?.clientId))).toEqual(new Set(['dev-site']));
  }, 120_000); // a whole game over HTTP

  it("another site cannot act for the first site's users", async () => {
    const first = (await siteToken(s.url, 0)).access_token;
    const second = (await siteToken(s.url, 1)).access_token;
    const alice = (await s.gql(ACT_AS, { u: 'alice-2', n: 'Alice Two' }, first)).data.actAs;
    const g = (await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1, spectators: false } }, alice.token))
      .data.createGame;
    // same user id at another site, another player; the name is held (one namespace for all sites)
    expect(codeOf(await s.gql(ACT_AS, { u: 'alice-2', n: 'Alice Two' }, second))).toBe('CONFLICT');
    const impostor = (await s.gql(ACT_AS, { u: 'alice-2', n: 'Alice of Site Two' }, second)).data.actAs;
    expect(impostor.playerId).not.toBe(alice.playerId);
    expect(codeOf(await s.gql(`query($g: ID!) { game(id: $g) { id } }`, { g: g.id }, impostor.token))).toBe(
      'FORBIDDEN',
    );
    expect(codeOf(await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: g.id }, impostor.token))).toBe(
      'FORBIDDEN',
    );
  });
});
