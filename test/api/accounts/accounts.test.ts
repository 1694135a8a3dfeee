// Accounts and tokens through the API (Apollo in process, dynalite): provider tokens verified
// by JWKS, guests, refresh, revocation, names, linking a guest, integrators acting for users.
// The same flows against the real local OpenID Provider over HTTP: test/e2e/oidc.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../functions/api/accounts/auth.js';
import { nameKey, normaliseName } from '../../../functions/api/accounts/names.js';
import { codeOf, SIGNING_KEY, testApp } from '../../setup/app.js';
import { playToEnd } from '../../setup/play.js';
import { ownToken, testIssuer } from '../../setup/tokens.js';

let t: Awaited<ReturnType<typeof testApp>>;
let idp: Awaited<ReturnType<typeof testIssuer>>;
let other: Awaited<ReturnType<typeof testIssuer>>;

beforeAll(async () => {
  idp = await testIssuer('https://id.example.test', 'libertalia');
  other = await testIssuer('https://evil.example.test', 'libertalia');
  t = await testApp({ issuers: [idp.config] });
});
afterAll(() => t.close());

const ME = `{ me { playerId name kind issuer clientId } }`;
const REGISTER = `mutation($n: String!) { register(name: $n) { playerId name kind } }`;
const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { id creatorId seats { playerId name } } }`;
const JOIN = `mutation($g: ID!) { joinGame(gameId: $g) { id } }`;
const START = `mutation($g: ID!) { startGame(gameId: $g) { id status } }`;
const ACT_AS = `mutation($u: String!, $n: String) { actAs(user: $u, name: $n) { playerId name token refreshToken } }`;

let subjects = 0;
const newSubject = () => `user-${++subjects}-${Date.now()}`;

const siteToken = (clientId: string, scope = `${SCOPES.createGames} ${SCOPES.actForUsers}`) =>
  idp.token({ sub: clientId, client_id: clientId, scope });

async function account(name: string) {
  const sub = newSubject();
  const token = await idp.token({ sub, client_id: 'web' });
  const r = await t.gql(REGISTER, { n: name }, token);
  expect(r.errors).toBeUndefined();
  return { sub, token, playerId: r.data.register.playerId as string };
}

describe('provider access tokens', () => {
  it('a signed-in account chooses its name once, then plays; me tells who it is', async () => {
    const sub = newSubject();
    const token = await idp.token({ sub, client_id: 'web' });
    expect((await t.gql(ME, {}, token)).data.me).toMatchObject({
      playerId: null,
      kind: 'ACCOUNT',
      issuer: 'https://id.example.test',
      clientId: 'web',
    });
    expect(codeOf(await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, token))).toBe('FORBIDDEN');
    const r = await t.gql(REGISTER, { n: '  Anne\u0301  Bonny ' }, token);
    expect(r.data.register).toMatchObject({ name: 'Ann\u00e9 Bonny', kind: 'ACCOUNT' });
    expect(codeOf(await t.gql(REGISTER, { n: 'Other' }, token))).toBe('CONFLICT');
    const g = await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, token);
    expect(g.data.createGame.creatorId).toBe(r.data.register.playerId);
  });

  it('refuses another issuer, a wrong audience, an expired token, no scope, an ID token, no exp', async () => {
    const sub = newSubject();
    const q = `{ myGames { id } }`;
    expect(codeOf(await t.gql(q, {}, await other.token({ sub })))).toBe('UNAUTHENTICATED');
    // Signed by the right key but claiming another issuer's name: still not trusted.
    expect(codeOf(await t.gql(q, {}, await other.token({ sub, iss: 'https://id.example.test' })))).toBe(
      'UNAUTHENTICATED',
    );
    expect(codeOf(await t.gql(q, {}, await idp.token({ sub, aud: 'another-api' })))).toBe('UNAUTHENTICATED');
    const past = new Date(Date.now() - 3 * 3600_000);
    expect(codeOf(await t.gql(q, {}, await idp.token({ sub }, { now: past })))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(q, {}, await idp.token({ sub, scope: 'openid' })))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(q, {}, await idp.token({ sub, token_use: 'id' })))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(q, {}, await ownToken(SIGNING_KEY, { sub: 'x', ver: 0 }, { exp: null })))).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('the same player from two sessions (two devices); sign-out revokes both, a new sign-in works', async () => {
    const a = await account('Two Devices');
    const phone = await idp.token({ sub: a.sub, client_id: 'web', jti: 'phone' }, { now: new Date(Date.now() - 5000) });
    const desk = await idp.token({ sub: a.sub, client_id: 'web', jti: 'desk' }, { now: new Date(Date.now() - 4000) });
    const b = await account('Opponent');
    const g = (await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, phone)).data.createGame;
    expect(g.creatorId).toBe(a.playerId);
    expect((await t.gql(JOIN, { g: g.id }, b.token)).errors).toBeUndefined();
    expect((await t.gql(START, { g: g.id }, desk)).data.startGame.status).toBe('ACTIVE');
    expect((await t.gql(`{ me { playerId } }`, {}, desk)).data.me.playerId).toBe(a.playerId);
    expect((await t.gql(`mutation { signOut }`, {}, desk)).data.signOut).toBe(true);
    expect(codeOf(await t.gql(`{ myGames { id } }`, {}, phone))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(`{ myGames { id } }`, {}, desk))).toBe('UNAUTHENTICATED');
    const again = await idp.token({ sub: a.sub, client_id: 'web' }, { now: new Date(Date.now() + 2000) });
    expect((await t.gql(`{ myGames { id } }`, {}, again)).data.myGames.map((x: any) => x.id)).toContain(g.id);
  });
});

describe('names', () => {
  it('normalises, refuses control, bidi and bot-like names; account names are unique', async () => {
    for (const bad of [
      'Anne\u0000',
      'Be\u0007ll',
      'Mary \u202eReaD',
      'zero\u200bwidth',
      'Bot Kidd',
      'bot',
      'B0t Kidd',
      '\u0412\u043e\u0442 Kidd',
      'BOT-Read',
      '',
      ' ',
      'x'.repeat(41),
    ]) {
      expect(() => normaliseName(bad), JSON.stringify(bad)).toThrow();
      expect(
        codeOf(await t.gql(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: bad })),
        JSON.stringify(bad),
      ).toBe('BAD_USER_INPUT');
    }
    expect(normaliseName('  Botany   Bay ')).toBe('Botany Bay');
    expect(nameKey('jack  RACKHAM')).toBe(nameKey('Jack Rackham'));
    expect(nameKey('Jасk Rасkhаm')).toBe(nameKey('Jack Rackham'));
    await account('Jack Rackham');
    const sub = newSubject();
    const token = await idp.token({ sub });
    expect(codeOf(await t.gql(REGISTER, { n: 'jack rackham' }, token))).toBe('CONFLICT');
    expect(codeOf(await t.gql(REGISTER, { n: 'Jасk Rасkhаm' }, token))).toBe('CONFLICT'); // Cyrillic look-alikes
    expect(codeOf(await t.gql(`mutation { signUp(name: "Jack Rackham") { token } }`))).toBe('CONFLICT');
    // rename frees the old name
    const j = await account('Calico Jack');
    expect((await t.gql(`mutation { rename(name: "Calico John") { name } }`, {}, j.token)).data.rename.name).toBe(
      'Calico John',
    );
    expect((await t.gql(REGISTER, { n: 'Calico Jack' }, token)).data.register.name).toBe('Calico Jack');
  });

  // Issue 23, finding 6: look-alikes compared by their UTS #39 confusable skeleton (caseless).
  it('look-alikes of a held name are refused to guests, accounts and site users; the holder keeps it', async () => {
    const held = await account('Bonny Hook');
    const site = await siteToken('site-names');
    const lookAlikes = [
      'B\u0585nny Hook', // Armenian օ
      'Bo\u0578ny Hook', // Armenian ո
      'Bonny \u04bbook', // Cyrillic һ
      '\u0299onny Hook', // small capital ʙ
      'B\u1d0fnny Hook', // small capital ᴏ
      '\u13f4onny Hook', // Cherokee Ᏼ
      'BONNY hook',
      'B0nny-Hook',
    ];
    const sub = newSubject();
    const token = await idp.token({ sub });
    for (const n of lookAlikes) {
      expect(nameKey(n), n).toBe(nameKey('Bonny Hook'));
      expect(codeOf(await t.gql(`mutation($n: String!) { signUp(name: $n) { token } }`, { n })), n).toBe('CONFLICT');
      expect(codeOf(await t.gql(REGISTER, { n }, token)), n).toBe('CONFLICT');
      expect(codeOf(await t.gql(ACT_AS, { u: `u-${n}`, n }, site)), n).toBe('CONFLICT');
    }
    expect(nameKey('\u0251nne')).toBe(nameKey('anne')); // Latin ɑ
    // a filler in place of a space or at the end is refused outright
    for (const n of ['Bonny\u3164Hook', 'Bonny Hook\u3164'])
      expect(codeOf(await t.gql(`mutation($n: String!) { signUp(name: $n) { token } }`, { n })), n).toBe(
        'BAD_USER_INPUT',
      );
    // unchanged: the holder keeps the name, the refused account has no player yet
    expect((await t.gql(ME, {}, held.token)).data.me.name).toBe('Bonny Hook');
    expect((await t.gql(ME, {}, token)).data.me.playerId).toBeNull();
    // a site user's name is held against accounts too
    await t.gql(ACT_AS, { u: 'mary', n: 'Mary Read' }, site);
    expect(codeOf(await t.gql(REGISTER, { n: 'Mary Re\u0430d' }, token))).toBe('CONFLICT');
    // a guest may not take a bot's look-alike either
    for (const n of ['\u0299ot Kidd', '\u0412\u043e\u0442 Kidd', '\u13f4\u1d0fT'])
      expect(() => normaliseName(n), n).toThrow();
  });

  it('the skeleton keeps different names apart (no chained look-alikes)', () => {
    const names = [
      'Anne',
      'Anna',
      'Bill',
      'Jill',
      'Ned',
      'Ted',
      'Fred',
      'Yann',
      'Ryan',
      'Kidd',
      'Zoë',
      '李小龍',
      'Ольга',
      'Olga',
      'Eve',
      'Ewe',
    ];
    expect(new Set(names.map(nameKey)).size).toBe(names.length);
  });
});

describe('guests', () => {
  it('short access tokens with a version; refresh; revoke; unknown players refused', async () => {
    const r = await t.gql(`mutation { signUp(name: "Guest Gus") { playerId token refreshToken expiresAt } }`);
    const s = r.data.signUp;
    expect(new Date(s.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(3600_000 + 1000);
    expect((await t.gql(ME, {}, s.token)).data.me).toMatchObject({
      playerId: s.playerId,
      kind: 'GUEST',
      clientId: null,
    });
    const fresh = (
      await t.gql(`mutation($r: String!) { refreshSession(refreshToken: $r) { token refreshToken } }`, {
        r: s.refreshToken,
      })
    ).data.refreshSession;
    expect((await t.gql(ME, {}, fresh.token)).data.me.playerId).toBe(s.playerId);
    // a refresh token is not an access token
    expect(codeOf(await t.gql(ME, {}, s.refreshToken))).toBe('UNAUTHENTICATED');
    expect((await t.gql(`mutation { revokeTokens }`, {}, fresh.token)).data.revokeTokens).toBe(true);
    for (const tok of [s.token, fresh.token]) expect(codeOf(await t.gql(ME, {}, tok))).toBe('UNAUTHENTICATED');
    expect(
      codeOf(
        await t.gql(`mutation($r: String!) { refreshSession(refreshToken: $r) { token } }`, { r: fresh.refreshToken }),
      ),
    ).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(ME, {}, await ownToken(SIGNING_KEY, { sub: 'no-such-player', ver: 0 })))).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('a first-version token (no kid, no version, 180 days) still works until it expires or is revoked', async () => {
    const s = await t.signUp('Old Timer');
    const legacy = await ownToken(
      SIGNING_KEY,
      { sub: s.playerId, name: 'Old Timer' },
      { kid: null, exp: Math.floor(Date.now() / 1000) + 180 * 86400 },
    );
    expect((await t.gql(ME, {}, legacy)).data.me.playerId).toBe(s.playerId);
  });

  it('migration: an account takes over a guest and its games; the guest tokens stop', async () => {
    const guest = (await t.gql(`mutation { signUp(name: "Link Me") { playerId token refreshToken } }`)).data.signUp;
    const g = (await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1 } }, guest.token)).data.createGame;
    const sub = newSubject();
    const token = await idp.token({ sub, client_id: 'web' });
    const linked = await t.gql(
      `mutation($g: String!) { linkGuest(guestToken: $g) { playerId name kind } }`,
      { g: guest.refreshToken },
      token,
    );
    expect(linked.data.linkGuest).toEqual({ playerId: guest.playerId, name: 'Link Me', kind: 'ACCOUNT' });
    expect((await t.gql(`{ myGames { id } }`, {}, token)).data.myGames.map((x: any) => x.id)).toEqual([g.id]);
    expect(codeOf(await t.gql(ME, {}, guest.token))).toBe('UNAUTHENTICATED');
    // its name is now an account's
    expect(codeOf(await t.gql(`mutation { signUp(name: "link me") { token } }`))).toBe('CONFLICT');
  });
});

describe('integrators', () => {
  it('a site acts for two of its users: creates a game and plays it through; every event names the client', async () => {
    const site = await siteToken('site-a');
    expect((await t.gql(ME, {}, site)).data.me).toMatchObject({ kind: 'CLIENT', clientId: 'site-a', playerId: null });
    expect(codeOf(await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, site))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(ACT_AS, { u: 'alice' }, site))).toBe('BAD_USER_INPUT'); // a new user needs a name
    const alice = (await t.gql(ACT_AS, { u: 'alice', n: 'Alice' }, site)).data.actAs;
    const bob = (await t.gql(ACT_AS, { u: 'bob', n: 'Bob' }, site)).data.actAs;
    expect(alice.refreshToken).toBeNull();
    expect((await t.gql(ACT_AS, { u: 'alice' }, site)).data.actAs.playerId).toBe(alice.playerId);
    expect((await t.gql(ME, {}, alice.token)).data.me).toMatchObject({
      kind: 'SITE_USER',
      clientId: 'site-a',
      issuer: 'site:site-a',
      name: 'Alice',
    });
    const g = (await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 3, bots: 1 } }, alice.token)).data.createGame;
    expect((await t.gql(JOIN, { g: g.id }, bob.token)).errors).toBeUndefined();
    expect((await t.gql(START, { g: g.id }, alice.token)).data.startGame.status).toBe('ACTIVE');
    const { game } = await playToEnd(t.gql, g.id, [alice.token, bob.token, null], 7);
    expect(game.status).toBe('FINISHED');
    const events = (
      await t.gql(
        `query($g: ID!) { events(gameId: $g, limit: 100) { events { type actor { playerId clientId } } } }`,
        { g: g.id },
        alice.token,
      )
    ).data.events.events;
    expect(events.length).toBeGreaterThan(20);
    expect(events.filter((e: any) => e.actor?.clientId !== 'site-a')).toEqual([]);
    expect(new Set(events.map((e: any) => e.actor.playerId))).toEqual(new Set([alice.playerId, bob.playerId]));
  }, 120_000); // a whole game

  it("a client cannot act for another client's users, nor without its scopes", async () => {
    const a = await siteToken('site-b');
    const b = await siteToken('site-c');
    const aliceOfB = (await t.gql(ACT_AS, { u: 'alice', n: 'Alice of B' }, a)).data.actAs;
    const aliceOfC = (await t.gql(ACT_AS, { u: 'alice', n: 'Alice of C' }, b)).data.actAs;
    expect(aliceOfC.playerId).not.toBe(aliceOfB.playerId); // users are namespaced by the site
    const g = (await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1, spectators: false } }, aliceOfB.token))
      .data.createGame;
    await t.gql(START, { g: g.id }, aliceOfB.token);
    expect(codeOf(await t.gql(`query($g: ID!) { game(id: $g) { id } }`, { g: g.id }, aliceOfC.token))).toBe(
      'FORBIDDEN',
    );
    expect(
      codeOf(await t.gql(`mutation($g: ID!) { playCard(gameId: $g, rank: 1) { id } }`, { g: g.id }, aliceOfC.token)),
    ).toBe('FORBIDDEN');
    // a site user's own token cannot mint sessions; a client without users.act cannot either
    expect(codeOf(await t.gql(ACT_AS, { u: 'alice' }, aliceOfB.token))).toBe('FORBIDDEN');
    const readOnly = await siteToken('site-d', SCOPES.createGames);
    expect(codeOf(await t.gql(ACT_AS, { u: 'x', n: 'X' }, readOnly))).toBe('FORBIDDEN');
    // without games.create, its users may join but not create
    const joinOnly = await siteToken('site-e', SCOPES.actForUsers);
    const u = (await t.gql(ACT_AS, { u: 'u', n: 'U' }, joinOnly)).data.actAs;
    expect(codeOf(await t.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, u.token))).toBe('FORBIDDEN');
  });
});
