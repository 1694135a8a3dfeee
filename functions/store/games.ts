// The game item: an opaque document (the API's lobby data and the engine's state), a version
// for optimistic locking and an outbox of events committed with it. Every write is one
// conditional single-item write; the outbox copy is idempotent, so any step can be retried.
import { BatchGetCommand, type BatchGetCommandInput, type BatchGetCommandOutput, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailed, queryIndex } from './db.js';
import { copyEvents, type StoredEvent } from './events.js';
import { gameIdOf, GSI2, GSI3, keys } from './table.js';

export type GameStatus = 'LOBBY' | 'ACTIVE' | 'FINISHED' | 'CANCELLED';

/** Request ids kept inside the game item: enough to cover the gap before the request record is written. */
export const RECENT_REQUESTS = 50;

export interface GameRecord<D = unknown> {
  id: string;
  /** Bumped by every commit; a commit succeeds only on the version it was computed from. */
  version: number;
  status: GameStatus;
  createdAt: string;
  updatedAt: string;
  doc: D;
  /** The seq of the newest event (0: none yet). */
  lastSeq: number;
  /** Events of the last commit not yet known to be copied to their own items. */
  outbox: StoredEvent[];
  /** Recent request ids -> the version whose commit applied them (see RECENT_REQUESTS). */
  requests: Record<string, number>;
  /** When the sweep has work on this game (e.g. the next deadline), or null: indexed in GSI3. */
  dueAt?: string | null;
}

/**
 * Where a game shows in the status index (GSI2): lobbies (open games) and active games; a
 * finished game stays under ACTIVE until its outbox is copied, so the sweep can finish it.
 */
function statusIndex(r: GameRecord): Record<string, string> {
  if (r.status === 'LOBBY') return { GSI2PK: keys.status('LOBBY'), GSI2SK: `${r.createdAt}#${r.id}` };
  if (r.status === 'ACTIVE' || r.outbox.length > 0) return { GSI2PK: keys.status('ACTIVE'), GSI2SK: `${r.createdAt}#${r.id}` };
  return {};
}

function toItem(r: GameRecord): Record<string, unknown> {
  return {
    ...keys.game(r.id),
    ...statusIndex(r),
    ...(r.dueAt ? { ...keys.due('GAME', r.dueAt, r.id), dueAt: r.dueAt } : {}),
    gameId: r.id,
    version: r.version,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastSeq: r.lastSeq,
    // JSON strings: cheaper to (un)marshal than nested maps and free of DynamoDB's nesting limit.
    doc: JSON.stringify(r.doc),
    outbox: JSON.stringify(r.outbox),
    requests: JSON.stringify(r.requests),
  };
}

function fromItem<D>(it: Record<string, unknown>): GameRecord<D> {
  return {
    id: it.gameId as string,
    version: it.version as number,
    status: it.status as GameStatus,
    createdAt: it.createdAt as string,
    updatedAt: it.updatedAt as string,
    lastSeq: it.lastSeq as number,
    doc: JSON.parse(it.doc as string) as D,
    outbox: JSON.parse(it.outbox as string) as StoredEvent[],
    requests: JSON.parse(it.requests as string) as Record<string, number>,
    ...(it.dueAt ? { dueAt: it.dueAt as string } : {}),
  };
}

/** Keeps the newest RECENT_REQUESTS entries. */
function trimRequests(req: Record<string, number>): Record<string, number> {
  const entries = Object.entries(req);
  if (entries.length <= RECENT_REQUESTS) return req;
  entries.sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(entries.slice(0, RECENT_REQUESTS));
}

/** Writes a new game (version 1). False if the id is taken. */
export async function insertGame(db: Db, r: GameRecord): Promise<boolean> {
  try {
    await db.doc.send(new PutCommand({ TableName: db.table, Item: toItem(r), ConditionExpression: 'attribute_not_exists(PK)' }));
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
  await flushOutbox(db, r);
  return true;
}

/** The game as stored, without finishing an interrupted outbox copy (see loadGame). */
export async function getGameRaw<D>(db: Db, gameId: string): Promise<GameRecord<D> | null> {
  const r = await db.doc.send(new GetCommand({ TableName: db.table, Key: keys.game(gameId), ConsistentRead: true }));
  return r.Item ? fromItem<D>(r.Item) : null;
}

/**
 * Loads a game and first finishes copying its outbox if a writer was interrupted. A writer
 * that commits on top of this version may then replace the outbox with its own events.
 */
export async function loadGame<D>(db: Db, gameId: string): Promise<GameRecord<D> | null> {
  const r = await getGameRaw<D>(db, gameId);
  if (r && r.outbox.length > 0) {
    await flushOutbox(db, r);
    r.outbox = [];
  }
  return r;
}

/**
 * Commits `next` if the stored version is still `next.version - 1`, then copies its outbox.
 * False when another writer committed first: reload and compute again.
 */
export async function commitGame(db: Db, next: GameRecord): Promise<boolean> {
  const r = { ...next, requests: trimRequests(next.requests) };
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: toItem(r),
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': next.version - 1 },
      }),
    );
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
  await flushOutbox(db, r);
  return true;
}

/** Copies the outbox to event items, then empties it (only if no newer commit replaced it). */
export async function flushOutbox(db: Db, r: GameRecord): Promise<void> {
  if (r.outbox.length === 0) return;
  await copyEvents(db, r.id, r.outbox);
  const finished = r.status === 'FINISHED';
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.game(r.id),
        UpdateExpression: finished ? 'SET outbox = :empty REMOVE GSI2PK, GSI2SK' : 'SET outbox = :empty',
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': r.version, ':empty': '[]' },
      }),
    );
  } catch (e) {
    // A newer commit replaced the outbox; its writer (or the next reader) copies that one.
    if (!isConditionFailed(e)) throw e;
  }
}

/** Fetches several games (any order, missing ones left out); no outbox work. */
export async function getGames<D>(db: Db, ids: string[]): Promise<GameRecord<D>[]> {
  const out: GameRecord<D>[] = [];
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let req: BatchGetCommandInput['RequestItems'] = {
      [db.table]: { Keys: unique.slice(i, i + 100).map((id) => keys.game(id)), ConsistentRead: true },
    };
    for (let attempt = 0; req && Object.keys(req).length > 0 && attempt < 10; attempt++) {
      const r: BatchGetCommandOutput = await db.doc.send(new BatchGetCommand({ RequestItems: req }));
      for (const it of r.Responses?.[db.table] ?? []) out.push(fromItem<D>(it));
      req = r.UnprocessedKeys;
    }
  }
  return out;
}

/** Game ids in the status index, newest first (LOBBY: open games; ACTIVE: the sweep's work list). */
export async function listGameIdsByStatus(db: Db, status: 'LOBBY' | 'ACTIVE', limit: number, oldestFirst = false): Promise<string[]> {
  const query = {
    IndexName: GSI2,
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.status(status) },
    ScanIndexForward: oldestFirst,
  };
  return queryIndex(db, query, limit, gameIdOf);
}

/** Ids in the due-work index (GSI3) of `kind` due at or before `now`, earliest first. */
export async function listDue(db: Db, kind: string, now: string, limit: number): Promise<string[]> {
  const query = {
    IndexName: GSI3,
    KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK <= :to',
    ExpressionAttributeValues: { ':pk': `DUE#${kind}`, ':to': `${now}#\uffff` },
  };
  return queryIndex(db, query, limit, (it) => (it.GSI3SK as string).split('#').slice(1).join('#'));
}
