// The SDK's watchGame (clients/typescript/src/watch.ts) against the local server: push where it
// is offered (the /push endpoint, the same protocol as the AWS WebSocket API), polling with the
// documented intervals and back-off otherwise.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../setup/http.js';
import { playToEnd } from '../setup/play.js';

const SDK = join(import.meta.dirname, '..', '..', 'clients', 'typescript');
let sdk: any;
let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  sdk = await import(join(SDK, 'src', 'index.ts'));
  s = await startServer();
}, 60_000);
afterAll(() => s?.close());

/** A fetch that counts GraphQL operations by their first field. */
function countingFetch() {
  const ops: string[] = [];
  const f: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { query?: string };
    ops.push(
      /query GameVersion/.test(body.query ?? '') ? 'version' : /query Game\b/.test(body.query ?? '') ? 'game' : 'other',
    );
    return fetch(input, init);
  };
  return { ops, fetch: f };
}

async function twoSeatGame() {
  const [anne, mary] = await Promise.all([s.signUp('Watch Anne'), s.signUp('Watch Mary')]);
  const id = (await s.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, anne.token)).data
    .createGame.id;
  expect(
    (await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, mary.token)).errors,
  ).toBeUndefined();
  expect(
    (await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, anne.token)).errors,
  ).toBeUndefined();
  return { anne, mary, id };
}

