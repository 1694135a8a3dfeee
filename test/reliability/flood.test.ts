// Floods (findings 3 and 5), measured as in a deployment: the server under test runs in its own
// process (`functions/local/server.ts` as `npm start` runs it, service rate limits on, on the
// shared dynalite), the attacker in another (flooder.mjs), and the honest players here. So
// neither the attacker's CPU nor the test's own counts as server time.
//
// Each flood kind: honest players keep playing (a `game` query with their hand, under their own
// read limit) in idle and flood windows, interleaved (the flooder is paused with SIGSTOP between
// flood windows), so machine load hits both alike. Every honest request must succeed, and the
// attacker must get its typed answers (RATE_LIMITED, close codes). The p95 ratio flood/idle is
// printed; it is asserted (<= 2x) in `npm run stress` (STRESS=1: 8 rounds of 30 samples per
// window) or with FLOOD_RATIO=1: the guide keeps speed out of the timed unit tests, and 36
// samples a side on a shared 2-core CI machine are too few to hold a p95 ratio steady.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { size, timeout } from './harness.js';

// CI: one idle and one flood window of 12 honest requests per kind (about 6 s a kind). What CI
// asserts does not need more: each flood is on for about 4 s, which at its rate is many times the
// bucket it must empty (reads: burst 20 at 100/s; signUp: 30), so a flood that is not refused
// before parsing shows at once (checked: with the read limit lifted, the query flood's
// `429 > 200` fails at this size). The p95 ratio needs the stress size's 8 x 30 samples a side.
const ROUNDS = size(1, 8);
const PER_WINDOW = size(12, 30);
/** Below this the p95s are timer noise on a shared machine: the 2x rule applies from here. */
const NOISE_FLOOR_MS = 3;
const ASSERT_RATIO = process.env.STRESS === '1' || process.env.FLOOD_RATIO === '1';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Measured {
  idle: number;
  flood: number;
  ratio: number;
  samples: number;
}
const results: Record<string, Measured | Record<string, Measured>> = {};
const within2x = (m: Measured) => {
  if (ASSERT_RATIO)
    expect(m.flood, `flood p95 ${m.flood.toFixed(1)} ms vs idle ${m.idle.toFixed(1)} ms`).toBeLessThanOrEqual(
      2 * Math.max(m.idle, NOISE_FLOOR_MS),
    );
};

let server: ChildProcess;
let url = '';
/** The end of the server process's stderr (shown if it dies). */
let serverErr = '';

/** The local server in its own process, as `npm start` runs it (tsx), on a fresh table of the shared dynalite. */
async function startServerProcess(): Promise<void> {
  server = spawn(process.execPath, ['--import', 'tsx', 'functions/local/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOCAL_IN_MEMORY: '1',
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: `flood-${randomUUID().slice(0, 8)}`,
      SWEEP_INTERVAL_SECONDS: '0',
      LOG_LEVEL: 'ERROR',
      VITEST: '',
      VITEST_WORKER_ID: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr!.on('data', (b: Buffer) => (serverErr = (serverErr + String(b)).slice(-4000)));
  url = await new Promise<string>((ok, fail) => {
    let out = '';
    const onData = (b: Buffer) => {
      out += String(b);
      const m = /GraphQL at (http:\/\/[^\s/]+)\/graphql/.exec(out);
      if (m) {
        server.stdout!.off('data', onData);
        server.stdout!.resume();
        ok(m[1]);
      }
    };
    server.stdout!.on('data', onData);
    server.once('exit', (code) => fail(new Error(`the server process exited (${code}): ${serverErr}`)));
  });
}

beforeAll(startServerProcess, 60_000);
afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((ok) => server.once('exit', ok));
  server.kill('SIGTERM');
  await Promise.race([exited, new Promise((ok) => setTimeout(ok, 5000))]);
  if (server.exitCode === null) server.kill('SIGKILL');
  console.log(JSON.stringify({ floods: results, rounds: ROUNDS, perWindow: PER_WINDOW, asserted: ASSERT_RATIO }));
});

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const r = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: r.status, body: (await r.json()) as any };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The attacker: another machine in a deployment, here a process at a lower CPU priority (nice 10)
 * so that on a shared 2-core machine its own client work does not pass for server slowness. What
 * it achieved (requests per second while on) is printed and, for the HTTP floods, checked.
 */
