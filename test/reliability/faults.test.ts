// Faults: the request that advances the game is interrupted between any two of its writes.
// An AWS SDK middleware on the app's own DynamoDB client makes the k-th write of the request
// (and every later one) fail, for k = 1..W (W: the writes that request makes without a fault),
// on a copy of the game taken just before that request. Then the same request is retried with
// the same requestId, or a reader or the sweep comes first: the game must reach exactly the
// state and event log of the run without the fault, the retry must get the same answer, and
// the game must end as it did without the fault.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../functions/api/http/telemetry.js';
import { codeOf } from '../setup/app.js';
import { ANSWER, EVENTS, GAME_QUERY, PLAY } from '../setup/play.js';
import { CREATE, type Harness, JOIN, newGame, START, startHarness, timeout } from './harness.js';
import { seedCommitment } from '../../functions/api/lobby/seeds.js';

// A fixed clock: event times and pending-since times are then equal in every copy.
const NOW = new Date('2030-01-01T00:00:00.000Z');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => NOW });
});
afterAll(() => h.close());

interface Move {
  token: string;
  query: string;
  vars: Record<string, unknown>;
}

/** The deterministic next move (first awaited seat; lowest card or first option), or null when over. */
async function nextMove(id: string, tokens: string[], i: number): Promise<Move | null> {
  const g = (await h.gql(GAME_QUERY, { id }, tokens[0])).data.game;
  if (g.status === 'FINISHED') return null;
  const seat = g.awaiting[0];
  const mine = (await h.gql(GAME_QUERY, { id }, tokens[seat])).data.game;
  const p = mine.me.prompts[0];
  return p
    ? { token: tokens[seat], query: ANSWER, vars: { p: p.id, o: p.options[0].id, q: `m${i}` } }
    : { token: tokens[seat], query: PLAY, vars: { r: mine.me.hand[0], q: `m${i}` } };
}

const send = (id: string, m: Move) => h.gql(m.query, { ...m.vars, g: id }, m.token);

/** Everything that must match: the game as stored (snapshot and commits past it, but its id) and the whole event log. */
async function stored(id: string) {
  const rec = await h.game(id);
  const log = await h.store.log.listEvents(id, 0, 10_000);
  // archiveAt: the sweep's bookkeeping of a finished game (retention.ts), cleared once it has
  // archived the log; whether a sweep ran in between is not part of the game.
  const { id: _id, createdAt: _c, archiveAt: _a, ...rest } = rec!;
  return { game: rest, events: log.events };
}

/** An answer with the copy's game id written back to the original's. The seed commitment binds
 * the game id (see functions/api/lobby/seeds.ts), so the copy's is checked against its own id and then
 * written back to the original's too. */
const as = (answer: any, from: string, to: string) => {
  const game = answer?.data && (Object.values(answer.data)[0] as any);
  if (game?.seedCommitment && game.seed) {
    expect(game.seedCommitment).toBe(seedCommitment(from, game.seed));
    game.seedCommitment = seedCommitment(to, game.seed);
  }
  return JSON.parse(JSON.stringify(answer).split(from).join(to));
};

/** A value without its seedCommitment fields. */
const noCommitment = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'seedCommitment' ? undefined : v)));

/** Plays `id` to its end from move `i` on; returns the moves made. */
async function playOut(id: string, tokens: string[], i: number): Promise<number> {
  let n = 0;
  for (let k = i; k < i + 1000; k++) {
    const m = await nextMove(id, tokens, k);
    if (!m) return n;
    const r = await send(id, m);
    expect(r.errors).toBeUndefined();
    n++;
  }
  throw new Error('game did not end');
}

