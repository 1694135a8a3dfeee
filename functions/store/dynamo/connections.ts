// Push subscriptions in the service table, in partitions of their own (no game item is touched):
//
// | Item | PK | SK | Attributes |
// | Subscription | `PUSH#<gameId>` | `CONN#<connectionId>` | `playerId`, `expiresAt` (TTL) |
// | Connection | `CONN#<connectionId>` | `CONN` | `games` (string set), `playerId`, `session`, `expiresAt` (TTL) |
// | Player's connection | `PUSHP#<playerId>` | `CONN#<connectionId>` | `expiresAt` (TTL) |
//
// The player's connections are what signOut / revokeTokens close (every instance, AWS too: the
// gateway's DeleteConnection); `session` is the token stamp the connection was opened with.
//
// A fan-out is one eventually consistent Query of `PUSH#<gameId>`; a connection that is gone
// (closed without $disconnect) is deleted when a post finds it gone, or expires by TTL. The
// bounds are the push protocol's (functions/push/protocol.ts), handed in by the caller.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Db, deleteItem, getItem, isConditionFailed, putItem, queryItems, updateItem } from './db.js';
import type { Subscriber } from '../records.js';
import type { PushStore } from '../ports.js';

export interface PushStoreConfig {
  tableName: string;
  client: DynamoDBDocumentClient;
  /** Games one connection may be subscribed to (MAX_SUBSCRIPTIONS). */
  maxSubscriptions: number;
  /** How long connection and subscription items live (CONNECTION_TTL_SECONDS: past API Gateway's own limit). */
  ttlSeconds: number;
}

// The three keys of the table above.
const sub = (gameId: string, connectionId: string) => ({ PK: `PUSH#${gameId}`, SK: `CONN#${connectionId}` });
const conn = (connectionId: string) => ({ PK: `CONN#${connectionId}`, SK: 'CONN' });
const byPlayer = (playerId: string, connectionId: string) => ({ PK: `PUSHP#${playerId}`, SK: `CONN#${connectionId}` });

/** Every item of partition `pk`, page after page. */
async function wholePartition(
  db: Db,
  pk: string,
  extra: { ConsistentRead?: boolean; ProjectionExpression?: string },
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const r = await queryItems(db, {
      TableName: db.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ExclusiveStartKey: startKey,
      ...extra,
    });
    out.push(...(r.Items ?? []));
    startKey = r.LastEvaluatedKey;
  } while (startKey);
  return out;
}

export function createPushStore({
  tableName: table,
  client: doc,
  maxSubscriptions,
  ttlSeconds,
}: PushStoreConfig): PushStore {
  const db: Db = { doc, table };
  const ttl = (now: Date) => Math.floor(now.getTime() / 1000) + ttlSeconds;
  return {
    async connect(connectionId, playerId, now) {
      await putItem(db, {
        TableName: table,
        Item: { ...byPlayer(playerId, connectionId), connectionId, expiresAt: ttl(now) },
      });
      await updateItem(db, {
        TableName: table,
        Key: conn(connectionId),
        UpdateExpression: 'SET playerId = :p, expiresAt = :t',
        ExpressionAttributeValues: { ':p': playerId, ':t': ttl(now) },
      });
    },
    async connectionsOf(playerId) {
      const items = await wholePartition(db, `PUSHP#${playerId}`, { ConsistentRead: true });
      // Past the TTL the item is gone on AWS but may linger (dynalite, TTL's lag): not a connection.
      const now = Math.floor(Date.now() / 1000);
      return items.filter((it) => Number(it.expiresAt) > now).map((it) => String(it.connectionId));
    },
    async subscribe(connectionId, gameId, playerId, now) {
      try {
        await updateItem(db, {
          TableName: table,
          Key: conn(connectionId),
          UpdateExpression: 'ADD games :g SET expiresAt = :t',
          ConditionExpression: 'attribute_not_exists(games) OR size(games) < :max OR contains(games, :id)',
          ExpressionAttributeValues: {
            ':g': new Set([gameId]),
            ':t': ttl(now),
            ':max': maxSubscriptions,
            ':id': gameId,
          },
        });
      } catch (e) {
        if (isConditionFailed(e)) return false;
        throw e;
      }
      await putItem(db, {
        TableName: table,
        Item: { ...sub(gameId, connectionId), connectionId, ...(playerId ? { playerId } : {}), expiresAt: ttl(now) },
      });
      return true;
    },
    async unsubscribe(connectionId, gameId) {
      await deleteItem(db, { TableName: table, Key: sub(gameId, connectionId) });
      await updateItem(db, {
        TableName: table,
        Key: conn(connectionId),
        UpdateExpression: 'DELETE games :g',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':g': new Set([gameId]) },
      }).catch((e) => {
        if (!isConditionFailed(e)) throw e;
      });
    },
    async disconnect(connectionId) {
      const r = await getItem(db, { TableName: table, Key: conn(connectionId) });
      const games = [...((r.Item?.games as Set<string> | undefined) ?? [])];
      await Promise.all(games.map((g) => deleteItem(db, { TableName: table, Key: sub(g, connectionId) })));
      if (typeof r.Item?.playerId === 'string')
        await deleteItem(db, { TableName: table, Key: byPlayer(r.Item.playerId, connectionId) });
      if (r.Item) await deleteItem(db, { TableName: table, Key: conn(connectionId) });
    },
    async subscribers(gameId) {
      // Eventually consistent (half the price): a subscription made in the last instant may
      // miss one push, and its `subscribed` answer already carried the version.
      const items = await wholePartition(db, `PUSH#${gameId}`, { ProjectionExpression: 'connectionId, playerId' });
      return items.map(
        (it): Subscriber => ({
          connectionId: String(it.connectionId),
          playerId: typeof it.playerId === 'string' ? it.playerId : null,
        }),
      );
    },
    async forget(gameId, connectionId) {
      await deleteItem(db, { TableName: table, Key: sub(gameId, connectionId) });
    },
  };
}
