// What every store module needs: the document client and the table name.
import { QueryCommand, ScanCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface Db {
  doc: DynamoDBDocumentClient;
  table: string;
}

/** True for the "condition failed" answer of a conditional write (the race was lost). */
export function isConditionFailed(e: unknown): boolean {
  return (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/**
 * Awaits a conditional write: true when it was written, false when its condition failed (the
 * race was lost); any other error is thrown.
 */
export async function wonRace(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/**
 * Up to `limit` items of a query (`Infinity`: all of them), following DynamoDB's pages; `pick`
 * turns an item into the value wanted (for an index, usually a game id).
 */
export async function queryIndex<T>(
  db: Db,
  query: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  limit: number,
  pick: (item: Record<string, unknown>) => T,
): Promise<T[]> {
  const out: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = Number.isFinite(limit) ? { Limit: limit - out.length } : {};
    const r = await db.doc.send(
      new QueryCommand({ ...query, TableName: db.table, ...page, ExclusiveStartKey: startKey }),
    );
    for (const it of r.Items ?? []) out.push(pick(it));
    startKey = r.LastEvaluatedKey;
  } while (startKey && out.length < limit);
  return out;
}

/** A scan's LastEvaluatedKey as an opaque text (base64url JSON), null at the end of the scan. */
export function encodeScanCursor(key: Record<string, unknown> | undefined): string | null {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;
}

/** The ExclusiveStartKey of a cursor from encodeScanCursor (undefined: from the start). */
export function decodeScanCursor(cursor: string | null | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw new Error(`not a scan cursor: ${cursor}`);
  return key as Record<string, unknown>;
}

/**
 * One page of a table scan for the items of one kind (`SK` equal to `sk`, `PK` starting with
 * `pkPrefix`): maintenance scripts only. `limit` items are read per page (DynamoDB's Limit, before
 * the filter: a page may hold fewer, even none); `cursor` is the previous page's, null at the end.
 */
export async function scanKind(
  db: Db,
  kind: { sk: string; pkPrefix: string },
  limit: number,
  cursor: string | null,
): Promise<{ items: Record<string, unknown>[]; cursor: string | null }> {
  const r = await db.doc.send(
    new ScanCommand({
      TableName: db.table,
      FilterExpression: 'SK = :sk AND begins_with(PK, :pk)',
      ExpressionAttributeValues: { ':sk': kind.sk, ':pk': kind.pkPrefix },
      Limit: limit,
      ExclusiveStartKey: decodeScanCursor(cursor),
      ConsistentRead: true,
    }),
  );
  return { items: r.Items ?? [], cursor: encodeScanCursor(r.LastEvaluatedKey) };
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** JSON of at least this many bytes is stored deflated (a binary attribute): it pays from here. */
const PACK_FROM = 200;

/** A value as stored: JSON text, or deflated JSON (binary) when that is smaller. */
export function pack(value: unknown): string | Uint8Array {
  const json = JSON.stringify(value);
  if (json.length < PACK_FROM) return json;
  const z = deflateRawSync(json, { level: 6 });
  return z.length < json.length ? new Uint8Array(z.buffer, z.byteOffset, z.byteLength) : json;
}

export function unpack<T>(stored: unknown): T {
  if (typeof stored === 'string') return JSON.parse(stored) as T;
  return JSON.parse(inflateRawSync(stored as Uint8Array).toString('utf8')) as T;
}

/**
 * Up to `limit` items of an index whose partition key is sharded: one query per shard in
 * parallel (`query(shard)` gives each one's key condition), merged by sort key (descending
 * when `newestFirst`). A query per shard asks for `limit` items, so the merge is exact.
 */
export async function queryShards(
  db: Db,
  shards: number,
  query: (shard: number) => Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  sortKey: string,
  limit: number,
  newestFirst: boolean,
): Promise<Record<string, unknown>[]> {
  const parts = await Promise.all(
    Array.from({ length: shards }, (_, s) =>
      queryIndex(db, { ...query(s), ScanIndexForward: !newestFirst }, limit, (it) => it),
    ),
  );
  const all = parts.flat();
  all.sort((a, b) => {
    const x = a[sortKey] as string;
    const y = b[sortKey] as string;
    const c = x < y ? -1 : x > y ? 1 : 0;
    return newestFirst ? -c : c;
  });
  return all.slice(0, limit);
}
