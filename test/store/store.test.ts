// The game, member, request, event, outbox, archive and due-work cases are the contract suite's
// (test/store/contract/), run on both adapters; the DynamoDB items themselves: test/store/dynamo/.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkSchema, createDynamoStore, OldSchemaError, type Store } from '../../functions/store/index.js';
import { freshTable } from '../setup/db.js';

let store: Store;

beforeAll(async () => {
  const { client, tableName } = await freshTable('store');
  store = createDynamoStore({ tableName, client });
});

const AT = '2024-01-01T00:00:00.000Z';

describe('players', () => {
  it('signs a player up once', async () => {
    const p = { id: `p-${Date.now()}`, name: 'Anne Bonny', createdAt: AT };
    expect(await store.players.insertPlayer(p)).toBe(true);
    expect(await store.players.insertPlayer({ ...p, name: 'other' })).toBe(false);
    expect(await store.players.getPlayer(p.id)).toEqual(p);
    expect(await store.players.getPlayer('nobody')).toBeNull();
  });

  it('a bounded set on the player item admits exactly max members under concurrent adds', async () => {
    const p = { id: `set-${Date.now()}`, name: 'Set Keeper', createdAt: AT };
    await store.players.insertPlayer(p);
    const added = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.players.addToPlayerSet(p.id, 'held', `m${i}`, 4)),
    );
    expect(added.filter(Boolean)).toHaveLength(4);
    const held = await store.players.listPlayerSet(p.id, 'held');
    expect(held).toHaveLength(4);
    expect(await store.players.addToPlayerSet(p.id, 'held', held[0], 4)).toBe(true); // already there: no change
    await store.players.removeFromPlayerSet(p.id, 'held', held[0]);
    await store.players.removeFromPlayerSet(p.id, 'held', held[0]); // idempotent
    expect(await store.players.listPlayerSet(p.id, 'held')).toHaveLength(3);
    expect(await store.players.addToPlayerSet(p.id, 'held', 'again', 4)).toBe(true);
    expect(await store.players.addToPlayerSet(p.id, 'held', 'over', 4)).toBe(false);
    expect(await store.players.addToPlayerSet(p.id, 'held', 'uncapped')).toBe(true);
    expect(await store.players.addToPlayerSet('nobody', 'held', 'x', 4)).toBe(false);
    expect(await store.players.getPlayer(p.id)).toEqual(p); // the profile is unchanged
  });

  it('a counter on the player item counts concurrent first uses of a window exactly', async () => {
    const p = { id: `count-${Date.now()}`, name: 'Counter', createdAt: AT };
    await store.players.insertPlayer(p);
    const ok = await Promise.all(
      Array.from({ length: 10 }, () => store.players.countOnPlayer(p.id, 'made', '2024-01-01T10', 6)),
    );
    expect(ok.filter(Boolean)).toHaveLength(6);
    expect(await store.players.countOnPlayer(p.id, 'made', '2024-01-01T11', 6)).toBe(true); // a new window
  });
});

describe('schema check', () => {
  it('marks an empty table, accepts it again, and refuses a table written by the first version', async () => {
    const { client: c3, tableName: t3 } = await freshTable('schema');
    await checkSchema(c3, t3);
    await checkSchema(c3, t3);
    const { client: c4, tableName: t4 } = await freshTable('old');
    await c4.send(
      new PutCommand({
        TableName: t4,
        Item: { PK: 'GAME#old', SK: 'GAME', version: 3, doc: '{}', outbox: '[]', requests: '{}' },
      }),
    );
    await expect(checkSchema(c4, t4)).rejects.toThrow(OldSchemaError);
    await expect(checkSchema(c4, t4)).rejects.toThrow(/mv \.data \.data-v1/);
  });
});
