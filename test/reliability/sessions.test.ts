// Issue 23, finding 3: sessions outlived sign-out. Replayed against the real local server (real
// sockets, dynalite): after signOut an open graphql-ws connection answered `me` and applied
// `playCard`, an open /push kept sending the hand, linkGuest took a signed-out guest's old
// tokens, and a guest refresh token could be redeemed again and again. Each case asserts the
// typed answer and that nothing changed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { type LocalServer, startLocal } from '../../functions/local/server.js';
import { localDocumentClient } from '../../functions/local/dynalite.js';
import { CLOSE_SIGNED_OUT } from '../../functions/push/protocol.js';
import { pushStoreOf } from '../../functions/api/http/core.js';
import { refresh, signIn } from '../setup/oidc.js';

let s: LocalServer;
const tableName = `sessions-${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  s = await startLocal({ port: 0, dataDir: null, endpoint: inject('dynamoEndpoint'), tableName, sweepIntervalMs: 0 });
});
afterAll(() => s.close());

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const r = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await r.json()) as any;
}
async function ok(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const r = await gql(query, variables, token);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
}
const signUp = async (name: string) =>
  (await ok(`mutation($n: String!) { signUp(name: $n) { playerId token refreshToken } }`, { n: name })).signUp as {
    playerId: string;
    token: string;
    refreshToken: string;
  };
const GAME = `query($id: ID!) { game(id: $id) { version status me { hand } } }`;
const PLAY = `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`;

/** A guest in a started 2-seat game against a bot: its token, game id and hand. */
async function seated(name: string) {
  const g = await signUp(name);
  const id = (await ok(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, g.token))
    .createGame.id as string;
  await ok(`mutation($g: ID!) { startGame(gameId: $g) { status } }`, { g: id }, g.token);
  const game = (await ok(GAME, { id }, g.token)).game;
  return { ...g, gameId: id, version: game.version as number, hand: game.me.hand as number[] };
}

/** Messages of a socket, its close code, and a wait that re-checks at each arrival. */
function watch(ws: WebSocket) {
  const got: any[] = [];
  let closed: number | null = null;
  let wake: (() => void) | null = null;
  ws.on('message', (m) => {
    got.push(JSON.parse(String(m)));
    wake?.();
  });
  ws.on('close', (code) => {
    closed = code;
    wake?.();
  });
  ws.on('error', () => {});
  const until = async (pred: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!pred() && Date.now() < end) await new Promise<void>((r) => ((wake = r), setTimeout(r, 100)));
    return pred();
  };
  return { got, until, closed: () => closed };
}

async function opened(ws: WebSocket) {
  await new Promise<void>((res, fail) => {
    ws.once('open', () => res());
    ws.once('error', fail);
  });
}

/** A graphql-transport-ws connection with `token`, acknowledged. */
async function graphqlWs(token: string) {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const w = watch(ws);
  await opened(ws);
  ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await w.until(() => w.got.some((m) => m.type === 'connection_ack') || w.closed() !== null);
  let n = 0;
  /** One operation on the socket: its first answer (next or error), or null if the socket closed first. */
  const op = async (query: string, variables: Record<string, unknown> = {}) => {
    const id = `op${++n}`;
    ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
    await w.until(() => w.got.some((m) => m.id === id) || w.closed() !== null);
    return w.got.find((m) => m.id === id) ?? null;
  };
  return { ws, ...w, op };
}

async function pushWs(token: string) {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/push?token=${encodeURIComponent(token)}`);
  const w = watch(ws);
  await opened(ws);
  return { ws, ...w, send: (m: object) => ws.send(JSON.stringify(m)) };
}

/** A revocation made by another instance: the token version moves on, nobody here is told. */
async function revokedElsewhere(playerId: string) {
  await s.app.services.store.players.updatePlayer(playerId, {}, { bumpTokenVersion: true });
  s.app.services.players.forget(playerId);
}

/** The error codes of an operation's answer (an `error` message, or a `next` with errors). */
const codes = (r: any) =>
  (Array.isArray(r?.payload) ? r.payload : (r?.payload?.errors ?? [])).map((e: any) => e.extensions?.code);