describe('faults', () => {
  it(
    'an advance interrupted at any of its writes, then retried or finished by a reader or the sweep, ends as without the fault',
    async () => {
      // The failures go to the service log (functions/api/http/telemetry.ts), silent in tests.
      const errors = vi.spyOn(logger, 'error');
      try {
        // The run without faults: a snapshot of the partition before each move.
        const { id: base, tokens } = await newGame(h, { edition: 'CLASSIC', seats: 3, seed: 'faults' }, 3, 'Faulty');
        const moves: {
          move: Move;
          before: Record<string, unknown>[];
          writes: number;
          answer: any;
          after: Awaited<ReturnType<typeof stored>>;
          advanced: boolean;
        }[] = [];
        for (let i = 0; i < 1000; i++) {
          const move = await nextMove(base, tokens, i);
          if (!move) break;
          const before = await h.partition(base);
          const phaseBefore = (await h.gql(GAME_QUERY, { id: base })).data.game.phase;
          h.faults.count();
          const answer = await send(base, move);
          const writes = h.faults.writes;
          expect(answer.errors).toBeUndefined();
          const g = answer.data.playCard ?? answer.data.answerPrompt;
          moves.push({
            move,
            before,
            writes,
            answer,
            after: await stored(base),
            advanced: phaseBefore === 'CHOOSE' && g.phase !== 'CHOOSE',
          });
        }
        const final = await stored(base);
        expect(final.game.status).toBe('FINISHED');
        // The advances to interrupt: the first day's, one in the middle, and the move that ends the game.
        const advances = moves.map((m, i) => (m.advanced ? i : -1)).filter((i) => i >= 0);
        const targets = [advances[0], advances[Math.floor(advances.length / 2)], moves.length - 1];
        let faulted = 0;
        for (const t of targets) {
          const { move, before, writes, answer, after } = moves[t];
          expect(writes).toBeGreaterThanOrEqual(2); // request claim, commit item (, snapshot when due)
          for (let k = 1; k <= writes; k++) {
            const copy = await h.clone(before, base);
            h.faults.arm(k);
            const failed = await send(copy, move);
            h.faults.disarm();
            // The fault really happened: the request failed, with a typed error and nothing more.
            expect(h.faults.failed).toBeGreaterThan(0);
            expect(codeOf(failed)).toBe('INTERNAL_SERVER_ERROR');
            expect(failed.data ?? null).toBeNull();
            faulted++;
            if (k > 2) {
              // Writes are: request claim, commit item, snapshot (when due). The commit happened
              // before the fault: a reader sees the game as committed; the sweep brings the
              // snapshot forward.
              if (k % 2 === 0) expect((await h.gql(EVENTS, { g: copy, a: 0, l: 1 })).errors).toBeUndefined();
              else await h.app.sweep();
              expect(await stored(copy)).toEqual(after);
            }
            // The client retries with the same requestId: applied once, answered as without the fault.
            const retried = await send(copy, move);
            expect(noCommitment(as(retried, copy, base))).toEqual(noCommitment(answer));
            expect(await stored(copy)).toEqual(after);
            if (k === writes && t === targets[0]) {
              // This copy lost its last write (the snapshot, or the commit itself): play it to the end
              // (the snapshot catches up), then retry once more, long after.
              await playOut(copy, tokens, t + 1);
              const end = await stored(copy);
              expect(end).toEqual(final);
              expect(end.game.version - after.game.version).toBeGreaterThan(20);
              const late = await send(copy, move);
              expect(late.data ?? null).not.toBeNull();
              expect(noCommitment(as(late, copy, base))).toEqual(noCommitment(answer));
              expect(await stored(copy)).toEqual(final);
            } else if (k === Math.ceil(writes / 2)) {
              await playOut(copy, tokens, t + 1);
              expect(await stored(copy)).toEqual(final);
            }
          }
        }
        expect(faulted).toBeGreaterThanOrEqual(targets.length * 2);
        expect(errors).toHaveBeenCalled();
      } finally {
        errors.mockRestore();
      }
    },
    timeout(120_000, 600_000),
  );

  it(
    'a process killed between the log write and the snapshot write at every commit of a game: game, log and answers as without the kills',
    async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        // Two games of the same players, options and seed: one played normally, one where every
        // move's request dies right after its commit item is written, then is retried.
        const players = await Promise.all([h.signUp('Killed 0'), h.signUp('Killed 1')]);
        const tokens = players.map((p) => p.token);
        const game = async () => {
          const id = (await h.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, seed: 'killed' } }, tokens[0])).data
            .createGame.id as string;
          for (const t of tokens.slice(1)) expect((await h.gql(JOIN, { g: id }, t)).errors).toBeUndefined();
          expect((await h.gql(START, { g: id }, tokens[0])).errors).toBeUndefined();
          return id;
        };
        const base = await game();
        const killed = await game();
        let moves = 0;
        for (let i = 0; i < 1000; i++) {
          const move = await nextMove(base, tokens, i);
          const twin = await nextMove(killed, tokens, i);
          expect(as(twin, killed, base)).toEqual(move);
          if (!move) break;
          const answer = await send(base, move);
          expect(answer.errors).toBeUndefined();
          h.faults.killAfterCommits();
          const died = await send(killed, twin!);
          h.faults.disarm();
          expect(codeOf(died)).toBe('INTERNAL_SERVER_ERROR');
          expect(h.faults.failed).toBe(1);
          // Readers see the commit at once; the retry is answered as the uninterrupted call was.
          expect((await stored(killed)).events.length).toBe((await stored(base)).events.length);
          const retried = await send(killed, twin!);
          // (seedCommitment hashes the game id with the seed: the one field two games never share)
          expect(noCommitment(as(retried, killed, base))).toEqual(noCommitment(answer));
          moves++;
        }
        expect(moves).toBeGreaterThan(30);
        const end = await stored(killed);
        expect(end.game.status).toBe('FINISHED');
        expect(as(end, killed, base)).toEqual(await stored(base));
        // The log itself: the same commits (but their random notice ids), and the sweep brings
        // the snapshot, never written in the killed game, up to it.
        const strip = (cs: any[]) => cs.map(({ cid: _c, ...c }) => c);
        expect(as(strip(await h.store.log.listCommits(killed)), killed, base)).toEqual(
          strip(await h.store.log.listCommits(base)),
        );
        expect((await h.store.log.loadGame(killed))!.tail.length).toBeGreaterThan(10);
        await h.app.sweep();
        expect((await h.store.log.loadGame(killed))!.tail).toEqual([]);
        expect(as(await stored(killed), killed, base)).toEqual(await stored(base));
      } finally {
        errors.mockRestore();
      }
    },
    timeout(300_000, 900_000),
  );
});
