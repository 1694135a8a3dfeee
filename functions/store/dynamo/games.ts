// Games: an append-only log of commit items (the truth) and one bounded snapshot item (the
// current state, for cheap reads and the indexes). No rules here: the API says how a commit
// changes a game (its opaque `body`) and folds commits into snapshots itself.
//
// The protocol, every step a single-item conditional write (no transactions, no streams):
// 1. A writer reads the snapshot and the commits past it (one query), folds them, computes.
// 2. It writes commit item `COMMIT#<seq of its first event>` on attribute_not_exists: writers
//    that computed on the same version write the same key, and the first one has committed;
//    the others reload and compute again.
// 3. It writes the snapshot (when it is due), on `version < :v`: a snapshot never moves back.
// A crash between 2 and 3 loses nothing: readers fold the commits past the snapshot, and the
// next snapshot writer (the next commit, or the sweep) writes it forward.
import type { BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  batchGetItems,
  type Db,
  eachLimited,
  getItem,
  isConditionFailed,
  pack,
  putItem,
  queryIndex,
  queryItems,
  queryShards,
  unpack,
  updateItem,
  wonRace,
} from './db.js';
import { GSI2, GSI3, INDEX_SHARDS, keys, shardOf, TTL_ATTRIBUTE } from './table.js';
import {
  outboxId,
  type GameStatus,
  type GameRecord,
  type CommitEvent,
  type CommitActor,
  type CommitRecord,
  type GameHead,
} from '../records.js';
import { HEAD_COMMITS } from '../records.js';

function indexKeys(r: GameRecord): Record<string, string> {
  const out: Record<string, string> = {};
  if (!r.unlisted && (r.status === 'LOBBY' || r.status === 'ACTIVE' || r.status === 'FINISHED')) {
    out.GSI2PK = keys.status(r.status, shardOf(r.id));
    out.GSI2SK = `${r.createdAt}#${r.id}`;
  }
  if (r.dueAt) Object.assign(out, keys.due('GAME', r.dueAt, r.id));
  else if (r.archiveAt) Object.assign(out, keys.due('LOG', r.archiveAt, r.id));
  return out;
}

function toSnapshotItem(r: GameRecord): Record<string, unknown> {
  return {
    ...keys.game(r.id),
    ...indexKeys(r),
    gameId: r.id,
    version: r.version,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastSeq: r.lastSeq,
    ...(r.dueAt ? { dueAt: r.dueAt } : {}),
    ...(r.unlisted ? { unlisted: true } : {}),
    ...(r.archiveAt ? { archiveAt: r.archiveAt } : {}),
    doc: pack(r.doc),
  };
}

function fromSnapshotItem<D>(it: Record<string, unknown>): GameRecord<D> {
  return {
    id: it.gameId as string,
    version: it.version as number,
    status: it.status as GameStatus,
    createdAt: it.createdAt as string,
    updatedAt: it.updatedAt as string,
    lastSeq: it.lastSeq as number,
    doc: unpack<D>(it.doc),
    dueAt: (it.dueAt as string | undefined) ?? null,
    ...(it.unlisted ? { unlisted: true } : {}),
    ...(it.archiveAt ? { archiveAt: it.archiveAt as string } : {}),
  };
}

function toCommitItem(gameId: string, c: CommitRecord): Record<string, unknown> {
  return {
    ...keys.commit(gameId, c.firstSeq),
    v: c.version,
    n: c.events.length,
    at: c.at,
    status: c.status,
    ...(c.request ? { req: c.request } : {}),
    ...(c.actor ? { actor: JSON.stringify(c.actor) } : {}),
    ...(c.cid ? { cid: c.cid } : {}),
    // Packed (deflated when that pays): the recipe apart from the events and notices, so that
    // replays read the recipe without unpacking events.
    body: pack(c.body),
    ev: pack(c.events),
    ...(c.notices.length > 0 ? { nt: pack(c.notices) } : {}),
    // The outbox: in the same conditional put as the commit, so its notices are never lost. The
    // commit item is due work of kind OUTBOX (at its time) until the notice worker has handled
    // them (`clearOutbox`); the sweep hands again those older than a short age.
    ...(c.notices.length > 0 && c.cid ? keys.due('OUTBOX', c.at, outboxId(gameId, c.firstSeq)) : {}),
  };
}

