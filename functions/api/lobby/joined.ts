// Fair seating, the joined-lobby cap and the clock (issue 23, finding 5; removePlayer: seating.ts): one account could take the free seat of every open lobby,
// nobody could remove a seated player before the start, and a game without a time limit waited
// for a silent seat forever.
// - joined lobbies: the LOBBY games a player joined (not created: those are lobbies.ts) are a set
//   on the player item, `<joinedAt>#<gameId>` each, added with one conditional update
//   (`size < cap`, exact under concurrent joins). Members go when the player leaves or is
//   removed; a member whose game started (or that the player no longer sits in) is dropped when
//   the set is full, before refusing (a join in flight counts for JOIN_RESERVATION_MS).
// - removePlayer: the creator frees a seated player's seat before the start; that player may not
//   join that lobby again (the game keeps the last REMOVED_MAX removed ids).
// - every game has a clock: DEFAULT_DECISION_TIME_LIMIT_HOURS when createGame names none.
//
// This file imports neither the services nor the commit (play/games.ts calls it: a cycle else);
// the caller hands it the store and a way to load games.
import type { Players } from '../../store/index.js';
import { type GameDoc, seatOf } from '../doc.js';
import { ApiError } from '../errors.js';
import { BOUNDS } from '../http/ratelimit.js';

/** What the joined-lobby cap needs: the player sets of the store, the clock, the games as they are now. */
export interface SeatingDeps {
  store: { players: Pick<Players, 'addToPlayerSet' | 'listPlayerSet' | 'removeFromPlayerSet'> };
  now: () => Date;
  load: (gameIds: string[]) => Promise<{ id: string; status: string; doc: GameDoc }[]>;
}

/** A member whose join is not (yet) committed counts for this long, then is a dead one. */
export const JOIN_RESERVATION_MS = 60_000;

/** Hours a decision may take when createGame names no limit (the sweep then plays for the seat). */
export const DEFAULT_DECISION_TIME_LIMIT_HOURS = 72;
/** Removed player ids a game keeps (the oldest go first): more than a lobby's seats can churn. */
export const REMOVED_MAX = 50;
/** The attribute of the player item holding the joined lobbies. */
export const JOINED_LOBBIES = 'joinedLobbies';

const member = (joinedAt: string, gameId: string) => `${joinedAt}#${gameId}`;
const gameOf = (m: string) => m.slice(m.lastIndexOf('#') + 1);

function limitExceeded(): ApiError {
  return new ApiError(
    'LIMIT_EXCEEDED',
    `joined lobbies limit: at most ${BOUNDS.joinedLobbiesPerPlayer} games in the LOBBY joined by one player; leave one or wait for a start`,
    {
      limit: { name: 'joinedLobbiesPerPlayer', max: BOUNDS.joinedLobbiesPerPlayer },
    },
  );
}

/** Drops the members that are no longer lobbies the player waits in; true if any was dropped. */
async function dropStale(services: SeatingDeps, playerId: string): Promise<boolean> {
  const members = await services.store.players.listPlayerSet(playerId, JOINED_LOBBIES);
  const games = new Map((await services.load(members.map(gameOf))).map((r) => [r.id, r]));
  const now = services.now().getTime();
  const stale = members.filter((m) => {
    const g = games.get(gameOf(m));
    if (g && g.status !== 'LOBBY') return true;
    if (g && seatOf(g.doc, playerId) !== null) return false;
    return now - Date.parse(m.slice(0, m.lastIndexOf('#'))) > JOIN_RESERVATION_MS; // a join in flight, or one that failed
  });
  await Promise.all(stale.map((m) => services.store.players.removeFromPlayerSet(playerId, JOINED_LOBBIES, m)));
  return stale.length > 0;
}

/** Takes one of the player's joined-lobby places for `gameId` (LIMIT_EXCEEDED when all are taken); returns the member to release on failure. */
export async function admitJoin(services: SeatingDeps, playerId: string, gameId: string): Promise<string> {
  const m = member(services.now().toISOString(), gameId);
  const cap = BOUNDS.joinedLobbiesPerPlayer;
  if (await services.store.players.addToPlayerSet(playerId, JOINED_LOBBIES, m, cap)) return m;
  if (
    (await dropStale(services, playerId)) &&
    (await services.store.players.addToPlayerSet(playerId, JOINED_LOBBIES, m, cap))
  )
    return m;
  throw limitExceeded();
}

/** Gives back the player's place(s) for `gameId` (left, removed, or the join failed). */
export async function releaseJoin(services: SeatingDeps, playerId: string, gameId: string): Promise<void> {
  const members = await services.store.players.listPlayerSet(playerId, JOINED_LOBBIES);
  await Promise.all(
    members
      .filter((m) => gameOf(m) === gameId)
      .map((m) => services.store.players.removeFromPlayerSet(playerId, JOINED_LOBBIES, m)),
  );
}

/** FORBIDDEN for a player the creator removed from this lobby (checked by joinGame). */
export function refuseRemoved(doc: GameDoc, playerId: string): void {
  if (doc.removed?.includes(playerId)) throw new ApiError('FORBIDDEN', 'the creator removed you from this lobby');
}
