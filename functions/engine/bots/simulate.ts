// Whole games played by bots: used by the simulator CLI, the benchmarks and property tests.
import { awaitedBotCommand, botCommand, botRandom, type BotKind } from './index.js';
import { applyInPlace, firstAwaitedSeat } from '../core.js';
import { createGame } from '../setup.js';
import type { GameEvent, GameOptions, GameState } from '../types.js';

/** A bound far above any real game (about 150 commands with 4 players). */
const MAX_COMMANDS = 5_000;

export interface BotGame {
  state: GameState;
  commands: number;
}

/**
 * Plays one game to the end; `bots[seat]` picks each seat's bot (the last entry repeats).
 * `onCommand` sees every command with the state before it (for replay and leak tests).
 */
export function playBotGame(
  opts: GameOptions,
  bots: BotKind[],
  botSeed: number,
  onCommand?: (g: GameState, cmd: ReturnType<typeof botCommand>, events: GameEvent[]) => void,
): BotGame {
  const g = createGame(opts);
  const rnd = botRandom(botSeed);
  let n = 0;
  const events: GameEvent[] = [];
  while (!g.finished) {
    if (++n > MAX_COMMANDS) throw new Error(`game ${opts.seed} did not finish in ${MAX_COMMANDS} commands`);
    const seat = firstAwaitedSeat(g);
    if (seat < 0) throw new Error(`game ${opts.seed}: nobody is awaited in phase ${g.phase}`);
    // firstAwaitedSeat just found the seat awaited: no need for botCommand's check.
    const cmd = awaitedBotCommand(g, seat, bots[Math.min(seat, bots.length - 1)], rnd);
    if (onCommand) {
      events.length = 0;
      applyInPlace(g, cmd, events);
      onCommand(g, cmd, events);
    } else {
      applyInPlace(g, cmd, null);
    }
  }
  return { state: g, commands: n };
}
