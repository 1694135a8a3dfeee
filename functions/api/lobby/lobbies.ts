// The open-lobby cap, exact under concurrent creations: the lobbies a player holds open (as the
// game's creator) are a set on the player item, `<createdAt>#<gameId>` each. createGame adds its
// lobby with one conditional update (`size < cap`): DynamoDB serialises updates of one item, so
// 20 creations at once seat exactly the cap, whichever instances run them. The lobby leaves the
// set when it stops being the player's open lobby (started, cancelled, expired, or handed to the
// next creator when its creator leaves). A crash between the game's commit and the set update
// leaves a member too many (never too few): when the set is full, its members are checked against
// the games themselves and the stale ones dropped before refusing.
import type { Services } from '../services.js';
import { loadGames, type GameRec } from '../play/commit.js';
import { ApiError } from '../errors.js';
import { BOUNDS } from '../http/ratelimit.js';

/** The attribute of the player item holding the open lobbies. */
export const OPEN_LOBBIES = 'openLobbies';
/** A member whose game is not (yet) stored is a creation in flight for this long, then a dead one. */
export const LOBBY_RESERVATION_MS = 60_000;

export const lobbyMember = (createdAt: string, gameId: string) => `${createdAt}#${gameId}`;
const split = (m: string) => {
  const at = m.lastIndexOf('#');
  return { createdAt: m.slice(0, at), gameId: m.slice(at + 1) };
};

function limitExceeded(): ApiError {
  return new ApiError(
    'LIMIT_EXCEEDED',
    `open lobbies limit: at most ${BOUNDS.openLobbiesPerPlayer} games in the LOBBY created by one player; start or leave one first`,
    {
      limit: { name: 'openLobbiesPerPlayer', max: BOUNDS.openLobbiesPerPlayer },
    },
  );
}

/** Drops the members that are no longer this player's open lobbies; true if any was dropped. */
async function dropStale(services: Services, playerId: string): Promise<boolean> {
  const members = await services.store.players.listPlayerSet(playerId, OPEN_LOBBIES);
  if (members.length === 0) return false;
  const games = new Map(
    (
      await loadGames(
        services,
        members.map((m) => split(m).gameId),
      )
    ).map((r) => [r.id, r]),
  );
  const now = services.now().getTime();
  const stale = members.filter((m) => {
    const { createdAt, gameId } = split(m);
    const g = games.get(gameId);
    if (!g) return now - Date.parse(createdAt) > LOBBY_RESERVATION_MS; // a creation that died
    return g.status !== 'LOBBY' || g.doc.creatorId !== playerId;
  });
  await Promise.all(stale.map((m) => services.store.players.removeFromPlayerSet(playerId, OPEN_LOBBIES, m)));
  return stale.length > 0;
}

/**
 * Takes one of the player's open-lobby places for the game about to be created (`createdAt`,
 * `gameId`): LIMIT_EXCEEDED when all are taken by lobbies that are still open.
 */
export async function reserveLobby(
  services: Services,
  playerId: string,
  createdAt: string,
  gameId: string,
): Promise<void> {
  const member = lobbyMember(createdAt, gameId);
  if (await services.store.players.addToPlayerSet(playerId, OPEN_LOBBIES, member, BOUNDS.openLobbiesPerPlayer)) return;
  if (
    (await dropStale(services, playerId)) &&
    (await services.store.players.addToPlayerSet(playerId, OPEN_LOBBIES, member, BOUNDS.openLobbiesPerPlayer))
  )
    return;
  throw limitExceeded();
}

/** Gives the place back (the game was not created, or it is no longer the player's open lobby). */
export async function releaseLobby(
  services: Services,
  playerId: string,
  createdAt: string,
  gameId: string,
): Promise<void> {
  await services.store.players.removeFromPlayerSet(playerId, OPEN_LOBBIES, lobbyMember(createdAt, gameId));
}

/** Counts a lobby for its creator without a cap (a rematch, a lobby handed to the next creator). */
export async function holdLobby(
  services: Services,
  playerId: string,
  createdAt: string,
  gameId: string,
): Promise<void> {
  await services.store.players.addToPlayerSet(playerId, OPEN_LOBBIES, lobbyMember(createdAt, gameId));
}

/** After a commit that may have ended the lobby: releases it for `creatorId` if it is not open any more. */
export async function settleLobby(services: Services, rec: GameRec, creatorId: string): Promise<void> {
  if (rec.status !== 'LOBBY' || rec.doc.creatorId !== creatorId)
    await releaseLobby(services, creatorId, rec.createdAt, rec.id);
}
