// Players and the player -> games index. A membership item lives in the game's partition
// (so it goes away with the game) and is indexed by player in GSI1. Membership is written
// before the game commit that seats the player and deleted after the one that unseats them,
// so the index may briefly list a game the player is not in, never miss one: readers check
// the game's own seat list.
import {
  type Db,
  deleteItem,
  getItem,
  isConditionFailed,
  putItem,
  queryIndex,
  scanKind,
  updateItem,
  wonRace,
} from './db.js';
import { gameIdOf, GSI1, keys } from './table.js';
import type { PlayerRecord } from '../records.js';

const OPTIONAL = ['kind', 'tokenVersion', 'revokedAt', 'issuer', 'subject', 'nameKey', 'refreshJti'] as const;

function toRecord(it: Record<string, unknown>): PlayerRecord {
  const r: PlayerRecord = { id: it.playerId as string, name: it.name as string, createdAt: it.createdAt as string };
  for (const k of OPTIONAL) if (it[k] !== undefined) (r as unknown as Record<string, unknown>)[k] = it[k];
  return r;
}

const withoutId = ({ id: _id, ...rest }: PlayerRecord) =>
  Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));

export async function insertPlayer(db: Db, p: PlayerRecord): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...keys.player(p.id), ...withoutId(p), playerId: p.id },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getPlayer(db: Db, playerId: string): Promise<PlayerRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.player(playerId) });
  return r.Item ? toRecord(r.Item) : null;
}

/** Sets some profile attributes of an existing player; the updated record (null: no such player). */
export async function updatePlayer(
  db: Db,
  playerId: string,
  set: Partial<Pick<PlayerRecord, 'name' | 'kind' | 'issuer' | 'subject' | 'nameKey' | 'revokedAt'>>,
  opts: { bumpTokenVersion?: boolean } = {},
): Promise<PlayerRecord | null> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) continue;
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    parts.push(`#${k} = :${k}`);
  }
  let expr = parts.length ? `SET ${parts.join(', ')}` : '';
  if (opts.bumpTokenVersion) {
    names['#tv'] = 'tokenVersion';
    values[':one'] = 1;
    expr += ' ADD #tv :one';
  }
  try {
    const r = await updateItem(db, {
      TableName: db.table,
      Key: keys.player(playerId),
      UpdateExpression: expr.trim(),
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    });
    return r.Attributes ? toRecord(r.Attributes) : null;
  } catch (e) {
    if (isConditionFailed(e)) return null;
    throw e;
  }
}

/**
 * One page of every player item (a table scan: maintenance scripts only, e.g. the name claims
 * migration). `limit` items are read per page (DynamoDB's Limit, before the filter: a page may
 * hold fewer players, even none); `cursor` is the previous page's, null at the end.
 */
export async function scanPlayers(
  db: Db,
  limit: number,
  cursor: string | null,
): Promise<{ players: PlayerRecord[]; cursor: string | null }> {
  const page = await scanKind(db, { sk: 'PROFILE', pkPrefix: 'PLAYER#' }, limit, cursor);
  return { players: page.items.map(toRecord), cursor: page.cursor };
}

/**
 * Points a player's record at the claim of its name's key `to`, if the record still bears `name`
 * and the key `from` (null: none); false if it changed meanwhile (a rename) or is gone.
 */
export async function setNameKey(
  db: Db,
  playerId: string,
  name: string,
  from: string | null,
  to: string,
): Promise<boolean> {
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.player(playerId),
      UpdateExpression: 'SET nameKey = :to',
      ConditionExpression: `attribute_exists(PK) AND #name = :name AND ${from === null ? 'attribute_not_exists(nameKey)' : 'nameKey = :from'}`,
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': name, ':to': to, ...(from === null ? {} : { ':from': from }) },
    }),
  );
}

/** Idempotent: records that `playerId` sits (or is about to sit) in `gameId`. */
export async function putMember(db: Db, gameId: string, playerId: string, gameCreatedAt: string): Promise<void> {
  await putItem(db, {
    TableName: db.table,
    Item: {
      ...keys.member(gameId, playerId),
      ...keys.memberIndex(playerId, gameCreatedAt, gameId),
      gameId,
      playerId,
    },
  });
}

export async function deleteMember(db: Db, gameId: string, playerId: string): Promise<void> {
  await deleteItem(db, { TableName: db.table, Key: keys.member(gameId, playerId) });
}

/** Ids of the games a player is (or was about to be) seated in, newest first. */
export async function listMemberGameIds(db: Db, playerId: string, limit: number): Promise<string[]> {
  const query = {
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': `PLAYER#${playerId}` },
    ScanIndexForward: false,
  };
  return queryIndex(db, query, limit, gameIdOf);
}

/**
 * A fixed-window counter kept on the player item (rate limits of rare, costly calls such as
 * createGame: the request writes the item instead of adding a counter item). Counts one in
 * `window` (any label, e.g. the hour) if fewer than `max` were counted there; false otherwise.
 * One conditional update (two when the window changes); no read.
 */
