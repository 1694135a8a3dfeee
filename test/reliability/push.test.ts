// Issue 23, "channels nobody can stall": the /push findings replayed against the local server as
// `npm start` runs it (service rate limits on).
// - A socket that stops reading filled its buffers and the commit waited for the fan-out: moves
//   were written but never answered. Now the fan-out is off the move's path and a socket with
//   more than PUSH_LIMITS.sendQueueBytes unsent is closed (CLOSE_SLOW).
// - 3,000 small /push messages from one anonymous socket queued the shared DynamoDB client; /push
//   answers were not counted as reads. Now every message takes a read token (RATE_LIMITED past
//   the bucket), a connection's messages are handled one at a time, and loads are shared.
// - A player who left a private game kept receiving it. Now access is checked at every push.
// Honest players keep moving and reading in idle and attack windows, interleaved: every answer
// must come (each well under the old stall), and p95 attack/idle is printed; asserted <= 2x in
// `npm run stress` (STRESS=1) or with FLOOD_RATIO=1, as in flood.test.ts (too few samples a side
// in CI on a shared 2-core machine to hold a ratio steady).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { RATES, type RateConfig } from '../../functions/api/http/ratelimit.js';
import { type LocalServer, startLocal } from '../../functions/local/server.js';
import { CLOSE_SLOW, PUSH_LIMITS } from '../../functions/push/protocol.js';
import { sendBounded } from '../../functions/local/push.js';
import { boundSends } from '../../functions/local/subscriptions.js';
import { size, timeout } from './harness.js';

// CI: one idle and one attack window of 8 samples each (the stress size: 8 rounds of 30). In CI
// the windows check that every honest answer comes (under HARD_BOUND_MS) and that the attacks
// get their typed answers; more rounds only steady the p95 ratio, asserted under STRESS=1.
const ROUNDS = size(1, 8);
const PER_WINDOW = size(8, 30);
const NOISE_FLOOR_MS = 5;
const ASSERT_RATIO = process.env.STRESS === '1' || process.env.FLOOD_RATIO === '1';
/** No honest answer may take this long (the stall this replays never answered at all). */
const HARD_BOUND_MS = 5000;

