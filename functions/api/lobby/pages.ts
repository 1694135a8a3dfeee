// Paged game lists (one convention for every list that can grow): `first` items after the
// cursor `after`, answered with `pageInfo { hasNextPage endCursor }`. A cursor is opaque to
// clients: base64url of the index sort key `<createdAt>#<gameId>` of the page's last game.
import { listedInLobby } from '../play/games.js';
import type { Player } from '../accounts/auth.js';
import { type GameRec, loadGames } from '../play/commit.js';
import type { Services } from '../services.js';
import { seatOf } from '../doc.js';
import { ApiError } from '../errors.js';
import { cachedLobby } from './lobby-cache.js';
import type { GameStatus } from '../../store/index.js';

/** Page sizes of the game lists: default and maximum of `first`. */
export const GAMES_PAGE = { default: 20, max: 50 };
/** Index reads one filtered page may take before it answers short (hasNextPage stays true). */
const MAX_INDEX_READS = 10;

export interface GamePage {
  games: GameRec[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const encode = (key: string) => Buffer.from(key, 'utf8').toString('base64url');

function decode(cursor: string | null | undefined): string | null {
  if (cursor === undefined || cursor === null) return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{4}-\d\d-\d\dT[^#]+#.+$/.test(key) || encode(key) !== cursor)
    throw new ApiError('BAD_USER_INPUT', 'after is not a cursor of this list');
  return key;
}

function size(first: number | null | undefined): number {
  const n = first ?? GAMES_PAGE.default;
  if (!Number.isInteger(n) || n < 1 || n > GAMES_PAGE.max)
    throw new ApiError('BAD_USER_INPUT', `first is 1-${GAMES_PAGE.max}`);
  return n;
}

const keyOf = (r: GameRec) => `${r.createdAt}#${r.id}`;

/**
 * Reads index pages (`read(limit, before)`: ids newest first and the next cursor) and keeps the
 * games `keep` accepts, until `first` are kept, the index ends or MAX_INDEX_READS is reached.
 */
async function filtered(
  services: Services,
  read: (limit: number, before: string | null) => Promise<{ ids: string[]; cursor: string | null }>,
  keep: (r: GameRec) => boolean,
  first: number | null | undefined,
  after: string | null | undefined,
): Promise<GamePage> {
  const n = size(first);
  let before = decode(after);
  const games: GameRec[] = [];
  for (let reads = 0; reads < MAX_INDEX_READS; reads++) {
    const page = await read(n - games.length, before);
    // Lists: eventually consistent reads (half the units); nothing is written from them.
    const recs = await loadGames(services, page.ids, false);
    const byId = new Map(recs.map((r) => [r.id, r]));
    for (const id of page.ids) {
      const r = byId.get(id);
      if (r && keep(r)) games.push(r);
    }
    // The cursor is the last index entry read, kept or not: the next page starts after it.
    before = page.cursor;
    if (!before || games.length >= n) break;
  }
  return {
    games,
    pageInfo: {
      hasNextPage: before !== null,
      endCursor: before === null ? (games.length ? encode(keyOf(games[games.length - 1])) : null) : encode(before),
    },
  };
}

/** The caller's games, newest first, optionally in one status. */
export function myGamesPage(
  services: Services,
  player: Player,
  status: GameStatus | null,
  first?: number | null,
  after?: string | null,
): Promise<GamePage> {
  return filtered(
    services,
    (limit, before) => services.store.members.listMemberGamesPage(player.id, limit, before),
    (r) => seatOf(r.doc, player.id) !== null && (!status || r.status === status),
    first,
    after,
  );
}

/** A page of LOBBY ids from the (sharded) status index, newest first. */
function lobbyIds(
  services: Services,
  limit: number,
  before: string | null,
): Promise<{ ids: string[]; cursor: string | null }> {
  return services.store.log.listGamesByStatus('LOBBY', limit, before);
}

/** Games waiting for players (LOBBY with a free seat), newest first. */
export function openGamesPage(services: Services, first?: number | null, after?: string | null): Promise<GamePage> {
  const n = size(first);
  decode(after); // a bad cursor is the caller's error, never cached
  // Which games are listed is the lobby's rule (games.listedInLobby: public, with a seat anyone
  // may take); the page is the same for every caller: cached per instance (lobby-cache.ts).
  return cachedLobby(services.store, `page:${n}:${after ?? ''}`, () =>
    filtered(services, (limit, before) => lobbyIds(services, limit, before), listedInLobby, n, after),
  );
}
