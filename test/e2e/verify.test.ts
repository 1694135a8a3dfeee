// Anyone can check a finished game against its seed commitment (scripts/verify.ts, the
// documented `npm run verify`): over real HTTP against the local server, a finished game is
// "verified"; a tampered seed, commitment, derivation version or log is a mismatch.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitmentOf, verifyGame } from '../../scripts/verify.js';
import { fullGame } from '../setup/games.js';
import { startServer } from '../setup/http.js';

let s: Awaited<ReturnType<typeof startServer>>;
let finished: string;
beforeAll(async () => {
  s = await startServer();
  // A server seed (none chosen): secret until the end, then revealed.
  finished = (await fullGame(s, { edition: 'CLASSIC', seats: 3, bots: 2, botKind: 'GREEDY' }, 1, 7)).id;
});
afterAll(() => s.close());

/** A fetch that rewrites the game's answer (as a lying server, or a man in the middle, would). */
const tampered =
  (change: (body: any) => void): typeof fetch =>
  async (url, init) => {
    const res = await fetch(url, init);
    const body = await res.json();
    change(body);
    return new Response(JSON.stringify(body), { status: res.status, headers: { 'content-type': 'application/json' } });
  };
const onGame = (f: (g: any) => void) => tampered((b) => b.data?.game && f(b.data.game));

describe('npm run verify', () => {
  it('the documented command says "verified" for a finished game and exits 0', async () => {
    const { stdout } = await promisify(execFile)('npx', [
      'tsx',
      'scripts/verify.ts',
      '--api',
      s.url,
      '--game',
      finished,
    ]);
    expect(stdout).toContain(`verified: game ${finished} was played from the seed it committed to`);
    expect(stdout).toMatch(/ok: the revealed seed matches the commitment/);
  }, 60_000);

  it('a tampered seed or commitment is a mismatch', async () => {
    const seed = await verifyGame({ api: s.url, gameId: finished, fetch: onGame((g) => (g.seed = `${g.seed}x`)) });
    expect(seed.verdict).toBe('mismatch');
    expect(seed.lines.at(-1)).toMatch(/MISMATCH: .* is not the seedCommitment/);
    const commitment = await verifyGame({
      api: s.url,
      gameId: finished,
      fetch: onGame((g) => (g.seedCommitment = '0'.repeat(64))),
    });
    expect(commitment.verdict).toBe('mismatch');
  });

  it('another seed with a commitment made for it does not replay to the game (the log or the commands differ)', async () => {
    const fake = 'another seed';
    const v = await verifyGame({
      api: s.url,
      gameId: finished,
      fetch: onGame((g) => {
        g.seed = fake;
        g.seedCommitment = commitmentOf(g.id, fake);
        g.scenario.seed = fake;
      }),
    });
    expect(v.verdict).toBe('mismatch');
    expect(v.lines.at(-1)).toMatch(/MISMATCH: (the recorded commands do not replay|event \d+)/);
  });

  it('the wrong derivation version, or an edited log or ranking, is a mismatch', async () => {
    const version = await verifyGame({
      api: s.url,
      gameId: finished,
      fetch: onGame((g) => ((g.rngVersion = 1), (g.scenario.rngVersion = 1))),
    });
    expect(version.verdict).toBe('mismatch');
    const log = await verifyGame({
      api: s.url,
      gameId: finished,
      fetch: tampered((b) => {
        const e = b.data?.events?.events.find((x: any) => x.type === 'dayStart');
        if (e) e.data.loot = [...e.data.loot].reverse().concat('chest');
      }),
    });
    expect(log.verdict).toBe('mismatch');
    expect(log.lines.at(-1)).toMatch(/MISMATCH: event \d+: the game logged dayStart/);
    const ranking = await verifyGame({ api: s.url, gameId: finished, fetch: onGame((g) => g.ranking.reverse()) });
    expect(ranking.verdict).toBe('mismatch');
  });

  it('a game that is not finished cannot be checked yet (exit 2): its seed is still secret', async () => {
    const p = await s.signUp('Ned Low');
    const created = await s.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, p.token);
    const v = await verifyGame({ api: s.url, gameId: created.data.createGame.id });
    expect(v).toEqual({
      verdict: 'unverifiable',
      lines: [expect.stringMatching(/is LOBBY: its seed is revealed when it is finished/)],
    });
    const err = await promisify(execFile)('npx', [
      'tsx',
      'scripts/verify.ts',
      '--api',
      s.url,
      '--game',
      created.data.createGame.id,
    ]).catch((e) => e);
    expect(err.code).toBe(2);
  }, 60_000);
});
