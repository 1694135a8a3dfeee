// Floods (findings 3 and 5): an attacker in its own process (flooder.mjs) floods the local
// server as `npm start` runs it (service rate limits on) while an honest player keeps playing.
// The honest player's requests must all succeed, with p95 within 2x of the idle server's,
// measured in the same run: idle and flood windows interleaved (the flooder is paused with
// SIGSTOP between flood windows), so machine load hits both alike.
// CI: 4 rounds of 15 samples per window; STRESS=1: 10 rounds of 40.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalServer, startLocal } from '../../functions/local/server.js';
import { size, timeout } from './harness.js';

const ROUNDS = size(4, 10);
const PER_WINDOW = size(15, 40);
/** Below this the p95s are timer noise on a shared machine: the 2x rule applies from here. */
const NOISE_FLOOR_MS = 3;
/**
 * The 2x rule is asserted in `npm run stress` (10 rounds of 40 samples) or with FLOOD_RATIO=1;
 * the CI run prints the figures and asserts the rest (every honest request succeeds, the attacker
 * gets its typed answers): on a shared 2-core CI machine 60 samples per side are too few to
 * hold a p95 ratio steady.
 */
const ASSERT_RATIO = process.env.STRESS === '1' || process.env.FLOOD_RATIO === '1';
const within2x = (m: { idle: number; flood: number }) => {
  if (ASSERT_RATIO) expect(m.flood).toBeLessThanOrEqual(2 * Math.max(m.idle, NOISE_FLOOR_MS));
};

let s: LocalServer;
beforeAll(async () => {
  s = await startLocal({ port: 0, dataDir: null, endpoint: inject('dynamoEndpoint'), tableName: `flood-${randomUUID().slice(0, 8)}`, sweepIntervalMs: 0 });
});
afterAll(() => s.close());

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const r = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  return { status: r.status, body: (await r.json()) as any };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function flooder(mode: string, token = '', gameId = 'x'): { child: ChildProcess; last: () => any } {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./flooder.mjs', import.meta.url)), mode, s.url, token, '100', gameId], { stdio: ['ignore', 'pipe', 'inherit'] });
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
async function measure(honest: () => Promise<void>, child: ChildProcess, gapMs = 250) {
  const idle: number[] = [];
  const flood: number[] = [];
  const sample = async (into: number[]) => {
    for (let i = 0; i < PER_WINDOW; i++) {
      const t0 = performance.now();
      await honest();
      into.push(performance.now() - t0);
      await pause(gapMs); // an honest client: under the per-player read limit
    }
  };
  child.kill('SIGSTOP');
  await pause(300);
  for (let r = 0; r < ROUNDS; r++) {
    await sample(idle);
    child.kill('SIGCONT');
    await pause(300); // the flood is on
    await sample(flood);
    child.kill('SIGSTOP');
    await pause(300);
  }
  return { idle: p95(idle), flood: p95(flood) };
}

describe('floods', () => {
  it(
    'a socket sending the 100k-field document over and over: /health and an honest player stay fast',
    async () => {
      const p = (await gql(`mutation { signUp(name: "Honest Sockets") { token } }`)).body.data.signUp.token;
      const id = (await gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, p)).body.data.createGame.id;
      const f = flooder('ws-huge');
      try {
        await pause(500);
        const health = await measure(async () => {
          const r = await fetch(`${s.url}/health`);
          expect(r.status).toBe(200);
          await r.text();
        }, f.child, 20);
        const game = await measure(async () => {
          const r = await gql(`query($id: ID!) { game(id: $id) { id version seats { seat name } } }`, { id }, p);
          expect(r.body.errors).toBeUndefined();
        }, f.child);
        f.child.kill('SIGCONT');
        await pause(1200);
        const stats = f.last();
        console.log(JSON.stringify({ flood: 'ws-huge', health, game, attacker: stats }));
        expect(stats.sent).toBeGreaterThan(10);
        expect(Object.keys(stats.answers)).toEqual(['1009']); // every huge frame: closed unread
        within2x(health);
        within2x(game);
      } finally {
        f.child.kill('SIGCONT');
        f.child.kill('SIGTERM');
      }
    },
    timeout(120_000, 600_000),
  );

  it(
    'one player flooding reads at 100/s is answered 429; another player plays on at the idle speed',
    async () => {
      const [m, p] = await Promise.all(['Flooder', 'Honest Reader'].map(async (n) => (await gql(`mutation($n: String!) { signUp(name: $n) { token } }`, { n })).body.data.signUp.token));
      const id = (await gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, p)).body.data.createGame.id;
      const f = flooder('http-reads', m, id);
      try {
        await pause(500);
        const game = await measure(async () => {
          const r = await gql(`query($id: ID!) { game(id: $id) { id version me { hand } } }`, { id }, p);
          expect(r.status).toBe(200);
          expect(r.body.errors).toBeUndefined();
        }, f.child);
        f.child.kill('SIGCONT');
        await pause(1200);
        const stats = f.last();
        console.log(JSON.stringify({ flood: 'http-reads', game, attacker: stats }));
        expect(stats.answers['429']).toBeGreaterThan(stats.answers['200'] ?? 0);
        within2x(game);
      } finally {
        f.child.kill('SIGCONT');
        f.child.kill('SIGTERM');
      }
    },
    timeout(120_000, 600_000),
  );
});
