// What every store module needs: the document client and the table name.
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

export interface Db {
  doc: DynamoDBDocumentClient;
  table: string;
}

/** True for the "condition failed" answer of a conditional write (the race was lost). */
export function isConditionFailed(e: unknown): boolean {
  return (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/**
 * Up to `limit` items of an index query, following DynamoDB's pages; `pick` turns an item
 * (index keys only) into the value wanted, usually a game id.
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
    const r = await db.doc.send(new QueryCommand({ ...query, TableName: db.table, Limit: limit - out.length, ExclusiveStartKey: startKey }));
    for (const it of r.Items ?? []) out.push(pick(it));
    startKey = r.LastEvaluatedKey;
  } while (startKey && out.length < limit);
  return out;
}

/** Runs `fn` over `items` with at most `limit` calls in flight. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
