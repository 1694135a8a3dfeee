// Conceding: a seated player gives up. The engine records it (the `concede` command: the seat
// ranks last, scoring.ts concededLast) and the seat is played by the default-move bot to the end,
// as a seat taken over after too many timeouts. One commit (the bots' moves included); with a
// requestId a retry is answered from it.
import type { GameDoc } from '../doc.js';
import type { GameEvent } from '../../engine/index.js';
import type { Services } from '../services.js';
import type { Player } from '../accounts/auth.js';
import { command } from './games.js';
import type { GameRec } from './commit.js';
import { play } from '../doc.js';

/** The kind of bot that makes default moves and plays conceded (and abandoned) seats. */
export const DEFAULT_MOVE_BOT = 'greedy' as const;

/** Hands seat `seat` to the default-move bot for good, marked conceded (the engine command is separate). */
export function giveSeatToBot(doc: GameDoc, seat: number): void {
  doc.seats[seat] = { ...doc.seats[seat], bot: DEFAULT_MOVE_BOT, replaced: true, conceded: true };
}

/** The engine's concession plus the seat handed to the bot, logged in `events`. */
export function concedeSeat(doc: GameDoc, seat: number, events: GameEvent[], baseSeq: number): void {
  play(doc, { seat, concede: true }, events, baseSeq);
  giveSeatToBot(doc, seat);
}

/** The caller concedes the game they sit in (ACTIVE only; FORBIDDEN once a bot plays the seat). */
export async function concede(
  services: Services,
  player: Player,
  gameId: string,
  requestId?: string | null,
): Promise<GameRec> {
  return command(
    services,
    player,
    gameId,
    (seat) => ({ seat, concede: true }),
    'concede',
    requestId,
    (doc, seat) => giveSeatToBot(doc, seat),
  );
}