describe('signOut ends the open graphql-ws connections', () => {
  it('the socket is closed (CLOSE_SIGNED_OUT); a new one with the old token is refused; the game is unchanged', async () => {
    const p = await seated('Sockets Anne');
    const conn = await graphqlWs(p.token);
    expect((await conn.op('{ me { playerId } }')).payload.data.me.playerId).toBe(p.playerId);
    expect(await ok('mutation { signOut }', {}, p.token)).toEqual({ signOut: true });
    expect(await conn.until(() => conn.closed() !== null)).toBe(true);
    expect(conn.closed()).toBe(CLOSE_SIGNED_OUT);

    const again = await graphqlWs(p.token);
    expect(codes(await again.op('{ me { playerId } }'))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await again.op(PLAY, { g: p.gameId, r: p.hand[0] }))).toEqual(['UNAUTHENTICATED']);
    again.ws.close();
    const after = await signUp('Sockets Witness');
    expect(
      (await ok(`query($id: ID!) { game(id: $id) { version } }`, { id: p.gameId }, after.token)).game.version,
    ).toBe(p.version);
  });

  it('revoked on another instance (nobody closes the socket): the next operation is UNAUTHENTICATED, playCard is not applied, and the socket is closed', async () => {
    const p = await seated('Sockets Mary');
    const conn = await graphqlWs(p.token);
    expect((await conn.op('{ me { playerId } }')).payload.data.me.playerId).toBe(p.playerId);
    await revokedElsewhere(p.playerId);
    expect(codes(await conn.op(PLAY, { g: p.gameId, r: p.hand[0] }))).toEqual(['UNAUTHENTICATED']);
    expect(await conn.until(() => conn.closed() !== null)).toBe(true);
    expect(conn.closed()).toBe(CLOSE_SIGNED_OUT);
    const witness = await signUp('Sockets Witness 2');
    expect(
      (await ok(`query($id: ID!) { game(id: $id) { version } }`, { id: p.gameId }, witness.token)).game.version,
    ).toBe(p.version);
  });
});

describe('signOut ends the open /push connections', () => {
  it('the socket is closed and no later version (with the hand) reaches it', async () => {
    const p = await seated('Push Anne');
    const push = await pushWs(p.token);
    push.send({ action: 'subscribe', gameId: p.gameId });
    expect(await push.until(() => push.got.some((m) => m.type === 'subscribed'))).toBe(true);
    expect(push.got.find((m) => m.type === 'subscribed').game.me.hand.length).toBeGreaterThan(0);
    expect(await ok('mutation { revokeTokens }', {}, p.token)).toEqual({ revokeTokens: true });
    expect(await push.until(() => push.closed() !== null)).toBe(true);
    expect(push.closed()).toBe(CLOSE_SIGNED_OUT);
    expect(push.got.filter((m) => m.type === 'game')).toEqual([]);
    // Nothing is left in the push store for the player: the next commit has no one to tell.
    expect(await pushStoreConnections(p.playerId)).toEqual([]);
  });

  it('revoked on another instance: the next message is answered UNAUTHENTICATED and the socket closed, without the game', async () => {
    const p = await seated('Push Mary');
    const push = await pushWs(p.token);
    push.send({ action: 'ping' });
    expect(await push.until(() => push.got.some((m) => m.type === 'pong'))).toBe(true);
    await revokedElsewhere(p.playerId);
    push.send({ action: 'subscribe', gameId: p.gameId });
    expect(await push.until(() => push.closed() !== null)).toBe(true);
    expect(push.got.filter((m) => m.type === 'error').map((m) => m.code)).toEqual(['UNAUTHENTICATED']);
    expect(push.got.some((m) => m.type === 'subscribed')).toBe(false);
  });
});

async function pushStoreConnections(playerId: string) {
  return pushStoreOf(localDocumentClient(inject('dynamoEndpoint')), tableName).connectionsOf(playerId);
}

