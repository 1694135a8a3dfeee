// What every store module needs: the document client and the table name, and the calls on them.
import {
  type AttributeValue,
  BatchGetItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand as QueryItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  type BatchGetCommandInput,
  type BatchGetCommandOutput,
  type DeleteCommandInput,
  type DeleteCommandOutput,
  type DynamoDBDocumentClient,
  type GetCommandInput,
  type GetCommandOutput,
  type PutCommandInput,
  type PutCommandOutput,
  type QueryCommandInput,
  type QueryCommandOutput,
  ScanCommand,
  type UpdateCommandInput,
  type UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { convertToAttr, convertToNative, type marshallOptions, type unmarshallOptions } from '@aws-sdk/util-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface Db {
  doc: DynamoDBDocumentClient;
  table: string;
}

// ---- the calls ----
//
// `doc.send(new GetCommand(...))` resolves the client's whole middleware stack on every call (a
// new stack per command, sorted, and a new chain of handlers) and translates through
// lib-dynamodb's generic key walk: a third of a store call's CPU. The calls below run the same
// middleware (retries, signing, endpoint, errors, and whatever a caller added to the client's
// stack) through a handler resolved once per client and kind of call, and marshal the values
// with @aws-sdk/util-dynamodb's own converters, in that handler at the place lib-dynamodb's
// marshalling middleware takes (before the serializer, after the deserializer): middleware
// added on the client still sees plain values, as with the document client.
// A handler is resolved on the client's stack as it is then: code that adds middleware to a
// client already used calls `forgetHandlers(client)` after (see test/infra/telemetry.test.ts).

type Item = Record<string, unknown>;
type Attrs = Record<string, AttributeValue>;
type Handler = (args: { input: object }) => Promise<{ output: object }>;
type Args = { input: Record<string, unknown> };
type Next = (args: Args) => Promise<{ output: Record<string, unknown> }>;

/** One kind of call: its client command and how its input and output are translated. */
interface Kind {
  Command: new (
    input: never,
  ) => {
    middlewareStack: { addRelativeTo(middleware: (next: Next) => Next, options: object): void };
    resolveMiddleware(stack: unknown, config: unknown, options: undefined): unknown;
  };
  input(i: Record<string, unknown>, m: marshallOptions): object;
  output(o: Record<string, unknown>, u: unmarshallOptions): void;
}

/** A map of plain values as attribute values (each value as lib-dynamodb's marshalling makes it). */
function toAttrs(o: unknown, m: marshallOptions): Attrs | undefined {
  if (o === undefined) return undefined;
  const out: Attrs = {};
  for (const [k, v] of Object.entries(o as Item)) {
    if (v !== undefined && typeof v !== 'function') out[k] = convertToAttr(v, m);
  }
  return out;
}

function fromAttrs(o: unknown, u: unmarshallOptions): Item | undefined {
  if (o === undefined) return undefined;
  const out: Item = {};
  for (const [k, v] of Object.entries(o as Attrs)) out[k] = convertToNative(v, u);
  return out;
}

/** `field` of `o` translated by `f`, set only if it was there (as lib-dynamodb does). */
function translate<T>(o: Record<string, unknown>, field: string, f: (v: unknown, opts: T) => unknown, opts: T): void {
  if (o[field] !== undefined) o[field] = f(o[field], opts);
}

const withValues = (i: Record<string, unknown>, m: marshallOptions, ...fields: string[]) => {
  const out = { ...i };
  for (const f of [...fields, 'ExpressionAttributeValues']) translate(out, f, toAttrs, m);
  return out;
};

/** A single-item call: `key` (Key or Item) marshalled with the values, `answer` unmarshalled. */
const itemKind = (Command: unknown, key: 'Key' | 'Item', answer: 'Item' | 'Attributes'): Kind => ({
  Command: Command as Kind['Command'],
  input: (i, m) => withValues(i, m, key),
  output: (o, u) => translate(o, answer, fromAttrs, u),
});
const GET = itemKind(GetItemCommand, 'Key', 'Item');
const PUT = itemKind(PutItemCommand, 'Item', 'Attributes');
const UPDATE = itemKind(UpdateItemCommand, 'Key', 'Attributes');
const DELETE = itemKind(DeleteItemCommand, 'Key', 'Attributes');
const QUERY: Kind = {
  Command: QueryItemsCommand as never,
  input: (i, m) => withValues(i, m, 'ExclusiveStartKey'),
  output: (o, u) => {
    translate(o, 'Items', (items, opts: unmarshallOptions) => (items as Attrs[]).map((it) => fromAttrs(it, opts)), u);
    translate(o, 'LastEvaluatedKey', fromAttrs, u);
  },
};
/** Each table's keys (requests) or items (answers), translated by `f`. */
const perTable = (tables: unknown, f: (t: Record<string, unknown>) => unknown) =>
  Object.fromEntries(Object.entries(tables as Record<string, Record<string, unknown>>).map(([n, t]) => [n, f(t)]));
const keysOf = <T>(t: Record<string, unknown>, f: (k: unknown, opts: T) => unknown, opts: T) =>
  t.Keys === undefined ? t : { ...t, Keys: (t.Keys as unknown[]).map((k) => f(k, opts)) };
const BATCH_GET: Kind = {
  Command: BatchGetItemCommand as never,
  input: (i, m) => ({ ...i, RequestItems: perTable(i.RequestItems, (t) => keysOf(t, toAttrs, m)) }),
  output: (o, u) => {
    translate(
      o,
      'Responses',
      (r) => perTable(r, (items) => (items as unknown as Attrs[]).map((it) => fromAttrs(it, u))),
      u,
    );
    translate(o, 'UnprocessedKeys', (r) => perTable(r, (t) => keysOf(t, fromAttrs, u)), u);
  },
};

