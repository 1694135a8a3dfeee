// Event items: one per seq, written once (attribute_not_exists) from a game's outbox, so a
// copy interrupted half-way can be redone by anyone without duplicating or reordering.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, eachLimited, isConditionFailed } from './db.js';
import { keys } from './table.js';

/** An event as stored: the engine's event plus its place (`seq`) and commit time (`at`). */
export interface StoredEvent {
  seq: number;
  at: string;
  type: string;
  data: Record<string, unknown>;
  /** Seen only by `secret.seat`; the API filters it through the engine's viewEvent. */
  secret?: { seat: number; data: Record<string, unknown> };
  /** Who caused the change: the player and the OAuth client of the request (absent: the service). */
  actor?: { playerId: string | null; clientId: string | null };
}

/** Copies events to their own items; already copied ones are left as they are. */
export async function copyEvents(db: Db, gameId: string, events: StoredEvent[]): Promise<void> {
  await eachLimited(events, 16, async (e) => {
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: { ...keys.event(gameId, e.seq), seq: e.seq, at: e.at, type: e.type, body: JSON.stringify({ data: e.data, secret: e.secret, actor: e.actor }) },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  });
}

/** Events with seq > after, oldest first, at most `limit`; `hasMore` if the log goes on. */
export async function listEvents(db: Db, gameId: string, after: number, limit: number): Promise<{ events: StoredEvent[]; hasMore: boolean }> {
  const out: StoredEvent[] = [];
  let startKey: Record<string, unknown> | undefined;
  // Pages are small in practice; the loop covers DynamoDB's 1 MB page limit.
  do {
    const r = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.game(gameId).PK, ':from': keys.eventSk(after + 1), ':to': keys.eventSk(9_999_999_999) },
        ConsistentRead: true,
        Limit: limit + 1 - out.length,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const it of r.Items ?? []) {
      const body = JSON.parse(it.body as string) as Pick<StoredEvent, 'data' | 'secret' | 'actor'>;
      out.push({ seq: it.seq as number, at: it.at as string, type: it.type as string, data: body.data, ...(body.secret ? { secret: body.secret } : {}), ...(body.actor ? { actor: body.actor } : {}) });
    }
    startKey = r.LastEvaluatedKey;
  } while (startKey && out.length <= limit);
  const hasMore = out.length > limit;
  return { events: out.slice(0, limit), hasMore };
}
