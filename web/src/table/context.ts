// What every part of the table is drawn from: the game as the caller sees it, the event log,
// player names, the clock, and the one way to act (which refreshes the game afterwards).
import type { Game, GameEvent } from '../api';
import { cardName, MIDSHIPMAN_SEAT, type Names } from '../words';

export interface TableCtx {
  game: Game;
  events: GameEvent[];
  /** A request is running: controls say so (aria-disabled) and ignore presses. */
  busy: boolean;
  names: Names;
  /** Date.now() of this drawing (countdowns). */
  now: number;
  /** Runs a mutation, then reloads the game and redraws. */
  act(what: () => Promise<unknown>): Promise<void>;
  /** Redraws without reloading (panels whose own state changed). */
  redraw(): void;
}

export const SEAT_COLORS = 6;

/** The CSS class giving a seat its colour (neutral cards: 'seat-n'); the same everywhere. */
export const seatClass = (seat: number) => `seat-${seat < 0 ? 'n' : seat % SEAT_COLORS}`;

/** Names as the viewer reads them: their own seat is "You". */
export function namesFor(game: Game | null): Names {
  return {
    edition: game?.edition ?? 'CLASSIC',
    seat: (s: number) =>
      s === MIDSHIPMAN_SEAT ? 'neutral' : game?.me?.seat === s ? 'You' : (game?.seats[s]?.name ?? 'a player'),
  };
}

export const card = (ctx: TableCtx, rank: number) => cardName(ctx.game.edition, rank);

/** A button's attributes while a request runs: it keeps focus, says it is busy, does nothing. */
export function press(ctx: TableCtx, run: () => Promise<unknown>, off = false): Record<string, unknown> {
  return {
    type: 'button',
    'aria-disabled': ctx.busy || off ? 'true' : undefined,
    disabled: off && !ctx.busy ? true : undefined,
    onclick: () => {
      if (!ctx.busy && !off) void ctx.act(run);
    },
  };
}
