// Bot seats: after any change, every awaited bot seat is answered by the engine's bot, inside
// the same commit, until a human is needed. Bounded so one commit stays a modest item.
import { awaitedSeats, botCommand, botRandom, type BotKind, type Command, type GameEvent } from '../../engine/index.js';
import { dealt, type GameDoc, play } from '../doc.js';

/** Bot commands per commit; a longer bot run continues in further commits. */
export const MAX_BOT_COMMANDS_PER_COMMIT = 400;
/** Events per commit: the outbox lives in the game item (400 KB at most). */
export const MAX_EVENTS_PER_COMMIT = 1200;
/**
 * Time spent on bot moves per commit: expert (search) bots take tens of ms per decision, so
 * a table of them stops here and continues in further commits. Each move depends only on
 * the game and its progress, so where a run is cut changes no move.
 */
export const MAX_BOT_MS_PER_COMMIT = 2000;

export function awaitedBot(doc: GameDoc): number | undefined {
  return doc.state ? awaitedSeats(doc.state).find((s) => doc.seats[s].bot !== null) : undefined;
}

/**
 * Plays awaited bot seats into `events`. Returns true if bots still have moves to make
 * (a bound was reached). The bots' randomness depends only on the game and its progress,
 * never on the game's own RNG, so a retried commit replays the same bot moves.
 */
export function runBots(gameId: string, doc: GameDoc, events: GameEvent[], baseSeq: number): boolean {
  const t0 = Date.now();
  for (
    let i = 0;
    i < MAX_BOT_COMMANDS_PER_COMMIT && events.length < MAX_EVENTS_PER_COMMIT && Date.now() - t0 < MAX_BOT_MS_PER_COMMIT;
    i++
  ) {
    const seat = awaitedBot(doc);
    if (seat === undefined) return false;
    play(doc, botMove(gameId, doc, seat, doc.seats[seat].bot!), events, baseSeq);
  }
  return awaitedBot(doc) !== undefined;
}

/** The bot's command for `seat` (also the default move of a late seat, with 'greedy'). */
export function botMove(gameId: string, doc: GameDoc, seat: number, kind: BotKind): Command {
  const g = dealt(doc);
  return botCommand(g, seat, kind, botRandom(`${gameId}:${g.commands}:${seat}`));
}
