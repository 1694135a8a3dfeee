// Profiles (docs/community.md, "Profiles"): games played and won per edition, the characters a
// player plays most, and their finished games newest first (each a game id: its replay). Counted
// once per finished game and player, whoever calls (the game's end, the sweep's archive step): a
// conditional put on the stats item's version that also checks the game is not among the newest
// games it counted (as ratings do), then the game's entry (idempotent).
import { characters, type EditionId, editionIds } from '../../engine/index.js';
import type { Community, Store } from '../../store/index.js';
import { COUNTED_KEPT, type StatsRecord } from '../../store/records.js';
import type { GameDoc, GameRec } from '../doc.js';
import { editionEnum } from '../enums.js';
import { ApiError } from '../errors.js';
import type { PlayerProfile } from '../schema.types.generated.js';
import { ratingOf } from './leaderboard.js';

type Services = { store: { community: Pick<Community, 'getStats' | 'putStats' | 'putPlayed'> } };

/** Favourite characters shown (the most played). */
export const FAVOURITES = 3;
/** Recent games per page: `first` 1-50, 10 by default. */
export const MAX_RECENT_PAGE = 50;

/** The characters a seat played in a game (every card that left its hand: den, graveyard, out, kept). */
function playedCharacters(doc: GameDoc, seat: number): number[] {
  const s = doc.state?.seats[seat];
  return s ? [...new Set([...s.den, ...s.graveyard, ...s.out, ...s.kept])] : [];
}

/** Counts a finished game in its human players' profiles (exactly once each); never throws into a move. */
export async function countGameSafely(services: Services, rec: GameRec): Promise<void> {
  try {
    await countGame(services, rec);
  } catch (e) {
    console.error(JSON.stringify({ msg: 'profile count failed; the sweep retries', gameId: rec.id, error: String(e) }));
  }
}

/** Counts a finished game in its human players' profiles (see countGameSafely); throws on a store error. */
export async function countGame(services: Services, rec: GameRec): Promise<void> {
  const doc = rec.doc;
  const ranking = doc.state?.ranking;
  if (rec.status !== 'FINISHED' || !ranking) return;
  await Promise.all(
    doc.seats.map(async (s, seat) => {
      // Humans only: a seat a bot held from the start has no profile; a conceded seat is its human's.
      if (s.playerId === null || (s.bot !== null && s.replaced !== true)) return;
      const place = ranking.indexOf(seat) + 1;
      await countFor(services, s.playerId, rec, place, playedCharacters(doc, seat));
      await services.store.community.putPlayed(s.playerId, {
        gameId: rec.id,
        edition: doc.edition,
        endedAt: rec.updatedAt,
        place,
        players: doc.seats.length,
        conceded: s.conceded === true,
      });
    }),
  );
}

async function countFor(services: Services, playerId: string, rec: GameRec, place: number, played: number[]) {
  const edition = rec.doc.edition;
  for (let attempt = 0; attempt < 20; attempt++) {
    const cur = await services.store.community.getStats(playerId, edition);
    if (cur?.counted.includes(rec.id)) return;
    const chars = { ...(cur?.characters ?? {}) };
    for (const rank of played) chars[rank] = (chars[rank] ?? 0) + 1;
    const next: StatsRecord = {
      playerId,
      edition,
      played: (cur?.played ?? 0) + 1,
      won: (cur?.won ?? 0) + (place === 1 ? 1 : 0),
      characters: chars,
      counted: [...(cur?.counted ?? []), rec.id].slice(-COUNTED_KEPT),
      v: (cur?.v ?? 0) + 1,
    };
    if (await services.store.community.putStats(next, cur?.v ?? 0, rec.id)) return;
  }
  throw new Error(`profile of ${playerId} for game ${rec.id}: too many lost races`);
}

const EDITIONS: EditionId[] = editionIds();
const encode = (key: string) => Buffer.from(key, 'utf8').toString('base64url');

function decode(cursor: string | null | undefined): string | null {
  if (cursor == null) return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^PLAYED#.+#.+$/.test(key) || encode(key) !== cursor)
    throw new ApiError('BAD_USER_INPUT', 'after is not a cursor of this list');
  return key;
}

/** The most played characters of a stats item, most first (then by rank). */
function favourites(edition: EditionId, s: StatsRecord | null) {
  const names = new Map(characters(edition).map((c) => [c.rank, c.name]));
  return Object.entries(s?.characters ?? {})
    .map(([rank, games]) => ({ rank: Number(rank), games, name: names.get(Number(rank)) ?? '' }))
    .sort((a, b) => b.games - a.games || a.rank - b.rank)
    .slice(0, FAVOURITES);
}

/** A player's profile (null: no such player), its recent games paged newest first. */
export async function profileOf(
  store: Store,
  playerId: string,
  first: number | null | undefined,
  after: string | null | undefined,
): Promise<PlayerProfile | null> {
  const size = first ?? 10;
  if (!Number.isInteger(size) || size < 1 || size > MAX_RECENT_PAGE)
    throw new ApiError('BAD_USER_INPUT', `first is 1-${MAX_RECENT_PAGE}`);
  const before = decode(after);
  const player = await store.players.getPlayer(playerId);
  if (!player) return null;
  const [editions, page] = await Promise.all([
    Promise.all(
      EDITIONS.map(async (edition) => {
        const [stats, rating] = await Promise.all([
          store.community.getStats(playerId, edition),
          ratingOf(store, playerId, edition),
        ]);
        return {
          edition: editionEnum(edition),
          rating,
          played: stats?.played ?? 0,
          won: stats?.won ?? 0,
          favouriteCharacters: favourites(edition, stats),
        };
      }),
    ),
    store.community.listPlayed(playerId, size, before),
  ]);
  return {
    playerId,
    name: player.name,
    editions,
    recentGames: {
      games: page.items.map((g) => ({ ...g, edition: editionEnum(g.edition) })),
      pageInfo: { hasNextPage: page.cursor !== null, endCursor: page.cursor ? encode(page.cursor) : null },
    },
  };
}
