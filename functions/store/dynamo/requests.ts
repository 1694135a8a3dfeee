// Idempotency records: one small item per (game, caller, requestId), written once (before the
// commit that applies the request) with the request's fingerprint and the seq the game was at.
// The commit that applies it names the request (`req` on the commit item), so a retry finds its
// answer in the log: never a copy of the game here.
import { type Db, getItem, putItem, wonRace } from './db.js';
import { keys } from './table.js';
import type { RequestRecord } from '../records.js';

/** How long a record is kept (DynamoDB TTL on `expiresAt`, where the table enables it). */
const KEEP_SECONDS = 7 * 24 * 3600;

export async function getRequest(
  db: Db,
  gameId: string,
  scope: string,
  requestId: string,
): Promise<RequestRecord | null> {
  const r = await getItem(db, {
    TableName: db.table,
    Key: keys.request(gameId, scope, requestId),
    ConsistentRead: true,
  });
  if (!r.Item) return null;
  return { fingerprint: r.Item.fingerprint as string, after: r.Item.after as number };
}

/** Claims the request id; false if it was claimed before (a retry: read the record). */
export async function claimRequest(
  db: Db,
  gameId: string,
  scope: string,
  requestId: string,
  rec: RequestRecord,
  now: Date,
): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: {
        ...keys.request(gameId, scope, requestId),
        fingerprint: rec.fingerprint,
        after: rec.after,
        expiresAt: Math.floor(now.getTime() / 1000) + KEEP_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}
