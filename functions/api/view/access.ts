// Who may look at a game: its seated players always; anyone else (a spectator, with or
// without a token) only if the creator allowed spectators (the default).
import type { Player } from '../accounts/auth.js';
import type { GameRec } from '../doc.js';
import { seatOf } from '../doc.js';
import { ApiError } from '../errors.js';

export function canWatch(rec: GameRec, player: Player | null): void {
  if (rec.doc.spectators === false && seatOf(rec.doc, player?.id) === null) {
    throw new ApiError('FORBIDDEN', 'this game is private: only its players may look at it');
  }
}
