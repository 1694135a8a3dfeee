// Ratings (docs/ratings.md): Weng-Lin (openskill's Plackett-Luce model) per edition, for
// free-for-all games of 2-6 players. A game is rated once it is FINISHED, public, server-seeded
// and every seat was taken by a human at the start (a seat a bot later plays after a concession
// or timeouts stays that human's, ranked last). Exactly once per game and player:
//   1. the game's marker (RATEDGAME#<id>) is claimed with attribute_not_exists and fixes, once,
//      every seat's rating before the game (read when claiming);
//   2. each player's rating item is written with a condition on its version and on the game id
//      not being among the games it has applied (the newest APPLIED_KEPT): a lost race reloads;
//      a player whose rating moved since the marker (another game applied in between) is updated
//      from their current rating against the opponents' ratings the marker recorded.
// Any caller may run it again (the game's end, the sweep's archive step, a retry): it changes
// nothing the second time.
import { ordinal, rate, rating as fresh } from 'openskill';
import {
  APPLIED_KEPT,
  type GameRecord,
  type RatedGameMarker,
  type RatingRecord,
  type RatingValue,
} from '../../store/records.js';
import type { Community } from '../../store/index.js';
import type { GameDoc } from '../doc.js';

type GameRec = GameRecord<GameDoc>;
/** What rating needs of the services (the store only; no import of the context: no circle). */
type Services = {
  store: { community: Pick<Community, 'getRating' | 'putRating' | 'claimRatedGame' | 'putRatingHistory'> };
};

/** The rating a new player starts from (openskill's defaults: mu 25, sigma 25/3). */
export const INITIAL_RATING: RatingValue = { mu: fresh().mu, sigma: fresh().sigma };

/** Whether a finished game counts for ratings, and its players by seat. */
export function ratedPlayers(rec: GameRec): string[] | null {
  const doc: GameDoc = rec.doc;
  if (rec.status !== 'FINISHED' || doc.spectators === false || doc.seedChosenBy) return null;
  const players = doc.seats.map((s) =>
    s.playerId !== null && (s.bot === null || s.replaced === true) ? s.playerId : null,
  );
  if (players.some((p) => p === null)) return null; // a seat a bot held from the start
  if (new Set(players).size !== players.length) return null;
  return players as string[];
}

/**
 * New ratings for a free-for-all game: `before[seat]`, `ranking` best first (the engine's
 * ranking is strict, so each seat has its own place; conceded seats are already last).
 */
export function rateFreeForAll(before: RatingValue[], ranking: number[]): RatingValue[] {
  const place = new Array<number>(before.length);
  ranking.forEach((seat, i) => (place[seat] = i + 1));
  const out = rate(
    before.map((r) => [{ mu: r.mu, sigma: r.sigma }]),
    { rank: place },
  );
  return out.map(([r]) => ({ mu: r.mu, sigma: r.sigma }));
}

/** The rating shown and sorted by: the ordinal mu - 3 sigma (a conservative estimate). */
export const displayRating = (r: RatingValue): number => ordinal(r);

const asValue = (r: RatingRecord | null): RatingValue => (r ? { mu: r.mu, sigma: r.sigma } : INITIAL_RATING);

/**
 * Rates a finished game if it is rated: exactly once per player, whoever calls. Returns whether
 * it counts. Never throws into a move: a failure is logged and the sweep's archive step (which
 * calls this before archiving the log) finishes it.
 */
export async function rateGameSafely(services: Services, rec: GameRec): Promise<void> {
  try {
    await rateGame(services, rec);
  } catch (e) {
    console.error(JSON.stringify({ msg: 'rating failed; the sweep retries', gameId: rec.id, error: String(e) }));
  }
}

/** Rates a finished game if it is rated (see rateGameSafely); throws on a store error. */
export async function rateGame(services: Services, rec: GameRec): Promise<boolean> {
  const players = ratedPlayers(rec);
  const ranking = rec.doc.state?.ranking;
  if (!players || !ranking || ranking.length !== players.length) return false;
  const edition = rec.doc.edition;
  const current = await Promise.all(players.map((p) => services.store.community.getRating(p, edition)));
  const marker = await services.store.community.claimRatedGame({
    gameId: rec.id,
    edition,
    players,
    ranking: [...ranking],
    before: current.map(asValue),
    endedAt: rec.updatedAt,
  });
  await Promise.all(marker.players.map((_, seat) => applyToSeat(services, marker, seat)));
  return true;
}

/** Applies the game to one seat's player; a lost race reloads and decides again. */
async function applyToSeat(services: Services, m: RatedGameMarker, seat: number): Promise<void> {
  const playerId = m.players[seat];
  const place = m.ranking.indexOf(seat) + 1;
  for (let attempt = 0; attempt < 20; attempt++) {
    const cur = await services.store.community.getRating(playerId, m.edition);
    if (cur?.applied.includes(m.gameId)) {
      // Applied already; if it is still the newest, write its history entry again (a crash may
      // have come between the two writes).
      if (cur.applied[cur.applied.length - 1] === m.gameId) await putHistory(services, m, seat, cur);
      return;
    }
    const before = m.before.map((r, s) => (s === seat ? asValue(cur) : r));
    const after = rateFreeForAll(before, m.ranking)[seat];
    const next: RatingRecord = {
      playerId,
      edition: m.edition,
      mu: after.mu,
      sigma: after.sigma,
      ordinal: displayRating(after),
      games: (cur?.games ?? 0) + 1,
      wins: (cur?.wins ?? 0) + (place === 1 ? 1 : 0),
      applied: [...(cur?.applied ?? []), m.gameId].slice(-APPLIED_KEPT),
      v: (cur?.v ?? 0) + 1,
      updatedAt: m.endedAt,
    };
    if (await services.store.community.putRating(next, cur?.v ?? 0, m.gameId))
      return putHistory(services, m, seat, next);
  }
  throw new Error(`rating of ${playerId} for game ${m.gameId}: too many lost races`);
}

/** The player's history entry of the game, from the rating it produced (idempotent). */
async function putHistory(services: Services, m: RatedGameMarker, seat: number, r: RatingRecord): Promise<void> {
  const place = m.ranking.indexOf(seat) + 1;
  await services.store.community.putRatingHistory(r.playerId, m.edition, {
    gameId: m.gameId,
    endedAt: m.endedAt,
    place,
    players: m.players.length,
    mu: r.mu,
    sigma: r.sigma,
    ordinal: r.ordinal,
  });
}
