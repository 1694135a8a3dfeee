// The DynamoDB adapter's game items as stored (what the contract suite cannot see through the
// ports): index shards, the attributes markArchived and expireCommits write, and loads once the
// table's TTL has deleted a finished game's commit items.
import { DeleteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStore, INDEX_SHARDS, keys, shardOf, type Store } from '../../../functions/store/index.js';
import { freshTable } from '../../setup/db.js';
import { AT, commit, game, history } from '../contract/game-fixtures.js';

let store: Store;
let client: DynamoDBDocumentClient;
let tableName: string;

beforeAll(async () => {
  ({ client, tableName } = await freshTable('dynamo-games'));
  store = createDynamoStore({ tableName, client });
});

const raw = async (Key: Record<string, string>) =>
  (await client.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }))).Item;

describe('sharded indexes', () => {
  it('spreads ids over every shard', () => {
    const seen = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`game-${i}`)));
    expect(seen.size).toBe(INDEX_SHARDS);
  });
});

describe('retention of games that are over (TTL on the log)', () => {
  it('markArchived takes the snapshot out of the due-work index only (it stays in the status index)', async () => {
    const g = game({ status: 'FINISHED', archiveAt: '2024-01-02T00:00:00.000Z' });
    await store.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }));
    expect(await raw(keys.game(g.id))).toHaveProperty('GSI3PK');
    expect(await store.ops.markArchived(g.id, 1)).toBe(true);
    const snap = await raw(keys.game(g.id));
    expect(snap).not.toHaveProperty('archiveAt');
    expect(snap).not.toHaveProperty('GSI3PK');
    expect(snap).toHaveProperty('GSI2PK');
  });

  it('expireCommits writes expiresAt on the named commit items only: never on the snapshot, the members, the archive or other commits', async () => {
    const { g } = await history(store, 5, 5);
    await store.members.putMember(g.id, 'p1', g.createdAt);
    await store.ops.saveArchive(g.id, { commands: [] }, AT);
    const t = 1_900_000_000;
    // Commits 1..4 (first seqs 1, 2, 4, 6); commit 5 (first seq 8) is left out.
    await store.ops.expireCommits(g.id, [1, 2, 4, 6], t);
    for (const seq of [1, 2, 4, 6]) expect((await raw(keys.commit(g.id, seq)))!.expiresAt).toBe(t);
    expect(await raw(keys.commit(g.id, 8))).not.toHaveProperty('expiresAt');
    for (const SK of ['GAME', 'MEMBER#p1', 'ARCHIVE'])
      expect(await raw({ PK: `GAME#${g.id}`, SK })).not.toHaveProperty('expiresAt');
    await store.ops.expireCommits(g.id, [99], t);
    expect(await raw(keys.commit(g.id, 99))).toBeUndefined();
  });

  it('a game whose commit items are gone (TTL) still loads from its snapshot, alone and in a batch', async () => {
    const { g, lastSeq } = await history(store, 4, 4);
    for (const seq of [1, 2, 4, 6])
      await client.send(new DeleteCommand({ TableName: tableName, Key: keys.commit(g.id, seq) }));
    const head = await store.log.loadGame(g.id);
    expect(head).toEqual({ game: { ...g, version: 4, lastSeq }, tail: [] });
    expect(await store.log.getGames([g.id], false)).toEqual([head]);
    expect((await store.log.listEvents(g.id, 0, 10)).events).toEqual([]);
  });
});
