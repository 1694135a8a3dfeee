// Who the caller is and how seats are named for them: their own seat is "You", another by its
// holder's name, the island's neutral piece by the edition's word for it. Seat numbers are
// never shown to people.
import { type EditionWords, NEUTRAL_SEAT, type SeatNames, wordsOf } from '../../engine/index.js';
import type { GameDoc } from '../doc.js';

export interface Names extends SeatNames {
  /** The game's edition in words (functions/engine/editions/words.ts). */
  words: EditionWords;
  /** The caller's seat, or null (spectators). */
  viewer: number | null;
}

export function namesOf(doc: Pick<GameDoc, 'seats' | 'edition'>, viewer: number | null): Names {
  const words = wordsOf(doc.edition);
  return {
    words,
    viewer,
    seat: (s) =>
      s === NEUTRAL_SEAT ? words.neutralSeat : s === viewer ? 'You' : (doc.seats[s]?.name ?? `Player ${s + 1}`),
  };
}
