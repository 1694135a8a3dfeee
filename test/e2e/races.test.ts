// Races and retries over real HTTP: every seat plays at once; retried requests apply once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../setup/http.js';
import { allEvents, ANSWER, GAME_QUERY, PLAY } from '../setup/play.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function sixHumanGame(seed: string) {
  const players = await Promise.all(Array.from({ length: 6 }, (_, i) => s.signUp(`Racer ${i}`)));
  const id = (
    await s.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
      { i: { edition: 'CLASSIC', seats: 6, seed } },
      players[0].token,
    )
  ).data.createGame.id;
  // One after the other: seats are taken in join order.
  for (const p of players.slice(1))
    await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, p.token);
  const started = await s.gql(
    `mutation($g: ID!) { startGame(gameId: $g) { status seats { name } } }`,
    { g: id },
    players[0].token,
  );
  expect(started.data.startGame.status).toBe('ACTIVE');
  return { id, tokens: players.map((p) => p.token) };
}

/** Answers prompts (first option) until the game waits for card choices again. */
async function resolvePrompts(id: string, tokens: string[]) {
  for (let i = 0; i < 500; i++) {
    const g = (await s.gql(GAME_QUERY, { id }, tokens[0])).data.game;
    if (g.phase === 'CHOOSE' || g.status === 'FINISHED') return g;
    const seat = g.pending.seat;
    const mine = (await s.gql(GAME_QUERY, { id }, tokens[seat])).data.game;
    const p = mine.me.prompts[0];
    const r = await s.gql(ANSWER, { g: id, p: p.id, o: p.options[0].id }, tokens[seat]);
    expect(r.errors).toBeUndefined();
  }
  throw new Error('prompts never ended');
}

describe('concurrent playCard', () => {
  it('six seats choosing at once: no choice lost, exactly one sunrise per day', async () => {
    const { id, tokens } = await sixHumanGame('race');
    for (let day = 0; day < 3; day++) {
      const before = await resolvePrompts(id, tokens);
      const hands = await Promise.all(
        tokens.map(async (t) => (await s.gql(GAME_QUERY, { id }, t)).data.game.me.hand as number[]),
      );
      const picks = hands.map((h, i) => h[(i + day) % h.length]);
      const answers = await Promise.all(tokens.map((t, i) => s.gql(PLAY, { g: id, r: picks[i] }, t)));
      for (const a of answers) expect(a.errors).toBeUndefined();
      const log = await allEvents(s.gql, id);
      const today = log.filter((e) => e.seq > before.lastSeq);
      expect(
        today
          .filter((e) => e.type === 'cardChosen')
          .map((e) => e.data.seat)
          .sort(),
      ).toEqual([0, 1, 2, 3, 4, 5]);
      expect(today.filter((e) => e.type === 'cardChosen').every((e) => e.data.changed === false)).toBe(true);
      expect(today.filter((e) => e.type === 'sunrise')).toHaveLength(1);
      // Every chosen card left its owner's hand: each choice was played, none lost.
      const after = await Promise.all(
        tokens.map(async (t) => (await s.gql(GAME_QUERY, { id }, t)).data.game.me.hand as number[]),
      );
      after.forEach((h, i) => expect(h).not.toContain(picks[i]));
    }
  });
});

describe('retried requests', () => {
  it('the same requestId sent three times at once and again later is applied once and answered the same', async () => {
    const { id, tokens } = await sixHumanGame('retry');
    const hand = (await s.gql(GAME_QUERY, { id }, tokens[2])).data.game.me.hand;
    const burst = await Promise.all([1, 2, 3].map(() => s.gql(PLAY, { g: id, r: hand[0], q: 'retry-me' }, tokens[2])));
    for (const b of burst) expect(b).toEqual(burst[0]);
    expect(burst[0].data.playCard.me.choice).toBe(hand[0]);
    // Another seat moves; a late retry still gets the first answer.
    await s.gql(PLAY, { g: id, r: hand[1] }, tokens[3]);
    expect(await s.gql(PLAY, { g: id, r: hand[0], q: 'retry-me' }, tokens[2])).toEqual(burst[0]);
    const chosen = (await allEvents(s.gql, id)).filter((e) => e.type === 'cardChosen');
    expect(chosen.map((e) => e.data.seat)).toEqual([2, 3]);
  });
});