const until = async (pred: () => boolean, ms = 20_000) => {
  for (const t0 = Date.now(); !pred(); ) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('watchGame', () => {
  it('with push: follows a whole game to the end without a single poll or fetch: the views come with the pushes', async () => {
    const { anne, mary, id } = await twoSeatGame();
    const counter = countingFetch();
    const client = new sdk.LibertaliaClient({
      url: s.url,
      token: mary.token,
      fetch: counter.fetch,
      webSocketImpl: WebSocket,
    });
    const versions: number[] = [];
    let lastGame: any = null;
    const errors: unknown[] = [];
    const watch = client.watchGame(
      id,
      (g: any) => {
        versions.push(g.version);
        lastGame = g;
      },
      { onError: (e: unknown) => errors.push(e) },
    );
    await until(() => watch.pushing());
    const { game } = await playToEnd(s.gql, id, [anne.token, mary.token], 3);
    const final = (await s.gql(`query($id: ID!) { game(id: $id) { version } }`, { id }, mary.token)).data.game.version;
    await until(() => lastGame?.version === final);
    expect(lastGame.status).toBe('FINISHED');
    expect(game.status).toBe('FINISHED');
    // Views only move forward, and are Mary's own (her seat's `me`).
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(lastGame.me.seat).toBe(1);
    expect(counter.ops.filter((o) => o === 'version')).toEqual([]);
    // The views came with the pushes: one fetch at the start, none after.
    expect(counter.ops.filter((o) => o === 'game').length).toBe(1);
    expect(versions.length).toBeGreaterThan(final / 2);
    expect(errors).toEqual([]);
    watch.stop();
  });

  it('without push: polls `game { version }` and fetches the game only when it moved; stops when the game is over', async () => {
    const { anne, mary, id } = await twoSeatGame();
    const counter = countingFetch();
    const client = new sdk.LibertaliaClient({ url: s.url, token: mary.token, fetch: counter.fetch });
    let lastGame: any = null;
    const watch = client.watchGame(id, (g: any) => (lastGame = g), {
      pushUrl: null,
      intervals: { yourTurnMs: 15, othersMs: 15, correspondenceMs: 15 },
    });
    await until(() => lastGame !== null);
    expect(watch.pushing()).toBe(false);
    await until(() => counter.ops.filter((o) => o === 'version').length >= 3);
    const idle = counter.ops.filter((o) => o === 'game').length;
    expect(idle).toBe(1); // polls while nothing changes fetch nothing more
    await playToEnd(s.gql, id, [anne.token, mary.token], 4);
    await until(() => lastGame.status === 'FINISHED');
    const polls = counter.ops.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(counter.ops.length).toBe(polls); // over: no more polls
    watch.stop();
  });

  it('a push endpoint that cannot be reached falls back to polling', async () => {
    const { mary, id } = await twoSeatGame();
    const client = new sdk.LibertaliaClient({ url: s.url, token: mary.token, webSocketImpl: WebSocket });
    let lastGame: any = null;
    const watch = client.watchGame(id, (g: any) => (lastGame = g), {
      pushUrl: 'ws://127.0.0.1:9/push',
      intervals: { yourTurnMs: 15, othersMs: 15 },
      onError: () => {},
    });
    await until(() => lastGame !== null);
    const v0 = lastGame.version;
    const me = lastGame.me;
    expect(
      (
        await s.gql(
          `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }`,
          { g: id, r: me.hand[0] },
          mary.token,
        )
      ).errors,
    ).toBeUndefined();
    await until(() => lastGame.version > v0);
    expect(watch.pushing()).toBe(false);
    watch.stop();
  });

  it('poll intervals: 2 s on your turn or a bot’s, 10 s while others play, 60 s in correspondence games, none when over', () => {
    const seats = [
      { seat: 0, isBot: false },
      { seat: 1, isBot: false },
      { seat: 2, isBot: true },
    ];
    const g = (awaiting: number[], over: Record<string, unknown> = {}) => ({
      status: 'ACTIVE',
      awaiting,
      decisionTimeLimitHours: null,
      me: { seat: 0 },
      seats,
      ...over,
    });
    expect(sdk.POLL_INTERVALS).toEqual({
      yourTurnMs: 2_000,
      othersMs: 10_000,
      correspondenceMs: 60_000,
      maxBackoffMs: 60_000,
    });
    expect(sdk.pollInterval(g([0, 1]))).toBe(2_000);
    expect(sdk.pollInterval(g([2]))).toBe(2_000);
    expect(sdk.pollInterval(g([1]))).toBe(10_000);
    expect(sdk.pollInterval(g([1], { decisionTimeLimitHours: 24 }))).toBe(60_000);
    expect(sdk.pollInterval(g([1], { me: null }))).toBe(10_000);
    expect(sdk.pollInterval(g([], { status: 'FINISHED' }))).toBeNull();
  });

  it('after errors the poll interval doubles, up to the maximum', async () => {
    const at: number[] = [];
    let first = true;
    const fake = {
      request: async (doc: any) => {
        if (first) {
          first = false;
          return {
            game: {
              id: 'g',
              version: 1,
              status: 'ACTIVE',
              awaiting: [1],
              decisionTimeLimitHours: null,
              me: { seat: 0 },
              seats: [],
            },
          };
        }
        at.push(performance.now());
        throw new Error(`down (${String(doc).slice(0, 10)})`);
      },
    };
    const watch = sdk.watchGame(
      fake,
      'http://unused',
      async () => null,
      'g',
      () => {},
      { pushUrl: null, intervals: { othersMs: 10, maxBackoffMs: 80 }, onError: () => {} },
    );
    await until(() => at.length >= 6, 5_000);
    watch.stop();
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    // 20, 40, 80, 80, 80 (timers fire no earlier than asked)
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[1]).toBeGreaterThanOrEqual(39);
    for (const gap of gaps.slice(2)) expect(gap).toBeGreaterThanOrEqual(79);
    expect(Math.min(...gaps.slice(2))).toBeLessThan(400);
  });

  it('followGame with pushedViews: false (the web client): each push only says which version to fetch, and nothing polls', async () => {
    const { anne, mary, id } = await twoSeatGame();
    const calls = { game: 0, version: 0 };
    const source = {
      game: async () => {
        calls.game++;
        return (
          await s.gql(
            `query($id: ID!) { game(id: $id) { version status awaiting decisionTimeLimitHours me { seat hand } seats { seat isBot } } }`,
            { id },
            mary.token,
          )
        ).data.game;
      },
      version: async () => {
        calls.version++;
        return (await s.gql(`query($id: ID!) { game(id: $id) { version } }`, { id }, mary.token)).data.game.version;
      },
    };
    const seen: number[] = [];
    const pushing: boolean[] = [];
    const watch = sdk.followGame(id, source, (g: any) => seen.push(g.version), {
      pushUrl: `${s.url.replace(/^http/, 'ws')}/push`,
      token: () => mary.token,
      webSocketImpl: WebSocket,
      pushedViews: false,
      onPushing: (p: boolean) => pushing.push(p),
      intervals: { yourTurnMs: 5, othersMs: 5, correspondenceMs: 5 },
    });
    await until(() => watch.pushing());
    expect(pushing).toEqual([true]);
    const fetchedAtOpen = calls.game;
    await new Promise((r) => setTimeout(r, 50)); // a poll sent before the socket opened may still be answering
    const pollsAtOpen = calls.version;
    const { game } = await playToEnd(s.gql, id, [anne.token, mary.token], 1);
    const final = (await s.gql(`query($id: ID!) { game(id: $id) { version } }`, { id }, mary.token)).data.game.version;
    await until(() => seen[seen.length - 1] === final);
    expect(game.status).toBe('FINISHED');
    // Polling every 5 ms would have shown here: push carried every change.
    expect(calls.version).toBe(pollsAtOpen);
    expect(calls.game).toBeGreaterThan(fetchedAtOpen);
    expect(seen).toEqual([...new Set(seen)].sort((a, b) => a - b));
    watch.stop();
  });

  it('in a hidden browser page polling pauses, and checks at once when the page shows again', async () => {
    const listeners: (() => void)[] = [];
    const doc = {
      hidden: true,
      addEventListener: (_: string, f: () => void) => listeners.push(f),
      removeEventListener: () => listeners.splice(0),
    };
    (globalThis as any).document = doc;
    try {
      let versionCalls = 0;
      const source = {
        game: async () => ({
          id: 'g',
          version: 1,
          status: 'ACTIVE',
          awaiting: [1],
          decisionTimeLimitHours: null,
          me: { seat: 0 },
          seats: [],
        }),
        version: async () => {
          versionCalls++;
          return 1;
        },
      };
      const watch = sdk.followGame('g', source, () => {}, {
        pushUrl: null,
        token: () => null,
        intervals: { othersMs: 5 },
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(versionCalls).toBe(0);
      doc.hidden = false;
      for (const f of listeners) f();
      await until(() => versionCalls >= 1, 1_000);
      await until(() => versionCalls >= 3, 2_000); // and goes on polling while shown
      watch.stop();
      expect(listeners).toEqual([]);
    } finally {
      delete (globalThis as any).document;
    }
  });
});
