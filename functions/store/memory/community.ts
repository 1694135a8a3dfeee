// The in-memory twin of dynamo/ratings.ts and dynamo/profiles.ts: ratings and stats written on
// their version (and not twice for one game among the newest it remembers), the rated-game
// marker claimed once, the leaderboard best first and the histories newest first, paged by the
// same sort keys the DynamoDB adapter uses as cursors (the API checks their shape).
import type { Community } from '../ports.js';
import {
  leaderboardSortKey,
  type PlayedRecord,
  type RatedGameMarker,
  type RatingHistoryRecord,
  type RatingRecord,
  type StatsRecord,
} from '../records.js';
import { copy, newestFirst } from './pages.js';

const key = (playerId: string, edition: string) => JSON.stringify([playerId, edition]);

/**
 * Per player and edition, records written on their version: `put` writes when the record is
 * absent and `prevV` is 0, or at version `prevV` without `gameId` among the games it `kept`.
 */
function versioned<R extends { playerId: string; edition: string; v: number }>(kept: (r: R) => string[] | undefined) {
  const items = new Map<string, R>();
  return {
    items,
    get: async (playerId: string, edition: string) => copy(items.get(key(playerId, edition)) ?? null),
    async put(rec: R, prevV: number, gameId: string) {
      const cur = items.get(key(rec.playerId, rec.edition));
      const holds = prevV === 0 ? !cur : cur?.v === prevV && !(kept(cur) ?? []).includes(gameId);
      if (holds) items.set(key(rec.playerId, rec.edition), copy(rec));
      return holds;
    },
  };
}

export function memoryCommunity(): Community {
  return { ...ratings(), ...profiles() };
}

function ratings(): Omit<Community, keyof ReturnType<typeof profiles>> {
  const rated = versioned<RatingRecord>((r) => r.applied);
  const items = rated.items;
  const markers = new Map<string, RatedGameMarker>();
  const history = new Map<string, Map<string, RatingHistoryRecord>>();
  return {
    getRating: rated.get,
    putRating: rated.put,
    async claimRatedGame(m) {
      if (!markers.has(m.gameId)) markers.set(m.gameId, copy(m));
      return copy(markers.get(m.gameId) as RatedGameMarker);
    },
    async putRatingHistory(playerId, edition, h) {
      const k = key(playerId, edition);
      history.set(k, (history.get(k) ?? new Map()).set(`${h.endedAt}#${h.gameId}`, copy(h)));
    },
    async listRatingHistory(playerId, edition, limit, before) {
      const prefix = `RATED#${edition}#`;
      const entries = [...(history.get(key(playerId, edition)) ?? [])].map(([sk, h]) => [`${prefix}${sk}`, h] as const);
      return newestFirst(entries, prefix, limit, before);
    },
    async listLeaderboard(edition, limit, before) {
      const board = [...items.values()]
        .filter((r) => r.edition === edition)
        .map((r) => [leaderboardSortKey(r.ordinal, r.playerId), r] as const);
      return newestFirst(board, '', limit, before);
    },
    deleteRating: async (playerId, edition) => void items.delete(key(playerId, edition)),
    deleteRatedGame: async (gameId) => void markers.delete(gameId),
  };
}

function profiles(): Pick<Community, 'getStats' | 'putStats' | 'putPlayed' | 'listPlayed'> {
  const stats = versioned<StatsRecord>((r) => r.counted);
  const played = new Map<string, Map<string, PlayedRecord>>();
  return {
    getStats: stats.get,
    putStats: stats.put,
    async putPlayed(playerId, p) {
      played.set(playerId, (played.get(playerId) ?? new Map()).set(`PLAYED#${p.endedAt}#${p.gameId}`, copy(p)));
    },
    listPlayed: async (playerId, limit, before) => newestFirst(played.get(playerId) ?? [], 'PLAYED#', limit, before),
  };
}