describe('guest refresh tokens rotate with reuse detection', () => {
  const REFRESH = `mutation($t: String!) { refreshSession(refreshToken: $t) { token refreshToken } }`;
  it('a refresh token is redeemed once; redeeming it again revokes the whole family (every token of the guest), UNAUTHENTICATED', async () => {
    const g = await signUp('Refresh Jack');
    const first = (await ok(REFRESH, { t: g.refreshToken })).refreshSession;
    const second = (await ok(REFRESH, { t: first.refreshToken })).refreshSession;
    expect((await ok('{ me { playerId } }', {}, second.token)).me.playerId).toBe(g.playerId);
    const conn = await graphqlWs(second.token);

    const replay = await gql(REFRESH, { t: g.refreshToken });
    expect(replay.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
    expect(replay.data).toBeNull();
    // The thief's replay and the player's current tokens are all gone: the family is revoked.
    for (const t of [second.token, first.token, g.token])
      expect((await gql('{ me { playerId } }', {}, t)).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await gql(REFRESH, { t: second.refreshToken })).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(await conn.until(() => conn.closed() !== null)).toBe(true);
    expect(conn.closed()).toBe(CLOSE_SIGNED_OUT);
  });

  it('refreshes in a row, each with the newest token, all succeed', async () => {
    const g = await signUp('Refresh Anne');
    let t = g.refreshToken;
    for (let i = 0; i < 4; i++) t = (await ok(REFRESH, { t })).refreshSession.refreshToken;
    expect(typeof t).toBe('string');
  });
});

describe('linkGuest checks the token version', () => {
  const LINK = `mutation($t: String!) { linkGuest(guestToken: $t) { playerId kind } }`;
  for (const which of ['token', 'refreshToken'] as const) {
    it(`a signed-out guest's old ${which === 'token' ? 'access' : 'refresh'} token does not hand its games to a new account`, async () => {
      const p = await seated(`Link ${which}`);
      await ok('mutation { signOut }', {}, p.token);
      const account = (await signIn(s.url, `link-${which.toLowerCase()}-${randomUUID().slice(0, 6)}@example.test`))
        .access_token;
      const r = await gql(LINK, { t: p[which] }, account);
      expect(r.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
      // Unchanged: the account still has no player, the guest is still a guest with its game.
      expect((await ok('{ me { playerId kind } }', {}, account)).me.playerId).toBeNull();
      const rec = await s.app.services.store.players.getPlayer(p.playerId);
      expect(rec?.kind).toBe('guest');
    });
  }
});

describe('the local OpenID Provider ends sessions too, and keeps them in the store', () => {
  const REGISTER = `mutation($n: String!) { register(name: $n) { playerId } }`;

  it('after signOut the provider refresh token is refused (invalid_grant) and the API refuses the old access token', async () => {
    const email = `oidc-out-${randomUUID().slice(0, 6)}@example.test`;
    const t = await signIn(s.url, email);
    await ok(REGISTER, { n: `Out ${randomUUID().slice(0, 4)}` }, t.access_token);
    // Before: a refresh works (and rotates).
    const again = await refresh(s.url, t.refresh_token!);
    expect(again.refresh_token).toBeTruthy();
    await ok('mutation { signOut }', {}, again.access_token);
    await expect(refresh(s.url, again.refresh_token!)).rejects.toThrow(/invalid_grant/);
    expect((await gql('{ me { playerId } }', {}, again.access_token)).errors[0].extensions.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('a rotated provider refresh token used again is refused and revokes its grant (the current one too)', async () => {
    const t = await signIn(s.url, `oidc-reuse-${randomUUID().slice(0, 6)}@example.test`);
    const next = await refresh(s.url, t.refresh_token!);
    await expect(refresh(s.url, t.refresh_token!)).rejects.toThrow(/invalid_grant/);
    await expect(refresh(s.url, next.refresh_token!)).rejects.toThrow(/invalid_grant/);
  });

  it('2,500 anonymous GET /oidc/auth evict no signed-in user (answered 429 past the per-address cap)', async () => {
    const email = `oidc-flood-${randomUUID().slice(0, 6)}@example.test`;
    const t = await signIn(s.url, email);
    const q = new URLSearchParams({
      client_id: 'libertalia-web',
      response_type: 'code',
      redirect_uri: `${s.url}/`,
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const statuses = new Map<number, number>();
    for (let i = 0; i < 2500; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${s.url}/oidc/auth?${q}`, { redirect: 'manual' }).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      );
      for (const st of batch) statuses.set(st, (statuses.get(st) ?? 0) + 1);
    }
    expect(statuses.get(429)).toBeGreaterThan(2000);
    const fresh = await refresh(s.url, t.refresh_token!);
    expect(fresh.access_token).toBeTruthy();
  });
});

describe('the provider state survives a restart of the local server', () => {
  it('a refresh token issued before the restart is redeemed after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sessions-restart-'));
    const table = `restart-${randomUUID().slice(0, 8)}`;
    const opts = { dataDir, endpoint: inject('dynamoEndpoint'), tableName: table, sweepIntervalMs: 0 };
    const first = await startLocal({ ...opts, port: 0 });
    const port = Number(new URL(first.url).port);
    let t;
    try {
      t = await signIn(first.url, `restart-${randomUUID().slice(0, 6)}@example.test`);
    } finally {
      await first.close();
    }
    const second = await startLocal({ ...opts, port });
    try {
      const fresh = await refresh(second.url, t.refresh_token!);
      expect(fresh.access_token).toBeTruthy();
      expect(
        (
          (await fetch(`${second.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${fresh.access_token}` },
            body: JSON.stringify({ query: '{ me { kind } }' }),
          }).then((r) => r.json())) as any
        ).data.me.kind,
      ).toBe('ACCOUNT');
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