function flooder(mode: string, token = '', rate = 100, gameId = ''): { child: ChildProcess; last: () => any } {
  const child = spawn(
    'nice',
    [
      '-n',
      '10',
      process.execPath,
      fileURLToPath(new URL('./flooder.mjs', import.meta.url)),
      mode,
      url,
      token,
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

/** Honest requests in idle and flood windows, interleaved; every answer must succeed. */
let floodOnMs = 0;
async function measure(honest: (i: number) => Promise<void>, child: ChildProcess, gapMs: number): Promise<Measured> {
  const idle: number[] = [];
  const flood: number[] = [];
  let n = 0;
  const sample = async (into: number[]) => {
    for (let i = 0; i < PER_WINDOW; i++) {
      const t0 = performance.now();
      await honest(n++);
      into.push(performance.now() - t0);
      await pause(gapMs);
    }
  };
  child.kill('SIGSTOP');
  await pause(300);
  for (let r = 0; r < ROUNDS; r++) {
    await sample(idle);
    child.kill('SIGCONT');
    const on = performance.now();
    await pause(300); // the flood is on
    await sample(flood);
    child.kill('SIGSTOP');
    floodOnMs += performance.now() - on;
    await pause(300);
  }
  const m = { idle: p95(idle), flood: p95(flood) };
  return { ...m, ratio: Math.round((m.flood / Math.max(m.idle, NOISE_FLOOR_MS)) * 100) / 100, samples: idle.length };
}

const signUp = async (name: string) =>
  (await gql(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: name })).body.data.signUp.token as string;

/**
 * Two honest players, each with a game against a bot; their requests alternate (each stays under
 * its read limit). Made before any flood: sign-ups from this address share one limit with the
 * signUp flood (run last).
 */
async function honestPlayers(tag: string) {
  const players = await Promise.all(
    [1, 2].map(async (i) => {
      const token = await signUp(`Honest ${tag} ${i}`);
      const id = (
        await gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, token)
      ).body.data.createGame.id as string;
      expect(
        (await gql(`mutation($g: ID!) { startGame(gameId: $g) { status } }`, { g: id }, token)).body.data.startGame
          .status,
      ).toBe('ACTIVE');
      return { token, id };
    }),
  );
  return async (i: number) => {
    const p = players[i % 2];
    const r = await gql(`query($id: ID!) { game(id: $id) { id version me { hand } } }`, { id: p.id }, p.token);
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.game.me.hand.length).toBeGreaterThan(0);
  };
}

/** Runs one flood kind: the attacker's answers are checked by `typed`, the honest players' by `measure`. */
const KINDS = ['http-queries', 'http-mutations', 'introspection', 'ws-huge-document', 'ws-many-sockets', 'signUp'];
const honestOf: Record<string, (i: number) => Promise<void>> = {};
const attackers: Record<string, string> = {};
let attackerGame = '';
beforeAll(async () => {
  for (const k of KINDS) honestOf[k] = await honestPlayers(k);
  for (const k of ['Query Flooder', 'Mutation Flooder', 'Introspection Flooder']) attackers[k] = await signUp(k);
  attackerGame = (
    await gql(
      `mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`,
      {},
      attackers['Query Flooder'],
    )
  ).body.data.createGame.id;
}, 60_000);

async function flood(
  kind: string,
  mode: string,
  token: string,
  rate: number,
  gameId: string,
  typed: (stats: any) => void,
  extra?: (child: ChildProcess) => Promise<Record<string, Measured>>,
) {
  const honest = honestOf[kind];
  const f = flooder(mode, token, rate, gameId);
  try {
    floodOnMs = 800;
    await pause(800); // the flooder starts
    const game = await measure(honest, f.child, 120);
    const more = extra ? await extra(f.child) : {};
    f.child.kill('SIGCONT');
    await pause(1200);
    floodOnMs += 1200;
    const attacker = f.last();
    const achievedPerSecond = Math.round(attacker.sent / (floodOnMs / 1000));
    results[kind] = Object.keys(more).length ? { game, ...more } : game;
    console.log(JSON.stringify({ flood: kind, game, ...more, attacker, achievedPerSecond }));
    expect(server.exitCode, `the server process died: ${serverErr}`).toBeNull(); // it did once: an unhandled socket error
    typed(attacker);
    // The HTTP floods really flooded (the stats print once a second: a little is missed at the end).
    if (mode.startsWith('http') || mode === 'signup' || mode === 'introspection')
      expect(achievedPerSecond).toBeGreaterThan(rate * (ASSERT_RATIO ? 0.6 : 0.3));
    within2x(game);
    for (const m of Object.values(more)) within2x(m);
  } finally {
    f.child.kill('SIGCONT');
    f.child.kill('SIGTERM');
  }
}

