// Query.boards: the sides offered are exactly the sides a game can be created with, so a client
// that offers only these never shows a board that fails (the Stormy/Uncharted report).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

it('offers a board side if and only if creating a game with it works', async () => {
  const anne = await t.signUp('Anne Bonny');
  const offered = (await t.gql(`{ boards(edition: GALECREST) }`)).data.boards as string[];
  expect(offered[0]).toBe('CALM');
  expect((await t.gql(`{ boards(edition: CLASSIC) }`)).data.boards).toEqual([]);
  for (const board of ['CALM', 'STORMY', 'UNCHARTED']) {
    const r = await t.gql(
      `mutation { createGame(input: { edition: GALECREST, seats: 2, board: ${board} }) { id board } }`,
      {},
      anne.token,
    );
    if (offered.includes(board)) expect(r.data.createGame.board).toBe(board);
    else expect(codeOf(r)).toBe('NOT_AVAILABLE');
  }
});
