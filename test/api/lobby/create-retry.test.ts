// createGame with a requestId: a retry (the first answer was lost) answers the game the first
// call created, never a second game; another requestId, or another player with the same one,
// creates another game.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const CREATE = `mutation($q: ID) { createGame(input: { edition: CLASSIC, seats: 3, requestId: $q }) { id } }`;
const MINE = `{ myGamesPage(first: 50) { games { id } } }`;

describe('createGame with a requestId', () => {
  it('is applied once per caller and request id, concurrent retries included', async () => {
    const anne = await t.signUp('Retrying Anne');
    const mary = await t.signUp('Retrying Mary');
    const first = (await t.gql(CREATE, { q: 'create-1' }, anne.token)).data.createGame.id;
    const again = await Promise.all([0, 1, 2].map(() => t.gql(CREATE, { q: 'create-1' }, anne.token)));
    expect(again.map((r) => r.data.createGame.id)).toEqual([first, first, first]);
    const other = (await t.gql(CREATE, { q: 'create-2' }, anne.token)).data.createGame.id;
    expect(other).not.toBe(first);
    expect((await t.gql(CREATE, { q: 'create-1' }, mary.token)).data.createGame.id).not.toBe(first);
    const mine = (await t.gql(MINE, {}, anne.token)).data.myGamesPage.games.map((g: { id: string }) => g.id);
    expect(mine.sort()).toEqual([first, other].sort());
    expect(codeOf(await t.gql(CREATE, { q: 'x'.repeat(65) }, anne.token))).toBe('BAD_USER_INPUT');
  });
});
