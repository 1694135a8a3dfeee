// The rating beside each seated player's name: looked up once per game view (one Query.rating
// per human seat when the game is first drawn), not on every redraw.
import { request } from '../api';
import { SeatRatingDocument } from '../generated';
import type { TableCtx } from './context';

let gameId: string | null = null;
const ratings = new Map<string, number>();

/** ' · rating 12.3' for a rated player, '' otherwise (or while loading). */
export function ratingText(ctx: TableCtx, playerId: string | null | undefined): string {
  const g = ctx.game;
  if (gameId !== g.id) {
    gameId = g.id;
    ratings.clear();
    const ids = [...new Set(g.seats.filter((s) => s.playerId && !s.isBot).map((s) => s.playerId as string))];
    void Promise.all(
      ids.map((p) =>
        request(SeatRatingDocument, { p, e: g.edition })
          .then((d) => d.rating && gameId === g.id && ratings.set(p, d.rating.rating))
          .catch(() => undefined),
      ),
    ).then(() => gameId === g.id && ratings.size && ctx.redraw());
  }
  const r = playerId ? ratings.get(playerId) : undefined;
  return r === undefined ? '' : ` · rating ${r.toFixed(1)}`;
}