/** The attacker in its own process at a lower priority (flooder.mjs); `last()`: its latest stats line. */
function flooder(mode: string, url: string, rate: number, gameId: string): { child: ChildProcess; last: () => any } {
  const child = spawn(
    'nice',
    [
      '-n',
      '10',
      process.execPath,
      fileURLToPath(new URL('./flooder.mjs', import.meta.url)),
      mode,
      url,
      '',
      String(rate),
      gameId,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let last: any = null;
  child.stdout!.on('data', (b: Buffer) => {
    const lines = String(b).trim().split('\n');
    try {
      last = JSON.parse(lines[lines.length - 1]);
    } catch {
      /* a partial line */
    }
  });
  return { child, last: () => last };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function server(rateLimits?: RateConfig): Promise<LocalServer> {
  return startLocal({
    port: 0,
    dataDir: null,
    endpoint: inject('dynamoEndpoint'),
    tableName: `push-${randomUUID().slice(0, 8)}`,
    sweepIntervalMs: 0,
    oidc: false,
    ...(rateLimits === undefined ? {} : { rateLimits }),
  });
}

function client(s: LocalServer) {
  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const r = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  const ok = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const r = await gql(query, variables, token);
    if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
    return r.body.data;
  };
  const signUp = async (name: string) =>
    (await ok(`mutation($n: String!) { signUp(name: $n) { playerId token } }`, { n: name })).signUp as {
      playerId: string;
      token: string;
    };
  return { gql, ok, signUp };
}

/** A /push client: messages received, close code, and a wait that re-checks on each arrival. */
async function pushClient(s: LocalServer, token?: string) {
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
  ws.on('error', () => {});
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  const until = async (pred: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!pred() && Date.now() < end) await new Promise<void>((r) => ((wake = r), setTimeout(r, 100)));
    return pred();
  };
  return {
    ws,
    seen,
    until,
    closed: () => closed,
    send: (m: object | string) => ws.send(typeof m === 'string' ? m : JSON.stringify(m)),
  };
}

const GAME = `query($id: ID!) { game(id: $id) { id version status me { hand prompts { id options { id } } } } }`;
const PLAY = `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`;
const ANSWER = `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { version } }`;

/**
 * Honest players, each in a game against a bot; each sample is one player's read (`game` with
 * their hand) and one move (a card or a prompt's first option), timed apart. A finished game is
 * replaced by a new one.
 */
async function honestPlayers(s: LocalServer, tag: string, n: number) {
  const c = client(s);
  const newGame = async (token: string) => {
    const id = (await c.ok(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, token))
      .createGame.id as string;
    await c.ok(`mutation($g: ID!) { startGame(gameId: $g) { status } }`, { g: id }, token);
    return id;
  };
  const players: { token: string; id: string }[] = [];
  for (let i = 0; i < n; i++) {
    const { token } = await c.signUp(`Honest ${tag} ${i}`);
    players.push({ token, id: await newGame(token) });
  }
  return {
    get games() {
      return players.map((p) => p.id);
    },
    async sample(i: number, reads: number[], moves: number[]) {
      const p = players[i % players.length];
      let t0 = performance.now();
      const r = await c.gql(GAME, { id: p.id }, p.token);
      reads.push(performance.now() - t0);
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      const g = r.body.data.game;
      if (g.status === 'FINISHED') {
        p.id = await newGame(p.token);
        return;
      }
      const prompt = g.me.prompts[0];
      t0 = performance.now();
      const m = prompt
        ? await c.gql(ANSWER, { g: p.id, p: prompt.id, o: prompt.options[0].id }, p.token)
        : await c.gql(PLAY, { g: p.id, r: g.me.hand[0] }, p.token);
      moves.push(performance.now() - t0);
      expect(m.body.errors, JSON.stringify(m.body.errors)).toBeUndefined();
    },
  };
}

interface Measured {
  idle: number;
  attack: number;
  ratio: number;
  samples: number;
  max: number;
}

/** Honest samples in idle and attack windows, interleaved (`on`/`off` switch the attack). */
async function measure(
  honest: Awaited<ReturnType<typeof honestPlayers>>,
  on: () => void | Promise<void>,
  off: () => void,
): Promise<{ reads: Measured; moves: Measured }> {
  const w = {
    idle: { reads: [] as number[], moves: [] as number[] },
    attack: { reads: [] as number[], moves: [] as number[] },
  };
  let n = 0;
  const sample = async (into: { reads: number[]; moves: number[] }) => {
    for (let i = 0; i < PER_WINDOW; i++) {
      await honest.sample(n++, into.reads, into.moves);
      await pause(60);
    }
  };
  for (let r = 0; r < ROUNDS; r++) {
    await sample(w.idle);
    await on();
    await pause(200);
    await sample(w.attack);
    off();
    await pause(200);
  }
  const m = (k: 'reads' | 'moves'): Measured => {
    const idle = p95(w.idle[k]);
    const attack = p95(w.attack[k]);
    return {
      idle,
      attack,
      ratio: Math.round((attack / Math.max(idle, NOISE_FLOOR_MS)) * 100) / 100,
      samples: w.idle[k].length,
      max: Math.max(...w.idle[k], ...w.attack[k]),
    };
  };
  return { reads: m('reads'), moves: m('moves') };
}

function within2x(what: string, m: Measured) {
  expect(m.max, `${what}: an honest answer took ${m.max.toFixed(0)} ms`).toBeLessThan(HARD_BOUND_MS);
  if (ASSERT_RATIO)
    expect(m.attack, `${what}: p95 ${m.attack.toFixed(1)} ms vs idle ${m.idle.toFixed(1)} ms`).toBeLessThanOrEqual(
      2 * Math.max(m.idle, NOISE_FLOOR_MS),
    );
}

describe('sockets that stop reading', () => {
  let s: LocalServer;
  beforeAll(async () => {
    s = await server();
  });
  afterAll(() => s.close());

  /** Non-reading spectators watching `games` (and asking for them again, as far as their read bucket lets them). */
  async function stalled(games: string[], n: number) {
    const sockets = await Promise.all(Array.from({ length: n }, () => pushClient(s)));
    for (const c of sockets) {
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      for (const g of games) c.send({ action: 'subscribe', gameId: g });
    }
    return sockets;
  }

  it(
    'never hold a move: honest players are served as on an idle server while non-reading sockets watch their games',
    async () => {
      const honest = await honestPlayers(s, 'stall', size(3, 8));
      let open: Awaited<ReturnType<typeof stalled>> = [];
      const m = await measure(
        honest,
        // Their subscribes (read-limited: one address) are served before the window: what is
        // measured is the cost of sockets that do not read, not of subscribing.
        async () => {
          open = await stalled(honest.games, 5);
          await pause(1500);
        },
        () => {
          for (const c of open) c.ws.terminate();
          open = [];
        },
      );
      console.log(JSON.stringify({ attack: 'non-reading sockets', ...m }));
      within2x('reads', m.reads);
      within2x('moves', m.moves);
      // What one of them is sent, once it reads: its subscription (or RATE_LIMITED past the
      // address's read bucket: the sockets share it, anonymous), then the game's versions.
      await pause(1000); // a token back in the address's bucket (the five above emptied it)
      const last = (await stalled([honest.games[0]], 1))[0];
      await pause(300);
      for (let i = 0; i < 3; i++) await honest.sample(0, [], []);
      (last.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect(await last.until(() => last.seen.some((x) => x.type === 'game'))).toBe(true);
      const codes = new Set(last.seen.filter((x) => x.type === 'error').map((x) => x.code));
      expect([...codes].every((c) => c === 'RATE_LIMITED')).toBe(true);
      last.ws.close();
    },
    timeout(120_000, 600_000),
  );
});

/** A server socket and a client that does not read (its socket paused). */
async function nonReadingPair() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((ok) => wss.once('listening', () => ok()));
  const accepted = new Promise<WebSocket>((ok) => wss.once('connection', (ws) => ok(ws)));
  const reader = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const closed = new Promise<number>((ok) => reader.on('close', (code) => ok(code)));
  reader.on('error', () => {});
  await new Promise<void>((ok) => reader.once('open', () => ok()));
  (reader as unknown as { _socket: { pause(): void } })._socket.pause();
  return {
    ws: await accepted,
    /** Lets the client read again: resolves with the close code it sees. */
    resume: () => {
      (reader as unknown as { _socket: { resume(): void } })._socket.resume();
      return closed;
    },
    close: () => new Promise<void>((ok) => wss.close(() => ok())),
  };
}

describe('the send queue of a socket', () => {
  it('graphql-ws sends (/graphql) never wait for the flush either: the callback comes at once, and past the bound the socket is closed', async () => {
    const pair = await nonReadingPair();
    boundSends(pair.ws);
    const message = 'y'.repeat(8 * 1024);
    let callbacks = 0;
    let sends = 0;
    while (pair.ws.readyState === WebSocket.OPEN && sends < 100_000) {
      // As graphql-ws does: send(data, callback), and the next send only after the callback.
      await new Promise<void>((ok) => pair.ws.send(message, () => ok()));
      callbacks++;
      sends++;
    }
    expect(sends).toBeLessThan(100_000);
    expect(callbacks).toBe(sends);
    expect([CLOSE_SLOW, 1006]).toContain(await pair.resume());
    await pair.close();
  });

  it(`a socket that does not read is closed past ${PUSH_LIMITS.sendQueueBytes / 1024} KB unsent (${CLOSE_SLOW}, or cut), and no send ever waits for it`, async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((ok) => wss.once('listening', () => ok()));
    const accepted = new Promise<WebSocket>((ok) => wss.once('connection', (ws) => ok(ws)));
    const reader = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const closed = new Promise<number>((ok) => reader.on('close', (code) => ok(code)));
    reader.on('error', () => {});
    await new Promise<void>((ok) => reader.once('open', () => ok()));
    (reader as unknown as { _socket: { pause(): void } })._socket.pause();
    const ws = await accepted;
    const message = 'x'.repeat(8 * 1024);
    let sent = 0;
    const t0 = performance.now();
    // The kernel takes a few MB first (loopback): sends go on until the bound is reached.
    while (sendBounded(ws, message) && sent < 100_000) sent++;
    const ms = performance.now() - t0;
    expect(sent).toBeLessThan(100_000);
    expect(ws.readyState).not.toBe(WebSocket.OPEN);
    // It was dropped, not waited for: no send blocked (the loop is synchronous and quick).
    expect(ms).toBeLessThan(5000);
    expect(sendBounded(ws, message)).toBe(false);
    (reader as unknown as { _socket: { resume(): void } })._socket.resume();
    expect([CLOSE_SLOW, 1006]).toContain(await closed);
    await new Promise<void>((ok) => wss.close(() => ok()));
  });
});

