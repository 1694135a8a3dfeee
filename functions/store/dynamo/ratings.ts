// Ratings: one item per player and edition (in the player's partition, indexed for the
// leaderboard), one history item per rated game of the player, and one marker per rated game
// that fixes, once, what the game's players were rated before it. Every write is one
// conditional single-item write (docs/storage.md, "Ratings").
import { type Db, deleteItem, getItem, newestFirstPage, putItem, queryShards, recordOf, wonRace } from './db.js';
import { GSI2, INDEX_SHARDS, keys } from './table.js';
import { leaderboardSortKey, type RatingRecord, type RatedGameMarker, type RatingHistoryRecord } from '../records.js';

export async function getRating(db: Db, playerId: string, edition: string): Promise<RatingRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.rating(playerId, edition), ConsistentRead: true });
  return r.Item ? recordOf<RatingRecord>(r.Item) : null;
}

/**
 * Writes a player's new rating if the item is still at version `prevV` (0: absent) and does not
 * list `gameId` as applied: false when either changed (reload and decide again).
 */
export async function putRating(db: Db, rec: RatingRecord, prevV: number, gameId: string): Promise<boolean> {
  const Item = {
    ...keys.rating(rec.playerId, rec.edition),
    ...keys.leaderboard(rec.edition, rec.playerId, leaderboardSortKey(rec.ordinal, rec.playerId)),
    ...rec,
  };
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item,
      ConditionExpression: prevV === 0 ? 'attribute_not_exists(PK)' : 'v = :v AND NOT contains(applied, :g)',
      ...(prevV === 0 ? {} : { ExpressionAttributeValues: { ':v': prevV, ':g': gameId } }),
    }),
  );
}

/** Claims the game's marker (first writer wins); the marker stored either way is returned. */
export async function claimRatedGame(db: Db, m: RatedGameMarker): Promise<RatedGameMarker> {
  const won = await wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...keys.ratedGame(m.gameId), ...m },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  if (won) return m;
  const r = await getItem(db, { TableName: db.table, Key: keys.ratedGame(m.gameId), ConsistentRead: true });
  return recordOf<RatedGameMarker>(r.Item as Record<string, unknown>);
}

/** The history entry of one rated game for one player (idempotent: same key, same game). */
export async function putRatingHistory(
  db: Db,
  playerId: string,
  edition: string,
  h: RatingHistoryRecord,
): Promise<void> {
  await putItem(db, {
    TableName: db.table,
    Item: { ...keys.ratingHistory(playerId, edition, h.endedAt, h.gameId), ...h },
  });
}

/** A player's rating history in an edition, newest first, paged by the sort key. */
export async function listRatingHistory(
  db: Db,
  playerId: string,
  edition: string,
  limit: number,
  before?: string | null,
): Promise<{ items: RatingHistoryRecord[]; cursor: string | null }> {
  const prefix = keys.ratingHistoryPrefix(edition);
  return newestFirstPage<RatingHistoryRecord>(db, keys.player(playerId).PK, prefix, limit, before);
}

/** Deletes a player's rating item of an edition (the rebuild starts from nothing). */
export async function deleteRating(db: Db, playerId: string, edition: string): Promise<void> {
  await deleteItem(db, { TableName: db.table, Key: keys.rating(playerId, edition) });
}

/** Deletes a game's marker (the rebuild claims every marker again). */
export async function deleteRatedGame(db: Db, gameId: string): Promise<void> {
  await deleteItem(db, { TableName: db.table, Key: keys.ratedGame(gameId) });
}

/**
 * A page of an edition's leaderboard, best first: every shard queried below the cursor (the last
 * entry's sort key), merged, then the rating items read (the index holds keys only).
 */
export async function listLeaderboard(
  db: Db,
  edition: string,
  limit: number,
  before?: string | null,
): Promise<{ items: RatingRecord[]; cursor: string | null }> {
  const entries = await queryShards(
    db,
    INDEX_SHARDS,
    (shard) => ({
      IndexName: GSI2,
      KeyConditionExpression: before ? 'GSI2PK = :pk AND GSI2SK < :before' : 'GSI2PK = :pk',
      ExpressionAttributeValues: {
        ':pk': keys.leaderboardShard(edition, shard),
        ...(before ? { ':before': before } : {}),
      },
    }),
    'GSI2SK',
    limit + 1,
    true,
  );
  const page = entries.slice(0, limit);
  const items = await Promise.all(
    page.map(async (e) => (await getItem(db, { TableName: db.table, Key: { PK: e.PK, SK: e.SK } })).Item),
  );
  return {
    items: items
      .filter((it): it is Record<string, unknown> => it !== undefined)
      .map((it) => recordOf<RatingRecord>(it)),
    cursor: entries.length > limit ? (page[page.length - 1].GSI2SK as string) : null,
  };
}
