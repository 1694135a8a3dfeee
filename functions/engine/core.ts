// The commands: a card choice or an answer, checked before any change, then run by the
// kernel's loop with the core flow (phases.ts) in the context. Above the editions registry.
import { cloneState, newCtx } from './context.js';
import type { Ctx } from './edition.js';
import { fail } from './errors.js';
import { firstAwaitedSeat, hasChosen, push, resume, run } from './kernel.js';
import { indexIn } from './lists.js';
import { coreStep, SUNRISE } from './phases.js';
import type { Command, GameEvent, GameState, Option } from './types.js';

// Re-exported for the bots, scripts and tests that read them with the commands.
export { awaitedSeats, firstAwaitedSeat, isAwaited } from './kernel.js';
export { cloneState } from './context.js';

/** A context that runs the core flow: what a command (or a bot's look-ahead) plays with. */
export function playCtx(g: GameState, events: GameEvent[] | null): Ctx {
  return newCtx(g, events, coreStep);
}

function playCard(x: Ctx, seat: number, rank: number): void {
  const g = x.g;
  if (g.phase !== 'choose') fail('WRONG_PHASE', `the game is not waiting for card choices (phase ${g.phase})`);
  const me = g.seats[seat];
  if (!Number.isInteger(rank) || indexIn(me.hand, rank) < 0)
    fail('ILLEGAL_MOVE', `card ${rank} is not in seat ${seat}'s hand`);
  const changed = hasChosen(me);
  me.choice = rank;
  x.log.cardChosen(seat, changed, rank);
  if (firstAwaitedSeat(g) < 0) {
    push(x, SUNRISE);
    run(x);
  }
}

function isOption(options: Option[], id: string): boolean {
  for (let i = 0; i < options.length; i++) if (options[i].id === id) return true;
  return false;
}

function answerPrompt(x: Ctx, seat: number, answer: string, promptId?: string): void {
  const p = x.g.prompt;
  if (!p) fail('WRONG_PHASE', 'no decision is pending');
  if (p.seat !== seat) fail('WRONG_PHASE', `the pending decision belongs to seat ${p.seat}`);
  if (promptId !== undefined && promptId !== p.id)
    fail('ILLEGAL_MOVE', `prompt ${promptId} is not the pending one (${p.id})`);
  if (!isOption(p.options, answer)) fail('ILLEGAL_MOVE', `"${answer}" is not an option of prompt ${p.id}`);
  x.g.prompt = null;
  x.log.answered(seat, p, answer);
  resume(x, p.step, answer);
  run(x);
}

/** A seat gives up. Nothing else changes: its decisions are still awaited (a bot makes them). */
function concede(x: Ctx, seat: number): void {
  const g = x.g;
  if (g.conceded?.includes(seat)) fail('WRONG_PHASE', `seat ${seat} has already conceded`);
  (g.conceded ??= []).push(seat);
  x.log.conceded(seat);
}

function checkCommand(g: GameState, cmd: Command): void {
  if (!cmd || typeof cmd !== 'object') fail('BAD_USER_INPUT', 'a command is an object');
  if (!Number.isInteger(cmd.seat) || cmd.seat < 0 || cmd.seat >= g.players)
    fail('BAD_USER_INPUT', `no seat ${cmd.seat}`);
  if (g.finished) fail('WRONG_PHASE', 'the game is finished');
}

/**
 * Applies one command to the state in place. Every check runs before the first change,
 * so a rejected command leaves the state exactly as it was. Pass `null` for events when
 * nobody reads them (bulk simulation): the game itself is the same.
 */
export function applyInPlace(g: GameState, cmd: Command, events: GameEvent[] | null = []): GameEvent[] | null {
  checkCommand(g, cmd);
  const x = playCtx(g, events);
  // Read as fields rather than tested with `in`: a field read is the cheaper of the two.
  const c = cmd as { seat: number; play?: number; answer?: unknown; promptId?: string; concede?: unknown };
  if (c.play !== undefined || 'play' in cmd) playCard(x, c.seat, c.play as number);
  else if (typeof c.answer === 'string') answerPrompt(x, c.seat, c.answer, c.promptId);
  else if (c.concede === true) concede(x, c.seat);
  else fail('BAD_USER_INPUT', 'a command has "play", "answer" or "concede"');
  g.commands++;
  return events;
}

/** The pure entry point: state + command -> new state + events. The input is not touched. */
export function apply(state: GameState, cmd: Command): { state: GameState; events: GameEvent[] } {
  const g = cloneState(state);
  const events: GameEvent[] = [];
  applyInPlace(g, cmd, events);
  return { state: g, events };
}
