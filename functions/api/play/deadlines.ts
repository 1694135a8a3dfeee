// Deadlines: when a human seat's decision is overdue, the sweep makes the default move for it
// (the greedy bot's choice) and logs a `timeout`; after `timeoutsBeforeBot` timeouts in a row a
// bot takes the seat over (`seatReplaced`) and the seat concedes (`conceded`: it ranks last).
// One conditional commit on the game's version: two
// sweeps at once make the move once (the loser finds the seat no longer late).
import type { GameEvent } from '../../engine/index.js';
import { botMove } from './bots.js';
import { commitChangeResult } from './commit.js';
import { concedeSeat, DEFAULT_MOVE_BOT, giveSeatToBot } from './concede.js';
import type { Services } from '../services.js';
import { dealt, DEFAULT_TIMEOUTS_BEFORE_BOT, deadlineOf, lateSeats, play, refreshPending } from '../doc.js';

/** Makes the overdue moves of one game at `services.now()`; returns how many it made. */
export async function enforceDeadlines(services: Services, gameId: string): Promise<number> {
  const now = services.now();
  let made = 0;
  const { mine } = await commitChangeResult(services, gameId, {
    needed: (r) => r.status === 'ACTIVE' && lateSeats(r.doc, now).length > 0,
    apply: (doc, r) => {
      made = 0;
      const events: GameEvent[] = [];
      // A default move may run the day and ask the next seat: that one starts its clock now.
      for (let guard = 0; guard < 2 * doc.seats.length; guard++) {
        const seat = lateSeats(doc, now)[0];
        if (seat === undefined) break;
        const timeouts = (doc.timeouts ??= {});
        const consecutive = (timeouts[seat] ?? 0) + 1;
        timeouts[seat] = consecutive;
        events.push({ type: 'timeout', data: { seat, deadline: deadlineOf(doc, seat), consecutive } });
        play(doc, botMove(r.id, doc, seat, DEFAULT_MOVE_BOT), events, r.lastSeq);
        made++;
        const holder = doc.seats[seat];
        if (consecutive >= (doc.timeoutsBeforeBot ?? DEFAULT_TIMEOUTS_BEFORE_BOT)) {
          events.push({
            type: 'seatReplaced',
            data: { seat, playerId: holder.playerId, name: holder.name, bot: DEFAULT_MOVE_BOT, timeouts: consecutive },
          });
          // An abandoned seat concedes (ranks last); if its default move ended the game, too late.
          if (dealt(doc).finished) giveSeatToBot(doc, seat);
          else concedeSeat(doc, seat, events, r.lastSeq);
        }
        refreshPending(doc, !dealt(doc).finished, now);
      }
      return events;
    },
  });
  return mine ? made : 0;
}