/** The due-work id of a commit's outbox: `<game id>#<first seq>`. */

function fromCommitItem(it: Record<string, unknown>): CommitRecord {
  return {
    version: it.v as number,
    firstSeq: Number((it.SK as string).slice('COMMIT#'.length)),
    at: it.at as string,
    status: it.status as GameStatus,
    // Read without events (`recipes` of listCommits): as many placeholders as it had events.
    events:
      it.ev === undefined
        ? Array.from({ length: it.n as number }, () => ({ type: '', data: {} }))
        : unpack<CommitEvent[]>(it.ev),
    body: unpack(it.body),
    notices: it.nt === undefined ? [] : unpack<unknown[]>(it.nt),
    ...(it.req ? { request: it.req as string } : {}),
    ...(it.actor ? { actor: JSON.parse(it.actor as string) as CommitActor } : {}),
    ...(it.cid ? { cid: it.cid as string } : {}),
  };
}

const isCommit = (it: Record<string, unknown>) => (it.SK as string).startsWith('COMMIT#');

/**
 * Commit items of a game with first seqs in [from, to], oldest first. `recipesOnly`: without
 * their events and notices (replays need only the recipes; events come back as placeholders).
 */
export async function listCommits(
  db: Db,
  gameId: string,
  from = 1,
  to = 9_999_999_999,
  limit = Infinity,
  recipesOnly = false,
): Promise<CommitRecord[]> {
  return queryIndex(
    db,
    {
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.game(gameId).PK,
        ':from': keys.commitSk(Math.max(1, from)),
        ':to': keys.commitSk(to),
      },
      ConsistentRead: true,
      ...(recipesOnly
        ? {
            ProjectionExpression: 'SK, v, n, #at, #st, body, req, actor',
            ExpressionAttributeNames: { '#at': 'at', '#st': 'status' },
          }
        : {}),
    },
    limit,
    fromCommitItem,
  );
}

/**
 * The commit that applied request `request` among those with first seq > afterSeq, or null.
 * Reads every later commit (a filter): only retries of an unanswered request come here.
 */
export async function findRequestCommit(
  db: Db,
  gameId: string,
  afterSeq: number,
  request: string,
): Promise<CommitRecord | null> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const r = await queryItems(db, {
      TableName: db.table,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      FilterExpression: 'req = :r',
      ExpressionAttributeValues: {
        ':pk': keys.game(gameId).PK,
        ':from': keys.commitSk(afterSeq + 1),
        ':to': keys.commitSk(9_999_999_999),
        ':r': request,
      },
      ConsistentRead: true,
      ExclusiveStartKey: startKey,
    });
    if (r.Items && r.Items.length > 0) return fromCommitItem(r.Items[0]);
    startKey = r.LastEvaluatedKey;
  } while (startKey);
  return null;
}

/**
 * The snapshot and the commits past it: one consistent query, newest first, over the snapshot
 * (`GAME`) and the newest HEAD_COMMITS commit items (`COMMIT#...` sorts just before it); a
 * second query only if a crash left a longer tail. Null: no such game.
 */
export async function loadGame<D>(db: Db, gameId: string): Promise<GameHead<D> | null> {
  const r = await queryItems(db, {
    TableName: db.table,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.game(gameId).PK, ':from': 'COMMIT#', ':to': 'GAME' },
    ScanIndexForward: false,
    ConsistentRead: true,
    Limit: HEAD_COMMITS + 1,
  });
  const items = r.Items ?? [];
  if (items.length === 0) return null;
  const game = items[0].SK === 'GAME' ? fromSnapshotItem<D>(items[0]) : null;
  const after = game?.lastSeq ?? 0;
  // Commits the snapshot already holds came along; only those past it are unpacked.
  const seen = items.filter(isCommit).reverse(); // oldest first
  let tail = seen.filter((it) => Number((it.SK as string).slice('COMMIT#'.length)) > after).map(fromCommitItem);
  // Every commit read is past the snapshot and more may lie between: read those too.
  if (tail.length === seen.length && r.LastEvaluatedKey && (tail[0]?.firstSeq ?? Infinity) > after + 1) {
    const gap = await listCommits(db, gameId, after + 1, (tail[0]?.firstSeq ?? 9_999_999_999) - 1);
    tail = [...gap, ...tail];
  }
  return { game, tail };
}

