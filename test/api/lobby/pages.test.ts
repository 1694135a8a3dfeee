// Every list that can grow pages the same way: `first` after the cursor `after`, answered with
// `pageInfo { hasNextPage endCursor }`, newest first for games, with documented maxima.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAMES_PAGE } from '../../../functions/api/lobby/pages.js';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
let tick = 0;
beforeAll(async () => {
  t = await testApp({ now: () => new Date(Date.UTC(2032, 0, 1) + ++tick * 1000) });
});
afterAll(() => t.close());

const MY = `query($s: GameStatus, $f: Int, $a: String) { myGamesPage(status: $s, first: $f, after: $a) { games { id status } pageInfo { hasNextPage endCursor } } }`;
const OPEN = `query($f: Int, $a: String) { openGamesPage(first: $f, after: $a) { games { id } pageInfo { hasNextPage endCursor } } }`;

async function all(query: string, vars: Record<string, unknown>, field: string, token?: string) {
  const ids: string[] = [];
  let pages = 0;
  for (let after: string | null = null; ; pages++) {
    const r: { errors?: unknown; data?: any } = await t.gql(query, { ...vars, a: after }, token);
    expect(r.errors).toBeUndefined();
    const page: any = r.data[field];
    ids.push(...page.games.map((g: any) => g.id));
    if (!page.pageInfo.hasNextPage) return { ids, pages: pages + 1 };
    after = page.pageInfo.endCursor;
  }
}

describe('game lists page with a cursor', () => {
  it('myGamesPage and openGamesPage walk every game once, newest first, filtered by status', async () => {
    const a = await t.signUp('Pager');
    const b = await t.signUp('Joiner');
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const g = (
        await t.gql(
          `mutation { createGame(input: { edition: CLASSIC, seats: 2${i % 3 === 0 ? ', bots: 1' : ''} }) { id } }`,
          {},
          a.token,
        )
      ).data.createGame.id;
      if (i % 3 === 0) await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g }, a.token);
      created.push(g);
    }
    const newest = [...created].reverse();
    const mine = await all(MY, { f: 3 }, 'myGamesPage', a.token);
    expect(mine.ids).toEqual(newest);
    expect(mine.pages).toBe(3);
    const active = await all(MY, { f: 2, s: 'ACTIVE' }, 'myGamesPage', a.token);
    expect(active.ids).toEqual(newest.filter((_, i) => (6 - i) % 3 === 0));
    const open = await all(OPEN, { f: 2 }, 'openGamesPage');
    expect(open.ids).toEqual(newest.filter((_, i) => (6 - i) % 3 !== 0));
    // A joined game is no longer open; the deprecated lists still answer.
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: created[1] }, b.token);
    expect((await all(OPEN, { f: 50 }, 'openGamesPage')).ids).not.toContain(created[1]);
    expect((await t.gql(`{ myGames { id } }`, {}, a.token)).data.myGames.map((g: any) => g.id)).toEqual(newest);
    expect((await t.gql(MY, {}, b.token)).data.myGamesPage).toMatchObject({
      games: [{ id: created[1] }],
      pageInfo: { hasNextPage: false },
    });
  });

  it('refuses sizes out of range and cursors it did not make', async () => {
    const a = await t.signUp('Bad pager');
    expect(codeOf(await t.gql(MY, { f: GAMES_PAGE.max + 1 }, a.token))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(OPEN, { f: 0 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(OPEN, { a: 'not-a-cursor' }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(MY, {}))).toBe('UNAUTHENTICATED');
  });
});

describe('the event log pages the same way', () => {
  it('first/after with pageInfo; limit is the older name of first; endCursor polls on an empty page', async () => {
    const a = await t.signUp('Log pager');
    const g = (
      await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 3, bots: 2 }) { id } }`, {}, a.token)
    ).data.createGame.id;
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g }, a.token);
    const q = `query($g: ID!, $a: Int, $f: Int, $l: Int) { events(gameId: $g, after: $a, first: $f, limit: $l) { hasMore events { seq } pageInfo { hasNextPage endCursor } } }`;
    const seqs: number[] = [];
    let after = 0;
    for (;;) {
      const page = (await t.gql(q, { g, a: after, f: 4 })).data.events;
      expect(page.hasMore).toBe(page.pageInfo.hasNextPage);
      seqs.push(...page.events.map((e: any) => e.seq));
      after = page.pageInfo.endCursor;
      if (!page.pageInfo.hasNextPage) break;
    }
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const tail = (await t.gql(q, { g, a: after })).data.events;
    expect(tail).toEqual({ hasMore: false, events: [], pageInfo: { hasNextPage: false, endCursor: after } });
    expect((await t.gql(q, { g, l: 2 })).data.events.events).toHaveLength(2);
    expect(codeOf(await t.gql(q, { g, l: 2, f: 3 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(q, { g, f: 101 }))).toBe('BAD_USER_INPUT');
  });
});
