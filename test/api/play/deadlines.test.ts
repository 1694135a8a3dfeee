// Deadlines (injected clock): the sweep plays the greedy bot's move for a late seat exactly
// once, even with two sweeps at once; after `timeoutsBeforeBot` timeouts in a row a bot takes
// the seat over and everyone sees it in the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, GAME_FIELDS, testApp } from '../../setup/app.js';
import { allEvents, PLAY } from '../../setup/play.js';

let t: Awaited<ReturnType<typeof testApp>>;
let clock = new Date('2031-03-01T08:00:00.000Z');
const at = (ms: number) => new Date(clock.getTime() + ms);
const HOUR = 3600_000;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
});
afterAll(() => t.close());

async function twoPlayerGame(input: Record<string, unknown>) {
  const [a, b] = await Promise.all([t.signUp('Late Anne'), t.signUp('Prompt Mary')]);
  const g = (
    await t.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
      { i: { edition: 'CLASSIC', seats: 2, ...input } },
      a.token,
    )
  ).data.createGame;
  await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: g.id }, b.token);
  const started = (
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { ${GAME_FIELDS} nextDeadline } }`, { g: g.id }, a.token)
  ).data.startGame;
  return { id: g.id as string, a, b, started };
}

const game = async (id: string, token?: string) =>
  (
    await t.gql(
      `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} nextDeadline timeoutsBeforeBot seats { seat timeouts replacedByBot isBot } } }`,
      { id },
      token,
    )
  ).data.game;

describe('deadlines', () => {
  it('a late seat gets the default move exactly once, even with two sweeps at once', async () => {
    const { id, a, b, started } = await twoPlayerGame({ seed: 'late', decisionTimeLimitHours: 2 });
    expect(started.nextDeadline).toBe(at(2 * HOUR).toISOString());
    expect(started.seats.map((s: any) => s.deadline)).toEqual([at(2 * HOUR).toISOString(), at(2 * HOUR).toISOString()]);
    const bHand = (await game(id, b.token)).me.hand;
    expect((await t.gql(PLAY, { g: id, r: bHand[0] }, b.token)).errors).toBeUndefined();
    const before = await game(id, a.token);
    expect(before.awaiting).toEqual([0]);

    // Not due yet: nothing happens.
    expect((await t.app.sweep(at(2 * HOUR - 1000))).timeouts).toBe(0);
    // Due: two sweeps race; one makes the move, the other finds nothing left to do.
    const results = await Promise.all([t.app.sweep(at(2 * HOUR)), t.app.sweep(at(2 * HOUR))]);
    expect(results.map((r) => r.timeouts).sort()).toEqual([0, 1]);
    expect((await t.app.sweep(at(2 * HOUR + 1000))).timeouts).toBe(0);

    const log = await allEvents(t.gql, id, a.token);
    const timeouts = log.filter((e) => e.type === 'timeout');
    expect(timeouts).toHaveLength(1);
    expect(timeouts[0].data).toEqual({ seat: 0, deadline: at(2 * HOUR).toISOString(), consecutive: 1 });
    // The default move follows the timeout: seat 0's card, shown to seat 0 only.
    const next = log[log.indexOf(timeouts[0]) + 1];
    expect(next).toMatchObject({ type: 'cardChosen', data: { seat: 0 } });
    expect(before.me.hand).toContain(next.data.rank);
    const forB = (await allEvents(t.gql, id, b.token)).find((e) => e.seq === next.seq);
    expect(forB.data).not.toHaveProperty('rank');
    const after = await game(id, a.token);
    expect(after.me.hand).not.toContain(next.data.rank);
    expect(after.seats[0].timeouts).toBe(1);
  });

  it('the player’s own move resets the count; too many timeouts in a row and a bot takes the seat', async () => {
    clock = new Date('2031-04-01T08:00:00.000Z');
    const { id, a, b } = await twoPlayerGame({ seed: 'absent', decisionTimeLimitHours: 1, timeoutsBeforeBot: 2 });
    expect((await game(id)).timeoutsBeforeBot).toBe(2);
    // Mary plays her own moves; Anne never does. Each hour the sweep plays for whoever is late.
    for (let i = 0; i < 60; i++) {
      const g = await game(id, b.token);
      if (g.seats[0].isBot || g.status !== 'ACTIVE') break;
      if (g.awaiting.includes(1)) {
        const p = g.me.prompts[0];
        const r = p
          ? await t.gql(
              `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }`,
              { g: id, p: p.id, o: p.options[0].id },
              b.token,
            )
          : await t.gql(PLAY, { g: id, r: g.me.hand[0] }, b.token);
        expect(r.errors).toBeUndefined();
        continue;
      }
      clock = at(HOUR);
      expect((await t.app.sweep()).timeouts).toBeGreaterThan(0);
    }
    const g = await game(id, a.token);
    expect(g.seats[0]).toMatchObject({ isBot: true, replacedByBot: true, timeouts: 2 });
    expect(g.seats[1]).toMatchObject({ isBot: false, replacedByBot: false, timeouts: 0 });
    expect(g.me.seat).toBe(0); // Anne still sees her seat
    const log = await allEvents(t.gql, id, b.token);
    expect(log.filter((e) => e.type === 'timeout').map((e) => e.data.seat)).toEqual([0, 0]);
    const replaced = log.filter((e) => e.type === 'seatReplaced');
    expect(replaced).toHaveLength(1);
    expect(replaced[0].data).toMatchObject({
      seat: 0,
      playerId: a.playerId,
      name: a.name,
      bot: 'greedy',
      timeouts: 2,
    });
    // The abandoned seat concedes right after (unless its last default move ended the game).
    const conceded = log.filter((e) => e.type === 'conceded');
    const endedFirst =
      log.findIndex((e) => e.type === 'gameEnd') >= 0 &&
      log.findIndex((e) => e.type === 'gameEnd') < log.indexOf(replaced[0]);
    expect(conceded.map((e) => e.data)).toEqual(endedFirst ? [] : [{ seat: 0 }]);
    if (!endedFirst) expect(conceded[0].seq).toBe(replaced[0].seq + 1);
    expect(
      (await t.gql(`query($id: ID!) { game(id: $id) { seats { conceded } } }`, { id }, a.token)).data.game.seats[0]
        .conceded,
    ).toBe(true);
    // Anne can no longer move; the bot answers at once, so only Mary is ever awaited now.
    const now = await game(id, a.token);
    if (now.status === 'ACTIVE') {
      expect(now.awaiting).toEqual([1]);
      expect(codeOf(await t.gql(PLAY, { g: id, r: now.me.hand[0] }, a.token))).toBe('FORBIDDEN');
    }
  });
});
