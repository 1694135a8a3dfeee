// removePlayer: the creator frees a seated player's seat before the start (issue 23, finding 5;
// the joined-lobby cap and the default clock: joined.ts).
import type { Services } from '../services.js';
import type { Player } from '../accounts/auth.js';
import { commitChange, loadGames, type GameRec } from '../play/commit.js';
import { seatOf } from '../doc.js';
import { ApiError } from '../errors.js';
import { releaseJoin, REMOVED_MAX } from './joined.js';

/**
 * The creator frees a seated player's seat before the start. FORBIDDEN for anyone else,
 * WRONG_PHASE once started, NOT_FOUND for a player not seated, BAD_USER_INPUT for the creator
 * (leaveGame). The removed player may not join this lobby again.
 */
export async function removePlayer(
  services: Services,
  creator: Player,
  gameId: string,
  playerId: string,
): Promise<GameRec> {
  const rec = await commitChange(services, gameId, {
    apply: (doc, r) => {
      if (doc.creatorId !== creator.id) throw new ApiError('FORBIDDEN', 'only the creator removes a player');
      if (r.status !== 'LOBBY') throw new ApiError('WRONG_PHASE', 'cannot remove a player: the game has started');
      if (playerId === creator.id) throw new ApiError('BAD_USER_INPUT', 'the creator leaves with leaveGame');
      const seat = seatOf(doc, playerId);
      if (seat === null) throw new ApiError('NOT_FOUND', 'that player does not sit in this game');
      doc.seats[seat] = { playerId: null, name: null, bot: null };
      doc.removed = [...(doc.removed ?? []), playerId].slice(-REMOVED_MAX);
      return [{ type: 'playerLeft', data: { seat, playerId, removedBy: creator.id } }];
    },
  });
  await services.store.members.deleteMember(gameId, playerId);
  await releaseJoin({ ...services, load: (ids) => loadGames(services, ids) }, playerId, gameId);
  return rec;
}
