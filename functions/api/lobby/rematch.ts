// Rematch: a new LOBBY game with the same seats (the same players and bots in the same places)
// and options, and a new server seed. The new game's id is derived from the old one, so asking
// twice (or two players at once) gives the same rematch. Consent: only players who ask for it
// (or join it) are seated; the others' seats are kept for them. Anyone seated may leave.
import { createHash } from 'node:crypto';
import { CURRENT_RNG_VERSION } from '../../engine/index.js';
import type { Player } from '../accounts/auth.js';
import { commitChange, type GameRec, insertNewGame, loadOrNotFound } from '../play/commit.js';
import { getGame } from '../play/games.js';
import type { Services } from '../services.js';
import { type GameDoc, gameCreated, playerJoined, seatOf } from '../doc.js';
import { ApiError } from '../errors.js';
import { joinGame } from '../play/games.js';
import { drawSeed } from './seeds.js';
import { holdLobby } from './lobbies.js';

function rematchId(gameId: string): string {
  const h = createHash('sha256').update(`rematch:${gameId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * The rematch's document: the old game's options and seats, a new seed. Only the asker sits
 * down; the other players' seats are kept for them until they accept (rematch or joinGame) or
 * the creator fills them with bots: nobody is seated silently.
 */
function rematchDoc(o: GameDoc, player: Player): GameDoc {
  return {
    ...o,
    creatorId: player.id,
    seats: o.seats.map((s) => {
      if (s.playerId === player.id) return { playerId: s.playerId, name: s.name, bot: null };
      if (s.playerId) return { playerId: null, name: null, bot: null, invited: s.playerId };
      return { playerId: null, name: s.name, bot: s.bot };
    }),
    seed: drawSeed(),
    rngVersion: CURRENT_RNG_VERSION,
    state: undefined, // dealt at the start, as every game
    pending: {},
    timeouts: {},
    startSeq: undefined,
    rematchId: undefined,
    seedChosenBy: undefined,
    choiceChanges: undefined,
  };
}

/** Writes the rematch `id` of game `old` (a LOBBY); a concurrent rematch may have written it first. */
async function createRematch(services: Services, player: Player, old: GameRec, id: string): Promise<GameRec> {
  const doc = rematchDoc(old.doc, player);
  const now = services.now().toISOString();
  const events = [
    gameCreated(doc, old.id),
    ...doc.seats.flatMap((s, seat) => (s.playerId ? [playerJoined(seat, s.playerId, s.name)] : [])),
    ...doc.seats.flatMap((s, seat) =>
      s.invited ? [{ type: 'playerInvited', data: { seat, playerId: s.invited } }] : [],
    ),
  ];
  // Index first (as for joining): the index may name a game a player is not in, never miss one.
  await services.store.members.putMember(id, player.id, now);
  const inserted = await insertNewGame(services, id, doc, events, now);
  if (!inserted) {
    const rec = await loadOrNotFound(services, id); // a concurrent rematch won
    if (seatOf(rec.doc, player.id) === null) await services.store.members.deleteMember(id, player.id);
    return rec;
  }
  await holdLobby(services, player.id, now, id); // counts against the cap, never refused
  return inserted;
}

export async function rematch(services: Services, player: Player, gameId: string): Promise<GameRec> {
  const old = await loadOrNotFound(services, gameId);
  if (seatOf(old.doc, player.id) === null) throw new ApiError('FORBIDDEN', 'only its players may ask for a rematch');
  if (old.status !== 'FINISHED') throw new ApiError('WRONG_PHASE', 'a rematch follows a finished game');
  const id = rematchId(gameId);
  let rec = (await getGame(services, id)) ?? (await createRematch(services, player, old, id));
  // Asking for the rematch is accepting it: take the seat kept for the caller (once).
  if (
    seatOf(rec.doc, player.id) === null &&
    rec.status === 'LOBBY' &&
    rec.doc.seats.some((s) => s.invited === player.id && s.playerId === null && s.bot === null)
  ) {
    rec = await joinGame(services, player, id);
  }
  // Tell the old game's players where the rematch is (once).
  await commitChange(services, gameId, {
    needed: (r) => r.doc.rematchId === undefined,
    apply: (d) => {
      d.rematchId = id;
      return [{ type: 'rematch', data: { gameId: id } }];
    },
    status: (_d, r) => r.status,
  });
  return rec;
}
