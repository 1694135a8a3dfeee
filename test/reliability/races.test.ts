// Races: every seat of N games submits its secret card at the same instant, for every day of
// every game, over HTTP. Every choice must be kept (the sunrise reveals exactly the card each
// seat sent) and every day must advance exactly once (one sunrise per round and day).
// CI: 12 games of 3-4 seats (about 20 s on 2 cores); STRESS=1: 200 games.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEvents, GAME_QUERY, rand } from '../setup/play.js';
import { type Harness, newGame, parallel, size, startHarness, timeout } from './harness.js';

const GAMES = size(12, 200);
const PLAY = `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }`;
const ANSWER = `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { status phase pending { seat } } }`;
const STATE = `query($id: ID!) { game(id: $id) { status phase round day pending { seat } me { hand prompts { id options { id } } } } }`;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

interface Table {
  id: string;
  tokens: string[];
  /** The card each seat sent, per day played (in order). */
  sent: number[][];
  finished: boolean;
}

/** Answers prompts (a random option) until the game waits for the day's cards or is over. */
async function settle(t: Table, rnd: () => number): Promise<void> {
  let g = (await h.gql(STATE, { id: t.id }, t.tokens[0])).data.game;
  for (let i = 0; i < 500; i++) {
    if (g.status === 'FINISHED') {
      t.finished = true;
      return;
    }
    if (g.phase === 'CHOOSE') return;
    const seat = g.pending.seat;
    const mine = (await h.gql(STATE, { id: t.id }, t.tokens[seat])).data.game;
    const p = mine.me.prompts[0];
    const r = await h.gql(
      ANSWER,
      { g: t.id, p: p.id, o: p.options[Math.floor(rnd() * p.options.length)].id },
      t.tokens[seat],
    );
    expect(r.errors).toBeUndefined();
    g = r.data.answerPrompt;
  }
  throw new Error('prompts never ended');
}

describe('races', () => {
  it(
    `every seat of ${GAMES} games chooses at the same instant, every day: no choice lost, one advance per day`,
    async () => {
      const rnd = rand(7);
      const tables: Table[] = [];
      await parallel(
        Array.from({ length: GAMES }, (_, i) => i),
        8,
        async (i) => {
          const seats = 3 + (i % 2);
          const g = await newGame(h, { edition: 'CLASSIC', seats, seed: `race-${i}` }, seats, `Racer ${i}`);
          tables.push({ id: g.id, tokens: g.tokens, sent: [], finished: false });
        },
      );
      for (let day = 0; day < 60 && tables.some((t) => !t.finished); day++) {
        const live = tables.filter((t) => !t.finished);
        // Each seat reads its hand, then every seat of every live game plays in one burst.
        const picks = await Promise.all(
          live.map((t) =>
            Promise.all(
              t.tokens.map(async (tok) => {
                const hand = (await h.gql(STATE, { id: t.id }, tok)).data.game.me.hand as number[];
                return hand[Math.floor(rnd() * hand.length)];
              }),
            ),
          ),
        );
        const answers = await Promise.all(
          live.flatMap((t, gi) => t.tokens.map((tok, seat) => h.gql(PLAY, { g: t.id, r: picks[gi][seat] }, tok))),
        );
        for (const a of answers) expect(a.errors).toBeUndefined();
        live.forEach((t, gi) => t.sent.push(picks[gi]));
        await parallel(live, 8, (t) => settle(t, rnd));
      }
      expect(tables.every((t) => t.finished)).toBe(true);

      await parallel(tables, 8, async (t) => {
        const log = await allEvents(h.gql, t.id);
        const sunrises = log.filter((e) => e.type === 'sunrise');
        // Exactly one advance per (round, day), and one per burst we sent.
        const perDay = new Map<string, number>();
        for (const e of sunrises)
          perDay.set(`${e.data.round}/${e.data.day}`, (perDay.get(`${e.data.round}/${e.data.day}`) ?? 0) + 1);
        expect([...perDay.values()].every((n) => n === 1)).toBe(true);
        expect(sunrises).toHaveLength(t.sent.length);
        // Every choice kept: each day, one first-time choice per seat, and the sunrise reveals
        // exactly the card each seat sent.
        let from = 0;
        sunrises.forEach((sun, d) => {
          const chosen = log.filter((e) => e.seq > from && e.seq < sun.seq && e.type === 'cardChosen');
          expect(chosen.map((e) => e.data.seat).sort((a, b) => a - b)).toEqual(t.tokens.map((_, i) => i));
          expect(chosen.every((e) => e.data.changed === false)).toBe(true);
          const revealed = [...sun.data.revealed].sort((a: any, b: any) => a.seat - b.seat).map((c: any) => c.rank);
          expect(revealed).toEqual(t.sent[d]);
          from = sun.seq;
        });
        expect(log.filter((e) => e.type === 'gameEnd')).toHaveLength(1);
        const final = (await h.gql(GAME_QUERY, { id: t.id })).data.game;
        expect(final.status).toBe('FINISHED');
      });
    },
    timeout(120_000, 1_800_000),
  );
});
