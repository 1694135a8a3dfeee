// The rating beside each seated player's name: looked up once per game view (one Query.rating
// per human seat when the game is first drawn, and again once it finishes: the ratings moved),
// not on every redraw.
import { request } from '../api';
import { SeatRatingDocument } from '../generated';
import type { TableCtx } from '../table/context';

let gameId: string | null = null; // the game and status looked up
const ratings = new Map<string, number>();

/** ' · rating 12.3' for a rated player, '' otherwise (or while loading). */
export function ratingText(ctx: TableCtx, playerId: string | null | undefined): string {
  const g = ctx.game;
  const key = `${g.id} ${g.status === 'FINISHED'}`;
  if (gameId !== key) {
    gameId = key;
    ratings.clear();
    const ids = [...new Set(g.seats.filter((s) => s.playerId).map((s) => s.playerId as string))];
    void Promise.all(
      ids.map((p) =>
        request(SeatRatingDocument, { p, e: g.edition })
          .then((d) => d.rating && gameId === key && ratings.set(p, d.rating.rating))
          .catch(() => undefined),
      ),
    ).then(() => gameId === key && ratings.size && ctx.redraw());
  }
  const r = playerId ? ratings.get(playerId) : undefined;
  return r === undefined ? '' : ` · rating ${r.toFixed(1)}`;
}

/** A new game view looks the ratings up afresh. */
export function forgetSeatRatings(): void {
  gameId = null;
}