const handlers = new WeakMap<DynamoDBDocumentClient, Map<Kind, Handler>>();

/** The handler of `kind` on this client: resolved on its first call, then reused. */
function handlerOf(doc: DynamoDBDocumentClient, kind: Kind): Handler {
  let byKind = handlers.get(doc);
  if (!byKind) handlers.set(doc, (byKind = new Map()));
  let handler = byKind.get(kind);
  if (!handler) {
    const { marshallOptions: m = {}, unmarshallOptions: u = {} } = doc.config.translateConfig ?? {};
    const command = new kind.Command({} as never);
    command.middlewareStack.addRelativeTo(
      (next) => (args) => next({ ...args, input: kind.input(args.input, m) as Record<string, unknown> }),
      { name: 'DocumentMarshall', relation: 'before', toMiddleware: 'serializerMiddleware', override: true },
    );
    command.middlewareStack.addRelativeTo(
      (next) => async (args) => {
        const out = await next(args);
        kind.output(out.output, u);
        return out;
      },
      { name: 'DocumentUnmarshall', relation: 'before', toMiddleware: 'deserializerMiddleware', override: true },
    );
    handler = command.resolveMiddleware(doc.middlewareStack, doc.config, undefined) as Handler;
    byKind.set(kind, handler);
  }
  return handler;
}

/**
 * Drops the handlers resolved on `client`: the next calls resolve its middleware stack again
 * (after middleware was added to or removed from a client already used).
 */
export function forgetHandlers(client: DynamoDBDocumentClient): void {
  handlers.delete(client);
}

async function call<O>(db: Db, kind: Kind, input: object): Promise<O> {
  return (await handlerOf(db.doc, kind)({ input })).output as O;
}

/** GetItem with plain values (as lib-dynamodb's GetCommand). */
export const getItem = (db: Db, input: GetCommandInput) => call<GetCommandOutput>(db, GET, input);
/** PutItem with plain values (as PutCommand; without the legacy `Expected`). */
export const putItem = (db: Db, input: Omit<PutCommandInput, 'Expected'>) => call<PutCommandOutput>(db, PUT, input);
/** UpdateItem with plain values (as UpdateCommand; without the legacy `AttributeUpdates`, `Expected`). */
export const updateItem = (db: Db, input: Omit<UpdateCommandInput, 'AttributeUpdates' | 'Expected'>) =>
  call<UpdateCommandOutput>(db, UPDATE, input);
/** DeleteItem with plain values (as DeleteCommand; without the legacy `Expected`). */
export const deleteItem = (db: Db, input: Omit<DeleteCommandInput, 'Expected'>) =>
  call<DeleteCommandOutput>(db, DELETE, input);
/** A query's input, without the legacy `KeyConditions` and `QueryFilter` (never translated here). */
export type QueryInput = Omit<QueryCommandInput, 'KeyConditions' | 'QueryFilter'>;

/** Query with plain values (as QueryCommand). */
export const queryItems = (db: Db, input: QueryInput) => call<QueryCommandOutput>(db, QUERY, input);
/** BatchGetItem with plain values (as BatchGetCommand). */
export const batchGetItems = (db: Db, input: BatchGetCommandInput) => call<BatchGetCommandOutput>(db, BATCH_GET, input);

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
  query: Omit<QueryInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  limit: number,
  pick: (item: Record<string, unknown>) => T,
): Promise<T[]> {
  const out: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = Number.isFinite(limit) ? { Limit: limit - out.length } : {};
    const r = await queryItems(db, { ...query, TableName: db.table, ...page, ExclusiveStartKey: startKey });
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

/** The key attributes of the table and its indexes (the ports' records have none of them). */
const KEY_ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK'];

/** An item as its port's record: the item without its table and index keys. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const out = { ...item };
  for (const k of KEY_ATTRIBUTES) delete out[k];
  return out as T;
}

/**
 * One page of the items of partition `pk` whose sort keys begin with `prefix`, newest first,
 * after the cursor `before` (the last sort key of the previous page): `limit` + 1 are asked for
 * (+ 1 more after a cursor: the range is inclusive, so the cursor's own item comes back first),
 * so the cursor is given only when another page follows.
 */
export async function newestFirstPage<T>(
  db: Db,
  pk: string,
  prefix: string,
  limit: number,
  before?: string | null,
): Promise<{ items: T[]; cursor: string | null }> {
  const r = await queryItems(db, {
    TableName: db.table,
    KeyConditionExpression: before
      ? 'PK = :pk AND SK BETWEEN :from AND :before'
      : 'PK = :pk AND begins_with(SK, :from)',
    ExpressionAttributeValues: { ':pk': pk, ':from': prefix, ...(before ? { ':before': before } : {}) },
    ScanIndexForward: false,
    Limit: limit + (before ? 2 : 1),
  });
  const items = (r.Items ?? []).filter((it) => it.SK !== before);
  const page = items.slice(0, limit);
  return {
    items: page.map((it) => recordOf<T>(it)),
    cursor: items.length > limit ? (page[page.length - 1].SK as string) : null,
  };
}

/**
 * Up to `limit` items of an index whose partition key is sharded: one query per shard in
 * parallel (`query(shard)` gives each one's key condition), merged by sort key (descending
 * when `newestFirst`). A query per shard asks for `limit` items, so the merge is exact.
 */
export async function queryShards(
  db: Db,
  shards: number,
  query: (shard: number) => Omit<QueryInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
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
