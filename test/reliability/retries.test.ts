// Retries (extends test/e2e/races.test.ts, which covers a retried first choice): the request
// that advances the day, a prompt answer, a reused id for another command, and a retry long
// long after the first call (more than LATE_COMMITS later commits, the snapshot long past it):
// each is applied once and every retry is answered exactly as the first call (from the log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Commits between a request and its late retry. */
const LATE_COMMITS = 50;
import { codeOf } from '../setup/app.js';
import { allEvents, ANSWER, GAME_QUERY, PLAY } from '../setup/play.js';
import { type Harness, newGame, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const look = async (id: string, token: string) => (await h.gql(GAME_QUERY, { id }, token)).data.game;

/** Plays one move for the first awaited seat (lowest card / first option); returns the answer. */
async function step(id: string, tokens: string[]) {
  const g = await look(id, tokens[0]);
  const seat = g.awaiting[0];
  const mine = await look(id, tokens[seat]);
  const p = mine.me.prompts[0];
  const r = p
    ? await h.gql(ANSWER, { g: id, p: p.id, o: p.options[0].id }, tokens[seat])
    : await h.gql(PLAY, { g: id, r: mine.me.hand[0] }, tokens[seat]);
  expect(r.errors).toBeUndefined();
  return r.data.playCard ?? r.data.answerPrompt;
}

describe('retries', () => {
  it('the choice that advances the day, sent three times at once and again later, advances it once and is answered the same', async () => {
    const { id, tokens } = await newGame(h, { edition: 'CLASSIC', seats: 3, seed: 'retry-advance' }, 3);
    const hands = await Promise.all(tokens.map(async (t) => (await look(id, t)).me.hand as number[]));
    for (const seat of [0, 1])
      expect((await h.gql(PLAY, { g: id, r: hands[seat][0] }, tokens[seat])).errors).toBeUndefined();
    const burst = await Promise.all(
      [1, 2, 3].map(() => h.gql(PLAY, { g: id, r: hands[2][0], q: 'advance-1' }, tokens[2])),
    );
    expect(burst[0].errors).toBeUndefined();
    for (const b of burst) expect(b).toEqual(burst[0]);
    expect(burst[0].data.playCard.phase).not.toBe('CHOOSE'); // it did advance the day
    await step(id, tokens); // the game moves on
    expect(await h.gql(PLAY, { g: id, r: hands[2][0], q: 'advance-1' }, tokens[2])).toEqual(burst[0]);
    const log = await allEvents(h.gql, id);
    expect(log.filter((e) => e.type === 'sunrise')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'cardChosen' && e.data.seat === 2)).toHaveLength(1);
  });

  it('a prompt answer retried at once and later is applied once; a reused id for another command is a CONFLICT that changes nothing', async () => {
    const { id, tokens } = await newGame(h, { edition: 'CLASSIC', seats: 2, seed: 'retry-prompt' }, 2);
    let prompt: { seat: number; id: string; option: string } | null = null;
    for (let i = 0; i < 400 && !prompt; i++) {
      const g = await look(id, tokens[0]);
      if (g.status === 'FINISHED') break;
      if (g.pending) {
        const mine = await look(id, tokens[g.pending.seat]);
        const p = mine.me.prompts[0];
        if (p.options.length > 1) prompt = { seat: g.pending.seat, id: p.id, option: p.options[1].id };
        else await step(id, tokens);
      } else await step(id, tokens);
    }
    expect(prompt).not.toBeNull();
    const { seat, id: pid, option } = prompt!;
    const vars = { g: id, p: pid, o: option, q: 'answer-1' };
    const burst = await Promise.all([1, 2].map(() => h.gql(ANSWER, vars, tokens[seat])));
    expect(burst[0].errors).toBeUndefined();
    expect(burst[1]).toEqual(burst[0]);
    const before = await look(id, tokens[0]);
    // The same id for another command: refused, nothing applied.
    const other = await h.gql(ANSWER, { ...vars, o: 'something-else' }, tokens[seat]);
    expect(codeOf(other)).toBe('CONFLICT');
    const hand = (await look(id, tokens[seat])).me.hand;
    if (hand.length > 0)
      expect(codeOf(await h.gql(PLAY, { g: id, r: hand[0], q: 'answer-1' }, tokens[seat]))).toBe('CONFLICT');
    const after = await look(id, tokens[0]);
    expect({ v: after.version, s: after.lastSeq }).toEqual({ v: before.version, s: before.lastSeq });
    await step(id, tokens);
    expect(await h.gql(ANSWER, vars, tokens[seat])).toEqual(burst[0]);
    const answered = (await allEvents(h.gql, id, tokens[seat])).filter(
      (e) => e.type === 'answered' && e.data.promptId === pid,
    );
    expect(answered).toHaveLength(1);
    expect(answered[0].data.answer).toBe(option);
  });

  it(`a retry after more than ${LATE_COMMITS} later commits (the snapshot long past it) is answered from the log, not applied again`, async () => {
    const { id, tokens } = await newGame(h, { edition: 'CLASSIC', seats: 2, seed: 'retry-late' }, 2);
    const hand = (await look(id, tokens[0])).me.hand;
    const first = await h.gql(PLAY, { g: id, r: hand[0], q: 'early' }, tokens[0]);
    expect(first.errors).toBeUndefined();
    // Many later commits, each with its own request id.
    let g = await look(id, tokens[0]);
    for (
      let i = 0;
      i < 200 && g.version < first.data.playCard.version + LATE_COMMITS + 5 && g.status !== 'FINISHED';
      i++
    ) {
      const seat = g.awaiting[0];
      const mine = await look(id, tokens[seat]);
      const p = mine.me.prompts[0];
      const r = p
        ? await h.gql(ANSWER, { g: id, p: p.id, o: p.options[0].id, q: `late-${i}` }, tokens[seat])
        : await h.gql(PLAY, { g: id, r: mine.me.hand[0], q: `late-${i}` }, tokens[seat]);
      expect(r.errors).toBeUndefined();
      g = await look(id, tokens[0]);
    }
    const raw = await h.game(id);
    expect(raw!.version).toBeGreaterThan(first.data.playCard.version + LATE_COMMITS);
    const versionBefore = raw!.version;
    expect(await h.gql(PLAY, { g: id, r: hand[0], q: 'early' }, tokens[0])).toEqual(first);
    expect((await h.game(id))!.version).toBe(versionBefore);
  });
});
