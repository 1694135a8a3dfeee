// The Members port in memory: the twin of the membership half of store/dynamo/players.ts. One
// entry per (game, player), indexed by player under `<game createdAt>#<gameId>` (GSI1's sort
// key): the same order and the same cursors as the DynamoDB adapter.
import type { Members } from '../ports.js';
import { type Entry, invalid, pageOf } from './pages.js';

export function memoryMembers(): Members {
  /** Player id -> game id -> index sort key. */
  const byPlayer = new Map<string, Map<string, string>>();
  const entriesOf = (playerId: string): Entry[] =>
    [...(byPlayer.get(playerId) ?? [])].map(([id, key]) => ({ id, key }));
  return {
    putMember: async (gameId, playerId, gameCreatedAt) => {
      let games = byPlayer.get(playerId);
      if (!games) byPlayer.set(playerId, (games = new Map()));
      games.set(gameId, `${gameCreatedAt}#${gameId}`);
    },
    deleteMember: async (gameId, playerId) => {
      byPlayer.get(playerId)?.delete(gameId);
    },
    listMemberGameIds: async (playerId, limit) => {
      if (!(limit >= 1)) throw invalid(`a page of ${limit} entries`);
      return pageOf(entriesOf(playerId), limit, null, true).page.map((e) => e.id);
    },
    listMemberGamesPage: async (playerId, limit, before) => {
      const { page, cursor } = pageOf(entriesOf(playerId), limit, before, true);
      return { ids: page.map((e) => e.id), cursor };
    },
  };
}