describe('a flood of small /push messages from one anonymous socket', () => {
  let s: LocalServer;
  beforeAll(async () => {
    s = await server();
  });
  afterAll(() => s.close());

  it(
    `is answered RATE_LIMITED past the read bucket (${RATES.read.perSecond}/s, burst ${RATES.read.burst}), changes nothing, and does not slow the honest players`,
    async () => {
      const honest = await honestPlayers(s, 'flood', size(3, 8));
      const c = client(s);
      const owner = await c.signUp('Flood Target');
      const target = (
        await c.ok(`mutation { createGame(input: { edition: CLASSIC, seats: 3 }) { id } }`, {}, owner.token)
      ).createGame.id as string;
      const before = (await c.ok(`query($id: ID!) { game(id: $id) { version status } }`, { id: target }, owner.token))
        .game;
      // The attacker in its own process (flood.test.ts: its CPU is not the server's), 1,000
      // messages a second while on: the finding's 3,000 in the CI-sized run.
      const f = flooder('push-messages', s.url, 1000, target);
      try {
        await pause(800);
        f.child.kill('SIGSTOP');
        const m = await measure(
          honest,
          () => void f.child.kill('SIGCONT'),
          () => void f.child.kill('SIGSTOP'),
        );
        // The flood goes on after the windows, long enough for the finding's 3,000 messages
        // (more than 2,000 are required below) even from a niced attacker on a busy machine.
        f.child.kill('SIGCONT');
        await pause(size(3000, 1500));
        const stats = f.last();
        console.log(JSON.stringify({ attack: 'push flood', stats, ...m }));
        within2x('reads', m.reads);
        within2x('moves', m.moves);
        expect(stats.sent).toBeGreaterThan(size(2000, 10_000));
        // Typed answers, far more RATE_LIMITED than anything that did work; the socket stays open.
        expect(
          Object.keys(stats.codes).every((k) => ['RATE_LIMITED', 'BAD_USER_INPUT'].includes(k)),
          JSON.stringify(stats.codes),
        ).toBe(true);
        expect(stats.codes.RATE_LIMITED).toBeGreaterThan(stats.sent * 0.7);
        expect(stats.answers.subscribed ?? 0).toBeLessThan(stats.sent * 0.05);
        expect(stats.closed).toBe(0);
      } finally {
        f.child.kill('SIGCONT');
        f.child.kill('SIGTERM');
      }
      // State unchanged: the game the flood was about did not move. (Asked with a token: this
      // address's anonymous bucket is the attacker's.)
      expect(
        (await c.ok(`query($id: ID!) { game(id: $id) { version status } }`, { id: target }, owner.token)).game,
      ).toEqual(before);
    },
    timeout(120_000, 600_000),
  );
});

