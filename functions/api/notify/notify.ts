// What a commit must tell: "your turn", "a bot took a seat over" and "game ended" moments.
// The commit records them in its own item (so a crash after the commit loses none); the
// notice queue delivers them off the move's path (see notices.ts).
import type { GameRec } from '../doc.js';
import type { Notice } from '../services.js';

/** Which human seats became awaited by this commit, and who learns that the game ended. */
export function noticesOf(before: GameRec, after: GameRec): Notice[] {
  const out: Notice[] = [];
  const seats = after.doc.seats;
  const base = { gameId: after.id, version: after.version };
  if (after.status === 'ACTIVE') {
    for (const [s, p] of Object.entries(after.doc.pending)) {
      const seat = Number(s);
      const holder = seats[seat];
      const old = before.status === 'ACTIVE' ? before.doc.pending[s] : undefined;
      if (holder.bot === null && holder.playerId && !(old && old.key === p.key && old.since === p.since)) {
        out.push({ ...base, playerId: holder.playerId, kind: 'yourTurn', seat });
      }
    }
  }
  // A bot took a seat over (too many timeouts): the other players are told.
  seats.forEach((h, seat) => {
    if (!h.replaced || before.doc.seats[seat]?.replaced) return;
    seats.forEach(
      (other, i) =>
        i !== seat &&
        other.playerId &&
        other.bot === null &&
        out.push({ ...base, playerId: other.playerId, kind: 'seatReplaced', seat }),
    );
  });
  if (after.status === 'FINISHED' && before.status !== 'FINISHED') {
    seats.forEach((h, seat) => h.playerId && out.push({ ...base, playerId: h.playerId, kind: 'gameEnded', seat }));
  }
  return out;
}