export async function countOnPlayer(
  db: Db,
  playerId: string,
  counter: string,
  window: string,
  max: number,
): Promise<boolean> {
  const names = { '#w': `${counter}Window`, '#n': `${counter}Count` };
  const key = keys.player(playerId);
  const count = async () => {
    try {
      await updateItem(db, {
        TableName: db.table,
        Key: key,
        UpdateExpression: 'SET #n = #n + :one',
        ConditionExpression: 'attribute_exists(PK) AND #w = :w AND #n < :max',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':w': window, ':one': 1, ':max': max },
      });
      return true;
    } catch (e) {
      if (!isConditionFailed(e)) throw e;
      return false;
    }
  };
  if (await count()) return true;
  try {
    // A new window (or the first count): start at 1, unless another request just did.
    await updateItem(db, {
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET #w = :w, #n = :one',
      ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#w) OR #w <> :w)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':w': window, ':one': 1 },
    });
    return max >= 1;
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
  }
  // Another request started the window between the two updates (or the window is full): count in it.
  return count();
}

/**
 * A page of the player's game ids, newest first. `before` is the previous page's cursor (the
 * index sort key `<createdAt>#<gameId>` of its last entry); `cursor` is null on the last page.
 */
export async function listMemberGamesPage(
  db: Db,
  playerId: string,
  limit: number,
  before?: string | null,
): Promise<{ ids: string[]; cursor: string | null }> {
  const query = {
    IndexName: GSI1,
    KeyConditionExpression: before ? 'GSI1PK = :pk AND GSI1SK < :before' : 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': `PLAYER#${playerId}`, ...(before ? { ':before': before } : {}) },
    ScanIndexForward: false,
  };
  const items = await queryIndex(db, query, limit + 1, (it) => ({ id: gameIdOf(it), key: it.GSI1SK as string }));
  const page = items.slice(0, limit);
  return { ids: page.map((x) => x.id), cursor: items.length > limit ? page[page.length - 1].key : null };
}

/**
 * A bounded set of strings kept on the player item (e.g. the lobbies a player holds open): one
 * conditional update adds `member` unless the set already has `max` members (`max` undefined:
 * always). Exact under concurrency (DynamoDB serialises updates of one item); adding a member
 * already there changes nothing and succeeds. False when the set is full.
 */
export async function addToPlayerSet(
  db: Db,
  playerId: string,
  set: string,
  member: string,
  max?: number,
): Promise<boolean> {
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.player(playerId),
      UpdateExpression: 'ADD #s :m',
      ConditionExpression:
        max === undefined
          ? 'attribute_exists(PK)'
          : 'attribute_exists(PK) AND (attribute_not_exists(#s) OR size(#s) < :max OR contains(#s, :one))',
      ExpressionAttributeNames: { '#s': set },
      ExpressionAttributeValues: {
        ':m': new Set([member]),
        ...(max === undefined ? {} : { ':max': max, ':one': member }),
      },
    }),
  );
}

/** Removes `member` from the player's set (idempotent: absent members and sets are fine). */
export async function removeFromPlayerSet(db: Db, playerId: string, set: string, member: string): Promise<void> {
  await updateItem(db, {
    TableName: db.table,
    Key: keys.player(playerId),
    UpdateExpression: 'DELETE #s :m',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#s': set },
    ExpressionAttributeValues: { ':m': new Set([member]) },
  }).catch((e) => {
    if (!isConditionFailed(e)) throw e;
  });
}

/** The members of the player's set (consistent read; [] if none). */
export async function listPlayerSet(db: Db, playerId: string, set: string): Promise<string[]> {
  const r = await getItem(db, {
    TableName: db.table,
    Key: keys.player(playerId),
    ProjectionExpression: '#s',
    ExpressionAttributeNames: { '#s': set },
    ConsistentRead: true,
  });
  const s = r.Item?.[set] as Set<string> | undefined;
  return s ? [...s] : [];
}

/**
 * Refresh-token rotation: the player's current refresh token id becomes `next` if it was `current`
 * (null: a token from before rotation, accepted only while none was recorded) and the token
 * version is still `version`. One conditional update. 'revoked': the version moved on (signed
 * out); 'reused': the version holds but another token was redeemed since (a replayed token).
 */
export async function rotateRefresh(
  db: Db,
  playerId: string,
  version: number,
  current: string | null,
  next: string,
): Promise<'ok' | 'revoked' | 'reused' | 'unknown'> {
  const versionHolds = version === 0 ? '(attribute_not_exists(#tv) OR #tv = :v)' : '#tv = :v';
  const tokenHolds = current === null ? 'attribute_not_exists(#rj)' : '#rj = :cur';
  const written = await wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.player(playerId),
      UpdateExpression: 'SET #rj = :next',
      ConditionExpression: `attribute_exists(PK) AND ${versionHolds} AND ${tokenHolds}`,
      ExpressionAttributeNames: { '#tv': 'tokenVersion', '#rj': 'refreshJti' },
      ExpressionAttributeValues: { ':v': version, ':next': next, ...(current === null ? {} : { ':cur': current }) },
    }),
  );
  if (written) return 'ok';
  const now = await getItem(db, { TableName: db.table, Key: keys.player(playerId), ConsistentRead: true });
  if (!now.Item) return 'unknown';
  return ((now.Item.tokenVersion as number | undefined) ?? 0) !== version ? 'revoked' : 'reused';
}