/** The id (`cid`) of the commit at `firstSeq`: null if there is no commit there (yet), '' if it has no id. */
export async function getCommitId(db: Db, gameId: string, firstSeq: number): Promise<string | null> {
  const r = await getItem(db, {
    TableName: db.table,
    Key: keys.commit(gameId, firstSeq),
    ConsistentRead: true,
    ProjectionExpression: 'SK, cid',
  });
  return r.Item ? ((r.Item.cid as string | undefined) ?? '') : null;
}

/** The notices still in a commit's outbox and its id; null if the commit is gone or its outbox is empty. */
export async function getOutbox<N = unknown>(
  db: Db,
  gameId: string,
  firstSeq: number,
): Promise<{ cid: string; notices: N[] } | null> {
  const r = await getItem(db, {
    TableName: db.table,
    Key: keys.commit(gameId, firstSeq),
    ConsistentRead: true,
    ProjectionExpression: 'cid, nt, GSI3PK',
  });
  const it = r.Item;
  if (!it?.GSI3PK || !it.cid || it.nt === undefined) return null;
  return { cid: it.cid as string, notices: unpack<N[]>(it.nt) };
}

/**
 * Takes a commit's notices out of its outbox (the notice worker, once it has handled them): its
 * due-work index entry goes. Conditional on the commit's id and on the entry still being there,
 * so a repeat is a no-op; false then.
 */
export async function clearOutbox(db: Db, gameId: string, firstSeq: number, cid: string): Promise<boolean> {
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.commit(gameId, firstSeq),
      UpdateExpression: 'REMOVE GSI3PK, GSI3SK',
      ConditionExpression: 'cid = :cid AND attribute_exists(GSI3PK)',
      ExpressionAttributeValues: { ':cid': cid },
    }),
  );
}

/** Writes a new game: its first commit (which must say everything: there is nothing before it), then its snapshot. False if the id is taken. */
export async function insertGame(db: Db, r: GameRecord, first: CommitRecord): Promise<boolean> {
  if (!(await appendCommit(db, r.id, first))) return false;
  await saveSnapshot(db, r);
  return true;
}

/** Writes a commit item; false if another writer committed that version first. */
export async function appendCommit(db: Db, gameId: string, c: CommitRecord): Promise<boolean> {
  if (c.events.length === 0) throw new Error('a commit has at least one event (its key is the seq of the first)');
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: toCommitItem(gameId, c),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** Writes the snapshot unless a newer (or the same) version is stored already; true if written. */
export async function saveSnapshot(db: Db, r: GameRecord): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: toSnapshotItem(r),
      ConditionExpression: 'attribute_not_exists(PK) OR version < :v',
      ExpressionAttributeValues: { ':v': r.version },
    }),
  );
}

async function batchGet(
  db: Db,
  keyList: Record<string, string>[],
  consistent = true,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let req: BatchGetCommandInput['RequestItems'] = {
      [db.table]: { Keys: keyList.slice(i, i + 100), ConsistentRead: consistent },
    };
    for (let attempt = 0; req && Object.keys(req).length > 0 && attempt < 10; attempt++) {
      const r = await batchGetItems(db, { RequestItems: req });
      out.push(...(r.Responses?.[db.table] ?? []));
      req = r.UnprocessedKeys;
    }
  }
  return out;
}

/**
 * Several games as heads (any order, missing ones left out): their snapshots in one batch,
 * then, in a second batch, the commit right after each snapshot; only games that have one
 * (a commit not yet in the snapshot) are read again with their tail. `consistent: false`
 * (lists, where a second's staleness does not matter) reads at half the units; never use it
 * for a read that a conditional write depends on.
 */
export async function getGames<D>(db: Db, ids: string[], consistent = true): Promise<GameHead<D>[]> {
  const unique = [...new Set(ids)];
  const snaps = (
    await batchGet(
      db,
      unique.map((id) => keys.game(id)),
      consistent,
    )
  ).map((it) => fromSnapshotItem<D>(it));
  const next = await batchGet(
    db,
    snaps.map((g) => keys.commit(g.id, g.lastSeq + 1)),
    consistent,
  );
  const stale = new Set(next.map((it) => (it.PK as string).slice('GAME#'.length)));
  return Promise.all(
    snaps.map(async (g) =>
      stale.has(g.id) ? ((await loadGame<D>(db, g.id)) ?? { game: g, tail: [] }) : { game: g, tail: [] },
    ),
  );
}

