// Idempotency records: one item per (game, caller, requestId), written once after the commit
// that applied the request. It keeps the request's fingerprint (to refuse a reused id for a
// different command) and the answer, so a retry is answered exactly as the first call was.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailed } from './db.js';
import { keys } from './table.js';

/** How long a record is kept (DynamoDB TTL on `expiresAt`, where the table enables it). */
const KEEP_SECONDS = 7 * 24 * 3600;

export interface RequestRecord<A = unknown> {
  fingerprint: string;
  version: number;
  answer: A;
}

export async function getRequest<A>(db: Db, gameId: string, scope: string, requestId: string): Promise<RequestRecord<A> | null> {
  const r = await db.doc.send(new GetCommand({ TableName: db.table, Key: keys.request(gameId, scope, requestId), ConsistentRead: true }));
  if (!r.Item) return null;
  return { fingerprint: r.Item.fingerprint as string, version: r.Item.version as number, answer: JSON.parse(r.Item.answer as string) as A };
}

/** Writes the record once; a second writer (a concurrent retry) leaves the first in place. */
export async function putRequest(db: Db, gameId: string, scope: string, requestId: string, rec: RequestRecord, now: Date): Promise<void> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...keys.request(gameId, scope, requestId),
          fingerprint: rec.fingerprint,
          version: rec.version,
          answer: JSON.stringify(rec.answer),
          expiresAt: Math.floor(now.getTime() / 1000) + KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
  }
}
