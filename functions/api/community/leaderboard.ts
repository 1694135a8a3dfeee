// The leaderboard and a player's rating history, paged. The leaderboard's cursor is the last
// entry's index sort key (`<rating, fixed width>#<playerId>`, base64url): the next page is every
// entry below it in every shard, merged, so pages never overlap or skip an entry whose rating did
// not change; a player whose rating changes while a client pages may move across the cursor
// (seen twice, or not at all), nobody else moves (docs/storage.md, "Ratings").
import { ApiError } from '../errors.js';
import type { Players, RatingHistoryRecord, RatingRecord, Store } from '../../store/index.js';
import type { EditionId } from '../../engine/index.js';
import { editionEnum } from '../enums.js';
import type { RatedGamePage, Rating, RatingPage } from '../schema.types.generated.js';

/** Entries per page: `first` 1-50, 20 by default. */
export const MAX_RATING_PAGE = 50;

const encode = (key: string) => Buffer.from(key, 'utf8').toString('base64url');

function decode(cursor: string | null | undefined, shape: RegExp): string | null {
  if (cursor === undefined || cursor === null) return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!shape.test(key) || encode(key) !== cursor)
    throw new ApiError('BAD_USER_INPUT', 'after is not a cursor of this list');
  return key;
}

function pageSize(first: number | null | undefined): number {
  const n = first ?? 20;
  if (!Number.isInteger(n) || n < 1 || n > MAX_RATING_PAGE)
    throw new ApiError('BAD_USER_INPUT', `first is 1-${MAX_RATING_PAGE}`);
  return n;
}

async function withName(store: { players: Pick<Players, 'getPlayer'> }, r: RatingRecord): Promise<Rating> {
  const p = await store.players.getPlayer(r.playerId);
  return { ...r, edition: editionEnum(r.edition), rating: r.ordinal, name: p?.name ?? null };
}

/** A page of an edition's leaderboard, best first. */
export async function leaderboardPage(
  store: Store,
  edition: EditionId,
  first?: number | null,
  after?: string | null,
): Promise<RatingPage> {
  const size = pageSize(first);
  const page = await store.community.listLeaderboard(edition, size, decode(after, /^\d{10}#.+$/));
  return {
    ratings: await Promise.all(page.items.map((r) => withName(store, r))),
    pageInfo: { hasNextPage: page.cursor !== null, endCursor: page.cursor ? encode(page.cursor) : null },
  };
}

/** A player's rating in an edition (null: no rated game yet). */
export async function ratingOf(store: Store, playerId: string, edition: EditionId): Promise<Rating | null> {
  const r = await store.community.getRating(playerId, edition);
  return r ? withName(store, r) : null;
}

/** A player's rated games in an edition, newest first, with the rating each one left. */
export async function ratingHistoryPage(
  store: Store,
  playerId: string,
  edition: EditionId,
  first?: number | null,
  after?: string | null,
): Promise<RatedGamePage> {
  const size = pageSize(first);
  const page = await store.community.listRatingHistory(
    playerId,
    edition,
    size,
    decode(after, new RegExp(`^RATED#${edition}#.+#.+$`)),
  );
  return {
    games: page.items.map((h: RatingHistoryRecord) => ({ ...h, rating: h.ordinal })),
    pageInfo: { hasNextPage: page.cursor !== null, endCursor: page.cursor ? encode(page.cursor) : null },
  };
}