/**
 * A game's archive (an opaque value the API keeps for good once the game is over, e.g. its
 * command history: the commit items go by TTL after the retention), one item `ARCHIVE` in the
 * game's partition (it sorts before `COMMIT#`: game loads never read it).
 */
export async function saveArchive(db: Db, gameId: string, value: unknown, at: string): Promise<void> {
  await putItem(db, { TableName: db.table, Item: { ...keys.archive(gameId), at, body: pack(value) } });
}

export async function getArchive<T>(db: Db, gameId: string): Promise<T | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.archive(gameId) });
  return r.Item ? unpack<T>(r.Item.body) : null;
}

/**
 * Gives the commit items at these first seqs a TTL (`expiresAt`, epoch seconds): DynamoDB
 * deletes them some time after it (free). Commits already carrying that time are written again
 * only if `expiresAt` differs (an update is cheap but not free: one write unit per KB).
 */
export async function expireCommits(db: Db, gameId: string, firstSeqs: number[], expiresAt: number): Promise<void> {
  await eachLimited(firstSeqs, 16, async (seq) => {
    try {
      await updateItem(db, {
        TableName: db.table,
        Key: keys.commit(gameId, seq),
        UpdateExpression: 'SET #ttl = :t',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#ttl) OR #ttl <> :t)',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':t': expiresAt },
      });
    } catch (e) {
      if (!isConditionFailed(e)) throw e;
    }
  });
}

/**
 * Takes the snapshot at `version` out of the due-work index once its log is archived (the
 * sweep stops visiting it). False if the snapshot moved on meanwhile: a newer one carries its
 * own `archiveAt` and comes back to the sweep.
 */
export async function markArchived(db: Db, gameId: string, version: number): Promise<boolean> {
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.game(gameId),
      UpdateExpression: 'REMOVE archiveAt, GSI3PK, GSI3SK',
      ConditionExpression: 'version = :v AND attribute_exists(archiveAt) AND attribute_not_exists(dueAt)',
      ExpressionAttributeValues: { ':v': version },
    }),
  );
}

/**
 * A page of game ids in the status index (every shard), newest first (`oldestFirst`: oldest
 * first); `before` is the previous page's cursor (its last index sort key `<createdAt>#<id>`).
 */
export async function listGamesByStatus(
  db: Db,
  status: 'LOBBY' | 'ACTIVE' | 'FINISHED',
  limit: number,
  before?: string | null,
  oldestFirst = false,
): Promise<{ ids: string[]; cursor: string | null; createdAt: string[] }> {
  const items = await queryShards(
    db,
    INDEX_SHARDS,
    (shard) => ({
      IndexName: GSI2,
      KeyConditionExpression: before ? `GSI2PK = :pk AND GSI2SK ${oldestFirst ? '>' : '<'} :before` : 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.status(status, shard), ...(before ? { ':before': before } : {}) },
    }),
    'GSI2SK',
    limit + 1,
    !oldestFirst,
  );
  const page = items.slice(0, limit);
  return {
    ids: page.map((it) => (it.PK as string).slice('GAME#'.length)),
    /** Each game's creation time (from its index sort key `<createdAt>#<id>`). */
    createdAt: page.map((it) => (it.GSI2SK as string).split('#')[0]),
    cursor: items.length > limit ? (page[page.length - 1].GSI2SK as string) : null,
  };
}

/** Ids in the due-work index (GSI3) of `kind` due at or before `now`, earliest first (every shard). */
export async function listDue(db: Db, kind: string, now: string, limit: number): Promise<string[]> {
  const items = await queryShards(
    db,
    INDEX_SHARDS,
    (shard) => ({
      IndexName: GSI3,
      KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK <= :to',
      ExpressionAttributeValues: { ':pk': keys.dueShard(kind, shard), ':to': `${now}#\uffff` },
    }),
    'GSI3SK',
    limit,
    false,
  );
  return items.map((it) => (it.GSI3SK as string).split('#').slice(1).join('#'));
}