describe('floods: an honest player is served as on an idle server (the server in its own process)', () => {
  it(
    'one player flooding queries at 100/s: answered 429 RATE_LIMITED before parsing',
    async () => {
      await flood('http-queries', 'http-reads', attackers['Query Flooder'], 100, attackerGame, (s) => {
        expect(s.answers['429']).toBeGreaterThan(s.answers['200'] ?? 0);
        expect(Object.keys(s.codes)).toEqual(['RATE_LIMITED']);
      });
    },
    timeout(120_000, 600_000),
  );

  it(
    'one player flooding mutations at 100/s: answered 429 RATE_LIMITED before parsing',
    async () => {
      await flood('http-mutations', 'http-writes', attackers['Mutation Flooder'], 100, '', (s) => {
        expect(s.answers['429']).toBeGreaterThan(s.answers['200'] ?? 0);
        expect(Object.keys(s.codes).sort()).toEqual(['NOT_FOUND', 'RATE_LIMITED']); // the burst reaches the resolver, the rest does not
      });
    },
    timeout(120_000, 600_000),
  );

  it(
    'one player sending 15 aliased full introspections per request at 20/s: refused before parsing (LIMIT_EXCEEDED: 15 introspection fields, more than the burst) or 429',
    async () => {
      await flood('introspection', 'introspection', attackers['Introspection Flooder'], 20, '', (s) => {
        expect(s.answers['200'] ?? 0).toBe(0); // no schema walk ran
        expect(
          Object.keys(s.codes).every((c) =>
            ['GRAPHQL_VALIDATION_FAILED', 'LIMIT_EXCEEDED', 'RATE_LIMITED'].includes(c),
          ),
        ).toBe(true);
        expect(s.codes.LIMIT_EXCEEDED).toBeGreaterThan(0); // 15 introspection fields: more than a whole burst, refused before parsing
        expect(s.codes.RATE_LIMITED).toBeGreaterThan(0); // each refusal still took a read token
      });
      // A generous cap always (the 2x rule under STRESS=1 or FLOOD_RATIO=1): it was 20 ms -> 2.1 s.
      const m = results.introspection as Measured;
      expect(m.flood).toBeLessThanOrEqual(10 * Math.max(m.idle, NOISE_FLOOR_MS));
    },
    timeout(120_000, 600_000),
  );

  it(
    'a socket sending the 100k-field document over and over: closed unread; /health and the honest players stay fast',
    async () => {
      await flood(
        'ws-huge-document',
        'ws-huge',
        '',
        0,
        '',
        (s) => {
          expect(s.sent).toBeGreaterThan(10);
          expect(Object.keys(s.answers)).toEqual(['1009']); // every huge frame: closed unread
        },
        async (child) => ({
          health: await measure(
            async () => {
              const r = await fetch(`${url}/health`);
              expect(r.status).toBe(200);
              await r.text();
            },
            child,
            20,
          ),
        }),
      );
    },
    timeout(120_000, 600_000),
  );

  it(
    'one address keeping 50 sockets opening at once: refused 429 before the handshake past the upgrade rate, 4429 past 5 connections',
    async () => {
      await flood('ws-many-sockets', 'ws-sockets', '', 50, '', (s) => {
        expect(s.closed).toBeGreaterThan(50);
        expect(s.answers['http-429']).toBeGreaterThan(s.answers['4429'] ?? 0); // most never reach a handshake
        expect(Object.keys(s.answers).sort()).toEqual(['4429', 'http-429']);
      });
    },
    timeout(120_000, 600_000),
  );

  it(
    'one address flooding signUp at 100/s: answered 429 RATE_LIMITED after the burst',
    async () => {
      await flood('signUp', 'signup', '', 100, '', (s) => {
        expect(s.answers['429']).toBeGreaterThan(s.answers['200'] ?? 0);
        expect(s.answers['200'] ?? 0).toBeLessThanOrEqual(30); // the burst (30 per hour)
        expect(Object.keys(s.codes)).toEqual(['RATE_LIMITED']);
      });
    },
    timeout(120_000, 600_000),
  );
});
