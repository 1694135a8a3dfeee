// Conditional moves (issue 26): playCard and answerPrompt with `ifVersion` refuse a move made on
// a view the game has moved on from (STALE, nothing applied), and a retried request (same
// requestId) is still answered from its commit, applied once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const VIEW = `query($g: ID!) { game(gameId: $g) { version lastSeq phase awaiting me { seat hand choice prompts { id options { id } } } } }`;
const PLAY = `mutation($g: ID!, $r: Int!, $v: Int, $q: ID) { playCard(gameId: $g, rank: $r, ifVersion: $v, requestId: $q) { version me { choice } } }`;

async function started() {
  const a = await t.signUp('Anne');
  const b = await t.signUp('Mary');
  const id = (await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, a.token)).data
    .createGame.id as string;
  await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
  await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
  const view = async (token: string) => (await t.gql(VIEW, { g: id }, token)).data.game;
  return { a, b, id, view };
}

const cardChosen = async (id: string, token: string) =>
  (
    await t.gql(
      `query($g: ID!) { eventsPage(gameId: $g, first: 100) { events { type ... on CardChosenEvent { seat changed } } } }`,
      { g: id },
      token,
    )
  ).data.eventsPage.events.filter((e: { type: string }) => e.type === 'cardChosen');

describe('conditional moves (ifVersion)', () => {
  it('refuse a card chosen on a stale view: STALE with the version now, the earlier choice kept', async () => {
    const { a, b, id, view } = await started();
    const seen = await view(a.token);
    // Anne chooses on what she sees: applied.
    const first = await t.gql(PLAY, { g: id, r: seen.me.hand[0], v: seen.version }, a.token);
    expect(first.errors).toBeUndefined();
    expect(first.data.playCard.me.choice).toBe(seen.me.hand[0]);
    // A bot of hers acting on the same (now old) view would replace it: refused, nothing changed.
    const stale = await t.gql(PLAY, { g: id, r: seen.me.hand[1], v: seen.version }, a.token);
    expect(codeOf(stale)).toBe('STALE');
    expect(stale.errors![0].extensions!.version).toBe(first.data.playCard.version);
    const after = await view(a.token);
    expect(after.me.choice).toBe(seen.me.hand[0]);
    expect(after.version).toBe(first.data.playCard.version);
    expect(await cardChosen(id, a.token)).toHaveLength(1);
    // Mary acting on a view from before Anne's choice: also refused (the game moved on).
    expect(codeOf(await t.gql(PLAY, { g: id, r: (await view(b.token)).me.hand[0], v: seen.version }, b.token))).toBe(
      'STALE',
    );
    // Without ifVersion a move is applied as before.
    const plain = await t.gql(PLAY, { g: id, r: (await view(b.token)).me.hand[0] }, b.token);
    expect(plain.errors).toBeUndefined();
  });

  it('refuse a prompt answered on a stale view', async () => {
    const { a, b, id, view } = await started();
    // Play cards (unconditionally) until a seat owes a prompt: not every day asks one.
    let holder: typeof a | null = null;
    let mine: any = null;
    for (let step = 0; step < 60 && !holder; step++) {
      for (const p of [a, b]) {
        const g = await view(p.token);
        if (g.me.prompts.length) [holder, mine] = [p, g];
        else if (g.phase === 'CHOOSE' && g.awaiting.includes(g.me.seat) && g.me.choice === null)
          await t.gql(PLAY, { g: id, r: g.me.hand[0] }, p.token);
      }
    }
    expect(holder).not.toBeNull();
    const prompt = mine.me.prompts[0];
    const ANSWER = `mutation($g: ID!, $p: ID!, $o: ID!, $v: Int) { answerPrompt(gameId: $g, promptId: $p, optionId: $o, ifVersion: $v) { version } }`;
    const stale = await t.gql(
      ANSWER,
      { g: id, p: prompt.id, o: prompt.options[0].id, v: mine.version - 1 },
      holder!.token,
    );
    expect(codeOf(stale)).toBe('STALE');
    expect((await view(holder!.token)).version).toBe(mine.version);
    const ok = await t.gql(ANSWER, { g: id, p: prompt.id, o: prompt.options[0].id, v: mine.version }, holder!.token);
    expect(ok.errors).toBeUndefined();
    expect(ok.data.answerPrompt.version).toBeGreaterThan(mine.version);
  });

  it('still answer a retried request (same requestId) from its commit, applied once, not STALE', async () => {
    const { a, id, view } = await started();
    const seen = await view(a.token);
    const vars = { g: id, r: seen.me.hand[2], v: seen.version, q: 'retry-me-1' };
    const first = await t.gql(PLAY, vars, a.token);
    const again = await t.gql(PLAY, vars, a.token);
    expect(again.errors).toBeUndefined();
    expect(again.data).toEqual(first.data);
    expect(await cardChosen(id, a.token)).toHaveLength(1);
    // The same requestId for another card is still a CONFLICT, stale or not.
    expect(codeOf(await t.gql(PLAY, { ...vars, r: seen.me.hand[3] }, a.token))).toBe('CONFLICT');
  });
});
