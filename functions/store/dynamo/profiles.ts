// Profiles: per player and edition one counter item (`STATS#<edition>`: games played and won,
// characters played), written once per finished game by a conditional put on its version that
// also checks the game is not among the newest games it counted (the ratings' guard); and one
// item per finished game (`PLAYED#<endedAt>#<gameId>`, idempotent) that pages the recent games.
// Both live in the player's partition: no index, no hot key (docs/storage.md, "Profiles").
import { type Db, getItem, newestFirstPage, putItem, recordOf, wonRace } from './db.js';
import { keys } from './table.js';
import type { StatsRecord, PlayedRecord } from '../records.js';

const playedKey = (playerId: string, endedAt: string, gameId: string) => ({
  PK: keys.player(playerId).PK,
  SK: `PLAYED#${endedAt}#${gameId}`,
});

export async function getStats(db: Db, playerId: string, edition: string): Promise<StatsRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.profile(playerId, edition), ConsistentRead: true });
  return r.Item ? recordOf<StatsRecord>(r.Item) : null;
}

/** Writes the stats if still at version `prevV` (0: absent) and `gameId` not counted: false otherwise (reload). */
export async function putStats(db: Db, rec: StatsRecord, prevV: number, gameId: string): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...keys.profile(rec.playerId, rec.edition), ...rec },
      ConditionExpression: prevV === 0 ? 'attribute_not_exists(PK)' : 'v = :v AND NOT contains(counted, :g)',
      ...(prevV === 0 ? {} : { ExpressionAttributeValues: { ':v': prevV, ':g': gameId } }),
    }),
  );
}

/** The player's entry of one finished game (idempotent: the same key for the same game). */
export async function putPlayed(db: Db, playerId: string, p: PlayedRecord): Promise<void> {
  await putItem(db, { TableName: db.table, Item: { ...playedKey(playerId, p.endedAt, p.gameId), ...p } });
}

/** A player's finished games, newest first, paged by the sort key. */
export async function listPlayed(
  db: Db,
  playerId: string,
  limit: number,
  before?: string | null,
): Promise<{ items: PlayedRecord[]; cursor: string | null }> {
  return newestFirstPage<PlayedRecord>(db, keys.player(playerId).PK, 'PLAYED#', limit, before);
}
