// Push on the local server (ws://.../push, functions/push/protocol.ts): a second client receives
// every version change of a game played over HTTP, as it would from the AWS WebSocket API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../setup/http.js';
import { GAME_FIELDS } from '../setup/app.js';
import { expectNoLeak, playToEnd } from '../setup/play.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** A push client: every message received, and a wait that re-checks on each arrival. */
async function pushClient(token?: string) {
  const ws = new WebSocket(`${s.url.replace('http', 'ws')}/push${token ? `?token=${encodeURIComponent(token)}` : ''}`);
  const seen: any[] = [];
  let closed: number | null = null;
  let wake: (() => void) | null = null;
  ws.on('message', (d) => {
    seen.push(JSON.parse(d.toString()));
    wake?.();
  });
  ws.on('close', (code) => {
    closed = code;
    wake?.();
  });
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  const until = async (pred: () => boolean) => {
    while (!pred()) await new Promise<void>((r) => (wake = r));
  };
  return { ws, seen, until, closed: () => closed, send: (m: object) => ws.send(JSON.stringify(m)) };
}

describe('push (local server)', () => {
  it('tells a second client every version of a game played to the end over HTTP', async () => {
    const [a, b] = await Promise.all([s.signUp('Push Anne'), s.signUp('Push Mary')]);
    const id = (
      await s.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "push" }) { id } }`, {}, a.token)
    ).data.createGame.id;
    await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    const watcher = await pushClient(b.token);
    watcher.send({ action: 'subscribe', gameId: id });
    await watcher.until(() => watcher.seen.some((m) => m.type === 'subscribed'));
    const from = watcher.seen.find((m) => m.type === 'subscribed');
    expect(from).toMatchObject({ gameId: id, status: 'LOBBY' });
    await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
    const { game } = await playToEnd(s.gql, id, [a.token, b.token], 7);
    const final = (await s.gql(`query($g: ID!) { game(id: $g) { version status } }`, { g: id }, a.token)).data.game;
    expect(final.status).toBe('FINISHED');
    await watcher.until(() => watcher.seen.some((m) => m.type === 'game' && m.version === final.version));
    const versions = watcher.seen.filter((m) => m.type === 'game').map((m) => m.version);
    // Versions after the subscription, each once, in order, up to the last one; commits made while
    // a fan-out of the game was running are coalesced into one push of the latest version.
    expect(versions.length).toBeGreaterThan(0);
    expect(versions[0]).toBeGreaterThan(from.version);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]);
    expect(versions.at(-1)).toBe(final.version);
    expect(watcher.seen.at(-1)).toMatchObject({ type: 'game', gameId: id, version: final.version, status: 'FINISHED' });
    expect(game.status).toBe('FINISHED');
    watcher.ws.close();
  });

  it('refuses a bad token, keeps private games private, answers ping and unknown actions', async () => {
    const bad = await pushClient('not-a-token');
    await bad.until(() => bad.closed() !== null);
    expect(bad.closed()).toBe(4401);

    const a = await s.signUp('Push Private');
    const id = (
      await s.gql(
        `mutation { createGame(input: { edition: CLASSIC, seats: 2, spectators: false }) { id } }`,
        {},
        a.token,
      )
    ).data.createGame.id;
    const stranger = await pushClient();
    stranger.send({ action: 'subscribe', gameId: id });
    stranger.send({ action: 'ping' });
    stranger.send({ action: 'dance' });
    stranger.send({ action: 'subscribe', gameId: 'no-such-game' });
    await stranger.until(() => stranger.seen.length >= 4);
    // Messages are handled concurrently (as on API Gateway): the answers may come in any order.
    expect(stranger.seen).toHaveLength(4);
    expect(stranger.seen).toEqual(
      expect.arrayContaining([
        { type: 'error', code: 'FORBIDDEN', message: expect.any(String), gameId: id },
        { type: 'pong' },
        { type: 'error', code: 'BAD_USER_INPUT', message: expect.any(String) },
        { type: 'error', code: 'NOT_FOUND', message: expect.any(String), gameId: 'no-such-game' },
      ]),
    );
    // The stranger is not subscribed: a move by the owner pushes nothing to it.
    const owner = await pushClient(a.token);
    owner.send({ action: 'subscribe', gameId: id });
    await owner.until(() => owner.seen.some((m) => m.type === 'subscribed'));
    await s.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: id }, a.token).catch(() => undefined);
    stranger.send({ action: 'ping' });
    await stranger.until(() => stranger.seen.length >= 5);
    expect(stranger.seen[4]).toEqual({ type: 'pong' });
    stranger.ws.close();
    owner.ws.close();
  });
  it('each push carries the game as that connection may see it, and nothing more (non-interference: what the `game` query answers it)', async () => {
    const [a, b] = await Promise.all([s.signUp('View Anne'), s.signUp('View Mary')]);
    const id = (
      await s.gql(
        `mutation { createGame(input: { edition: CLASSIC, seats: 3, bots: 1, seed: "push views" }) { id } }`,
        {},
        a.token,
      )
    ).data.createGame.id;
    await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    const watchers = [await pushClient(a.token), await pushClient(b.token), await pushClient()];
    for (const w of watchers) w.send({ action: 'subscribe', gameId: id });
    for (const w of watchers) await w.until(() => w.seen.some((m) => m.type === 'subscribed'));
    await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
    // After each move, every watcher's newest view equals what `game` answers that caller now.
    const tokens = [a.token, b.token, undefined];
    const gql: typeof s.gql = async (q, v, t) => {
      const r = await s.gql(q, v, t);
      if (!/playCard|answerPrompt/.test(q)) return r;
      const version = (await s.gql(`query($g: ID!) { game(id: $g) { version } }`, { g: id }, a.token)).data.game
        .version;
      for (const [i, w] of watchers.entries()) {
        await w.until(() => w.seen.some((m) => m.type === 'game' && m.version === version));
        const pushed = w.seen.find((m) => m.type === 'game' && m.version === version).game;
        const asked = (await s.gql(`query($g: ID!) { game(id: $g) { ${GAME_FIELDS} } }`, { g: id }, tokens[i])).data
          .game;
        expect(asked.version).toBe(version);
        expect(pushed).toMatchObject(asked);
        expectNoLeak(pushed, i === 2 ? null : i);
      }
      return r;
    };
    const { game } = await playToEnd(gql, id, [a.token, b.token, null], 9);
    expect(game.status).toBe('FINISHED');
    for (const w of watchers) {
      const views = w.seen.filter((m) => m.type === 'game' || m.type === 'subscribed').map((m) => m.game);
      expect(views.every((g) => g && typeof g === 'object')).toBe(true);
      // A spectator's views never hold a hand, a choice or a prompt; a seat's only its own.
      for (const g of views) expect(JSON.stringify(g.seats)).not.toMatch(/"hand"|"choice"/);
      w.ws.close();
    }
    expect(watchers[2].seen.filter((m) => m.game).every((m) => m.game.me === null)).toBe(true);
    expect(watchers[0].seen.filter((m) => m.type === 'game').every((m) => m.game.me.seat === 0)).toBe(true);
    expect(watchers[1].seen.filter((m) => m.type === 'game').every((m) => m.game.me.seat === 1)).toBe(true);
  });
});