describe('/push messages are reads', () => {
  let s: LocalServer;
  // The service's burst, refilled slowly (one token per 20 s): the bucket stays empty while the
  // test looks, however slow the machine is (at 5/s a slow request would see a token back).
  const READ = { perSecond: 0.05, burst: RATES.read.burst };
  beforeAll(async () => {
    s = await server({ read: READ });
  });
  afterAll(() => s.close());

  it('share the HTTP read bucket: past it a subscribe answers RATE_LIMITED with no view, and past push reads HTTP answers 429', async () => {
    const c = client(s);
    const p = await c.signUp('Bucket Reader');
    const id = (await c.ok(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, p.token))
      .createGame.id as string;
    // HTTP first: the burst, then 429.
    const statuses: number[] = [];
    for (let i = 0; i <= READ.burst; i++)
      statuses.push((await c.gql(`query($id: ID!) { game(id: $id) { version } }`, { id }, p.token)).status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(READ.burst);
    expect(statuses.at(-1)).toBe(429);
    const push = await pushClient(s, p.token);
    push.send({ action: 'subscribe', gameId: id });
    await push.until(() => push.seen.length > 0);
    expect(push.seen).toEqual([
      {
        type: 'error',
        code: 'RATE_LIMITED',
        message: expect.stringContaining('push messages count as reads'),
        retryAfterSeconds: expect.any(Number),
      },
    ]);

    // And the other way round: another player's push messages empty their bucket for HTTP.
    const q = await c.signUp('Push Reader');
    const qs = await pushClient(s, q.token);
    const limited = () => qs.seen.some((x) => x.code === 'RATE_LIMITED');
    while (!limited()) {
      const n = qs.seen.length;
      for (let i = 0; i < PUSH_LIMITS.pendingMessagesPerConnection; i++)
        qs.send(i === 0 ? { action: 'subscribe', gameId: id } : { action: 'ping' });
      await qs.until(() => qs.seen.length >= n + PUSH_LIMITS.pendingMessagesPerConnection);
    }
    expect(qs.seen.filter((x) => x.type !== 'error')).toHaveLength(READ.burst);
    const r = await c.gql(`query($id: ID!) { game(id: $id) { version } }`, { id }, q.token);
    expect(r.status).toBe(429);
    expect(r.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    push.ws.close();
    qs.ws.close();
  });
});

describe('access is checked at every push', () => {
  let s: LocalServer;
  beforeAll(async () => {
    s = await server(false);
  });
  afterAll(() => s.close());

  it('a player who leaves a private game gets FORBIDDEN once and nothing more of it', async () => {
    const c = client(s);
    const [a, b, d] = [
      await c.signUp('Private Host'),
      await c.signUp('Private Leaver'),
      await c.signUp('Private Newcomer'),
    ];
    const id = (
      await c.ok(
        `mutation { createGame(input: { edition: CLASSIC, seats: 3, spectators: false }) { id } }`,
        {},
        a.token,
      )
    ).createGame.id as string;
    await c.ok(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    const watcher = await pushClient(s, b.token);
    watcher.send({ action: 'subscribe', gameId: id });
    await watcher.until(() => watcher.seen.some((x) => x.type === 'subscribed'));
    expect(watcher.seen[0]).toMatchObject({ type: 'subscribed', gameId: id, status: 'LOBBY' });
    const host = await pushClient(s, a.token);
    host.send({ action: 'subscribe', gameId: id });
    await host.until(() => host.seen.some((x) => x.type === 'subscribed'));

    await c.ok(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: id }, b.token);
    await c.ok(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, d.token);
    const started = (
      await c.ok(`mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { version } }`, { g: id }, a.token)
    ).startGame.version;
    // The host (still seated) sees every change up to the start; the leaver sees none of them.
    expect(await host.until(() => host.seen.some((x) => x.type === 'game' && x.version === started))).toBe(true);
    await watcher.until(() => watcher.seen.some((x) => x.type === 'error'));
    const after = watcher.seen.slice(1);
    expect(after).toEqual([{ type: 'error', code: 'FORBIDDEN', message: expect.any(String), gameId: id }]);
    // Its subscription ended: a move later, still nothing.
    await pause(300);
    expect(watcher.seen.slice(1)).toHaveLength(1);
    watcher.ws.close();
    host.ws.close();
  });
});
