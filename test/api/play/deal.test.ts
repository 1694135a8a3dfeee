// The deal is made when the game starts, never in the lobby: no hand, day loot, reputation
// track or loot tile is shown, logged or stored before startGame, so a creator cannot cancel and
// re-create a game until the hand suits them. From the start, the deal is the engine's for the
// game's seed with the current derivation (rngVersion 2).
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame as engineCreateGame } from '../../../functions/engine/index.js';
import { foldHead, insertNewGame } from '../../../functions/api/play/commit.js';
import type { GameDoc } from '../../../functions/api/doc.js';
import { unpack } from '../../../functions/store/dynamo/db.js';
import { createDynamoStore } from '../../../functions/store/index.js';
import { GAME_FIELDS, type DynamoTestApp, testApp } from '../../setup/app.js';
import { allEvents } from '../../setup/play.js';

let t: DynamoTestApp;
beforeAll(async () => {
  t = await testApp({ store: 'dynamodb' });
});
afterAll(() => t.close());

const FIELDS = `${GAME_FIELDS} rngVersion galecrest { reputation side tiles { kind side } }`;
const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { ${FIELDS} } }`;
const GAME = `query($id: ID!) { game(id: $id) { ${FIELDS} } }`;
const OPEN = `{ openGamesPage(first: 50) { games { id me { hand } days galecrest { reputation } seats { handSize doubloons } } } }`;

/** An item as JSON text, its packed (deflated) attributes unpacked as the store reads them. */
const readable = (item: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(Object.entries(item).map(([k, v]) => [k, v instanceof Uint8Array ? unpack(v) : v])),
  );

/** Every stored item of the game (snapshot, commits, events, indexes), as JSON text. */
async function storedItems(gameId: string): Promise<string[]> {
  const out: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await t.client.send(new ScanCommand({ TableName: t.tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) if (JSON.stringify(item).includes(gameId)) out.push(readable(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** A key of the engine state's deal in a stored item (JSON inside JSON: quotes may be escaped). */
const DEAL_KEYS = /\b(state|hand|deck|bag|rng)\\*"\s*:/;

/** A lobby as every kind of caller sees it: no deal anywhere. */
function expectNoDeal(game: any) {
  expect(game.status).toBe('LOBBY');
  expect(game.me?.hand ?? []).toEqual([]);
  expect(game.days).toEqual([]);
  expect(game.island).toEqual([]);
  expect(game.galecrest).toBeNull();
  for (const s of game.seats) expect([s.handSize, s.doubloons, s.reputation ?? null]).toEqual([0, 0, null]);
}

describe('the deal is made at the start', () => {
  it.each([
    { edition: 'CLASSIC', seats: 3 },
    { edition: 'GALECREST', seats: 3, board: 'CALM' },
  ])(
    '$edition: the lobby shows, logs and stores no hand; startGame deals from the seed with rngVersion 2',
    async (input) => {
      const [a, b] = await Promise.all([t.signUp('Anne Bonny'), t.signUp('Calico Jack')]);
      const created = await t.gql(CREATE, { i: input }, a.token);
      expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
      const id = created.data.createGame.id;
      expect(created.data.createGame.rngVersion).toBe(2);
      expectNoDeal(created.data.createGame);
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
      for (const token of [a.token, b.token, undefined]) expectNoDeal((await t.gql(GAME, { id }, token)).data.game);
      const listed = (await t.gql(OPEN, {}, b.token)).data.openGamesPage.games.find((g: any) => g.id === id);
      expect(listed).toMatchObject({ me: { hand: [] }, days: [], galecrest: null });
      // The log and the stored items: no state, hence no hand, deck or bag.
      const log = await allEvents(t.gql, id, a.token);
      expect(log.map((e) => e.type)).toEqual(['gameCreated', 'playerJoined', 'playerJoined']);
      const items = await storedItems(id);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item).not.toMatch(DEAL_KEYS);
      // The replay of the lobby (before the start) shows no deal either.
      const started = await t.gql(
        `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { ${FIELDS} } }`,
        { g: id },
        a.token,
      );
      expect(started.errors).toBeUndefined();
      const replayed = await t.gql(
        `query($id: ID!) { replay(gameId: $id, at: 3) { status me { hand } days } }`,
        { id },
        a.token,
      );
      expect(replayed.data.replay).toEqual({ status: 'LOBBY', me: { hand: [] }, days: [] });
      // From the start: the engine's deal for the (still secret) seed, version 2.
      const g = started.data.startGame;
      expect(g.status).toBe('ACTIVE');
      expect(g.me.hand.length).toBeGreaterThan(0);
      const head = await t.app.services.store.log.loadGame<GameDoc>(id);
      const doc = foldHead(t.app.services, id, head!).rec.doc;
      expect(doc.rngVersion).toBe(2);
      expect((await storedItems(id)).some((item) => DEAL_KEYS.test(item))).toBe(true); // the check above can see a deal
      const seed = doc.seed;
      const expected = engineCreateGame({
        edition: input.edition.toLowerCase() as never,
        players: 3,
        seed,
        rngVersion: 2,
        ...(input.board ? { board: input.board.toLowerCase() } : {}),
      });
      expect(g.me.hand).toEqual([...expected.seats[0].hand].sort((x, y) => x - y));
      expect(g.days).toEqual(expected.days);
    },
  );

  it('a lobby stored by an earlier version (its deal made at creation, rngVersion absent) shows no hand, and starts with version 2', async () => {
    const a = await t.signUp('Mary Read');
    const seed = 'an old server seed';
    const old = engineCreateGame({ edition: 'classic', players: 2, seed, rngVersion: 1 });
    const doc = {
      edition: 'classic' as const,
      board: null,
      creatorId: a.playerId,
      seats: [
        { playerId: a.playerId, name: 'Mary Read', bot: null },
        { playerId: null, name: null, bot: null },
      ],
      decisionTimeLimitHours: null,
      seed,
      state: old,
      pending: {},
      botKind: 'greedy' as const,
    };
    const id = crypto.randomUUID();
    await insertNewGame(t.app.services, id, doc, [{ type: 'gameCreated', data: {} }], new Date().toISOString());
    const lobby = (await t.gql(GAME, { id }, a.token)).data.game;
    expect(lobby.rngVersion).toBe(1);
    expectNoDeal(lobby);
    const started = (
      await t.gql(
        `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { rngVersion me { hand } days } }`,
        { g: id },
        a.token,
      )
    ).data.startGame;
    const fresh = engineCreateGame({ edition: 'classic', players: 2, seed, rngVersion: 2 });
    expect(started.rngVersion).toBe(2);
    expect(started.me.hand).toEqual([...fresh.seats[0].hand].sort((x, y) => x - y));
    expect(started.me.hand).not.toEqual([...old.seats[0].hand].sort((x, y) => x - y));
  });
});
