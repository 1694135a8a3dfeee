// Retention: a game that is over keeps its summary, ranking, scenario and replays for good; its
// log (the commit items: events, recipes, notices) gets a TTL of RETENTION_DAYS from the sweep
// that archives it. dynalite has no TTL: the test checks the attribute written on exactly the
// right items, then deletes the commit items itself (what DynamoDB's TTL does) and reads again.
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_DAYS } from '../../../functions/api/ops/retention.js';
import { GAME_FIELDS, type DynamoTestApp, testApp } from '../../setup/app.js';
import { GAME_QUERY, playToEnd } from '../../setup/play.js';

let t: DynamoTestApp;
let clock = new Date('2026-03-01T10:00:00.000Z');
let anne: { playerId: string; token: string };
let gameId: string;
const REPLAY = `query($g: ID!, $at: Int!) { replay(gameId: $g, at: $at) { ${GAME_FIELDS} } }`;
const FINAL = `query($id: ID!) { game(id: $id) { status version lastSeq ranking { place seat name score } scenario seats { seat score doubloons } } }`;

const items = async () =>
  (
    await t.client.send(
      new QueryCommand({
        TableName: t.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `GAME#${gameId}` },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

beforeAll(async () => {
  t = await testApp({ store: 'dynamodb', now: () => clock });
  anne = await t.signUp('Anne Bonny');
  gameId = (
    await t.gql(
      `mutation { createGame(input: { edition: CLASSIC, seats: 3, seed: "kept for good" }) { id } }`,
      {},
      anne.token,
    )
  ).data.createGame.id;
  expect(
    (
      await t.gql(
        `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true, botKind: RANDOM) { id } }`,
        { g: gameId },
        anne.token,
      )
    ).errors,
  ).toBeUndefined();
  // A move with a requestId: its claim item has its own 7-day TTL from the start.
  const me = (await t.gql(GAME_QUERY, { id: gameId }, anne.token)).data.game.me;
  expect(
    (
      await t.gql(
        `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r, requestId: "r1") { id } }`,
        { g: gameId, r: me.hand[0] },
        anne.token,
      )
    ).errors,
  ).toBeUndefined();
  await playToEnd(t.gql, gameId, [anne.token, null, null], 5);
});
afterAll(() => t.close());

describe('a finished game after its retention', () => {
  let before: any;
  let replayBefore: any;

  it('before the sweep nothing of the game carries a TTL but the request claim', async () => {
    before = (await t.gql(FINAL, { id: gameId }, anne.token)).data.game;
    expect(before.status).toBe('FINISHED');
    expect(before.scenario.commands.length).toBeGreaterThan(20);
    replayBefore = (await t.gql(REPLAY, { g: gameId, at: Math.floor(before.lastSeq / 2) }, anne.token)).data.replay;
    const withTtl = (await items()).filter((it) => it.expiresAt !== undefined).map((it) => it.SK);
    expect(withTtl).toHaveLength(1);
    expect(withTtl[0]).toMatch(/^REQUEST#/);
  });

  it('the sweep archives the log once: every commit item gets expiresAt = now + RETENTION_DAYS; snapshot, member and archive get none', async () => {
    clock = new Date(clock.getTime() + 60_000);
    const r = await t.app.sweep();
    expect(r.archived).toBe(1);
    const expected = Math.floor(clock.getTime() / 1000) + RETENTION_DAYS * 86_400;
    const all = await items();
    const commits = all.filter((it) => (it.SK as string).startsWith('COMMIT#'));
    expect(commits.length).toBeGreaterThan(10);
    for (const c of commits) expect(c.expiresAt).toBe(expected);
    for (const it of all.filter(
      (x) => ['GAME', 'ARCHIVE'].includes(x.SK as string) || (x.SK as string).startsWith('MEMBER#'),
    ))
      expect(it).not.toHaveProperty('expiresAt');
    expect(all.map((it) => it.SK)).toEqual(expect.arrayContaining(['GAME', 'ARCHIVE', `MEMBER#${anne.playerId}`]));
    expect(all.find((it) => it.SK === 'GAME')).not.toHaveProperty('GSI3PK');
    clock = new Date(clock.getTime() + 60_000);
    expect((await t.app.sweep()).archived).toBe(0);
  });

  it('once DynamoDB has deleted the commit items, the game still answers its summary, ranking, scenario and replays', async () => {
    for (const it of await items()) {
      if ((it.SK as string).startsWith('COMMIT#') || (it.SK as string).startsWith('REQUEST#')) {
        await t.client.send(new DeleteCommand({ TableName: t.tableName, Key: { PK: it.PK, SK: it.SK } }));
      }
    }
    expect((await items()).map((it) => it.SK).sort()).toEqual(['ARCHIVE', 'GAME', `MEMBER#${anne.playerId}`]);
    const after = (await t.gql(FINAL, { id: gameId }, anne.token)).data.game;
    expect(after).toEqual(before);
    const spectator = (await t.gql(GAME_QUERY, { id: gameId })).data.game;
    expect(spectator.ranking).toEqual((await t.gql(GAME_QUERY, { id: gameId }, anne.token)).data.game.ranking);
    const replay = await t.gql(REPLAY, { g: gameId, at: Math.floor(before.lastSeq / 2) }, anne.token);
    expect(replay.errors).toBeUndefined();
    expect(replay.data.replay).toEqual(replayBefore);
    const rest = await t.app.rest({ method: 'GET', path: `/games/${gameId}/scenario`, query: {}, headers: {} });
    expect(JSON.parse(rest.body)).toEqual(before.scenario);
    const mine = await t.gql(`{ myGamesPage(status: FINISHED) { games { id status } } }`, {}, anne.token);
    expect(mine.data.myGamesPage.games).toEqual([{ id: gameId, status: 'FINISHED' }]);
    // The event feed is what went: it answers an empty page, not an error.
    const ev = await t.gql(
      `query($g: ID!) { events(gameId: $g) { events { seq } hasMore } }`,
      { g: gameId },
      anne.token,
    );
    expect(ev.data.events).toEqual({ events: [], hasMore: false });
  });
});
