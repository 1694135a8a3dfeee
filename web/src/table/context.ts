// What every part of the table is drawn from: the game as the caller sees it, the event log,
// player names, and the one way to act (which refreshes the game afterwards).
import type { Game, GameEvent } from '../api';
import { cardName, MIDSHIPMAN_SEAT, type Names } from '../words';

export interface TableCtx {
  game: Game;
  events: GameEvent[];
  /** A request is running: controls are disabled. */
  busy: boolean;
  names: Names;
  /** Runs a mutation, then reloads the game and redraws. */
  act(what: () => Promise<unknown>): Promise<void>;
}

export const SEAT_COLORS = 6;

/** The CSS class giving a seat its colour (neutral cards: 'seat-n'). */
export const seatClass = (seat: number) => `seat-${seat < 0 ? 'n' : seat % SEAT_COLORS}`;

/** Names as the viewer reads them: their own seat is "You". */
export function namesFor(game: Game | null): Names {
  return {
    edition: game?.edition ?? 'CLASSIC',
    seat: (s: number) => (s === MIDSHIPMAN_SEAT ? 'neutral' : game?.me?.seat === s ? 'You' : (game?.seats[s]?.name ?? `Seat ${s + 1}`)),
  };
}

export const card = (ctx: TableCtx, rank: number) => cardName(ctx.game.edition, rank);
