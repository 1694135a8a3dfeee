import type { Abilities, Ctx, Edition, Timing } from './edition.js';
import { cloneState } from './clone.js';
import { fail } from './errors.js';
import { indexIn } from './lists.js';
import { editionOf } from './editions/index.js';
import { coreStep, SUNRISE } from './phases.js';
import { perEdition } from './tables.js';
import type { Command, GameEvent, GameState, Option, PromptKind, Step } from './types.js';

/** Safety net against a rules bug looping forever; a game runs far fewer steps per command. */
const MAX_STEPS_PER_COMMAND = 100_000;

export function emit(x: Ctx, type: string, data: Record<string, unknown>, secret?: GameEvent['secret']): void {
  if (x.events) x.events.push(secret ? { type, data, secret } : { type, data });
}

export function push(x: Ctx, step: Step): void {
  x.g.queue.push(step);
}

/** Seats -1 (pieces of no seat, e.g. the Midshipman) to 6, ranks below 64. */
const STEP_SLOTS = 8 * 64;

/**
 * A maker of shared steps of one kind (and fixed `n`), one object per seat and rank.
 * Steps are never edited once made (a changed step is a new object; clone.ts shares them),
 * so the steps every card takes every day (its day, dusk and night, entering the den) cost
 * no allocation.
 */
export function stepMaker(t: string, n?: number): (seat: number, rank: number) => Step {
  const table: Step[] = [];
  return (seat, rank) => {
    const i = (seat + 1) * 64 + rank;
    if (i < 0 || i >= STEP_SLOTS || !Number.isInteger(i)) return step(t, seat, rank, n);
    return table[i] ?? (table[i] = step(t, seat, rank, n));
  };
}

/**
 * A step. Every step has the same object layout (t, seat, rank, n, memo; unset ones are
 * undefined, which JSON leaves out): the run loop and the effects read steps of every kind,
 * and one layout keeps those reads fast. Steps are never edited once made (clone.ts shares them).
 */
export function step(t: string, seat = -1, rank = 0, n?: number, memo?: string[]): Step {
  return { t, seat, rank, n, memo };
}

/** Pushes steps so that they run in the given order. */
export function pushAll(x: Ctx, steps: Step[]): void {
  for (let i = steps.length - 1; i >= 0; i--) x.g.queue.push(steps[i]);
}

/**
 * Asks `seat` to decide. With one option the engine takes it by itself; with none the
 * caller's effect is simply not resumed (callers handle "nothing to choose" first).
 */
export function ask(x: Ctx, step: Step, seat: number, kind: PromptKind, text: string, options: Option[]): void {
  if (options.length === 0) return;
  if (options.length === 1) {
    resume(x, step, options[0].id);
    return;
  }
  const g = x.g;
  g.promptSeq++;
  g.prompt = { id: promptId(g.promptSeq), seat, kind, text, options, step };
  if (x.events) emit(x, 'prompt', { seat, kind, promptId: g.prompt.id });
}

// Prompt ids `p1`, `p2`...: built once each (a game asks a few hundred times).
const PROMPT_IDS: string[] = [];
const promptId = (n: number): string => PROMPT_IDS[n] ?? (PROMPT_IDS[n] = `p${n}`);

export function resume(x: Ctx, step: Step, answer?: string): void {
  if (coreStep(x, step, answer)) return;
  const h = x.ed.steps[step.t];
  if (!h) throw new Error(`no handler for step ${step.t}`);
  h(x, step, answer);
}

/** Runs queued steps until a decision is needed or the game ends. */
export function run(x: Ctx): void {
  const g = x.g;
  for (let guard = 0; guard < MAX_STEPS_PER_COMMAND; guard++) {
    if (g.prompt || g.finished || (g.phase === 'choose' && g.queue.length === 0)) return;
    const step = g.queue.pop();
    if (!step) throw new Error(`engine stalled in phase ${g.phase} with no work queued`);
    resume(x, step);
  }
  throw new Error('engine did not reach a decision');
}

const awaitsChoice = (g: GameState, s: number) => g.seats[s].choice < 0 && g.seats[s].hand.length > 0;

/** The seats whose input the game is waiting for now. */
export function awaitedSeats(g: GameState): number[] {
  if (g.finished) return [];
  if (g.prompt) return [g.prompt.seat];
  if (g.phase !== 'choose') return [];
  const out: number[] = [];
  for (let s = 0; s < g.players; s++) if (awaitsChoice(g, s)) out.push(s);
  return out;
}

/** The first awaited seat, or -1 (the allocation-free form of awaitedSeats()[0]). */
export function firstAwaitedSeat(g: GameState): number {
  if (g.finished) return -1;
  if (g.prompt) return g.prompt.seat;
  if (g.phase !== 'choose') return -1;
  for (let s = 0; s < g.players; s++) if (awaitsChoice(g, s)) return s;
  return -1;
}

const abilitiesOf = perEdition((ed: Edition): Abilities => {
  const byTiming = (t: Timing) => Array.from({ length: ed.ranks + 1 }, (_, r) => ed.cards[r]?.[t]);
  return { day: byTiming('day'), dusk: byTiming('dusk'), night: byTiming('night'), end: byTiming('end') };
});

/** Whether the game waits for `seat` now (allocation-free). */
export function isAwaited(g: GameState, seat: number): boolean {
  if (g.finished) return false;
  if (g.prompt) return g.prompt.seat === seat;
  return g.phase === 'choose' && seat >= 0 && seat < g.players && awaitsChoice(g, seat);
}

export function newCtx(g: GameState, events: GameEvent[] | null): Ctx {
  const ed = editionOf(g.edition);
  return { g, ed, events, fx: abilitiesOf(ed) };
}

function playCard(x: Ctx, seat: number, rank: number): void {
  const g = x.g;
  if (g.phase !== 'choose') fail('WRONG_PHASE', `the game is not waiting for card choices (phase ${g.phase})`);
  const me = g.seats[seat];
  if (!Number.isInteger(rank) || indexIn(me.hand, rank) < 0) fail('ILLEGAL_MOVE', `card ${rank} is not in seat ${seat}'s hand`);
  const changed = me.choice >= 0;
  me.choice = rank;
  if (x.events) emit(x, 'cardChosen', { seat, changed }, { seat, data: { rank } });
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
  if (promptId !== undefined && promptId !== p.id) fail('ILLEGAL_MOVE', `prompt ${promptId} is not the pending one (${p.id})`);
  if (!isOption(p.options, answer)) fail('ILLEGAL_MOVE', `"${answer}" is not an option of prompt ${p.id}`);
  x.g.prompt = null;
  if (x.events) emit(x, 'answered', { seat, promptId: p.id, kind: p.kind }, { seat, data: { answer } });
  resume(x, p.step, answer);
  run(x);
}

function checkCommand(g: GameState, cmd: Command): void {
  if (!cmd || typeof cmd !== 'object') fail('BAD_USER_INPUT', 'a command is an object');
  if (!Number.isInteger(cmd.seat) || cmd.seat < 0 || cmd.seat >= g.players) fail('BAD_USER_INPUT', `no seat ${cmd.seat}`);
  if (g.finished) fail('WRONG_PHASE', 'the game is finished');
}

/**
 * Applies one command to the state in place. Every check runs before the first change,
 * so a rejected command leaves the state exactly as it was. Pass `null` for events when
 * nobody reads them (bulk simulation): the game itself is the same.
 */
export function applyInPlace(g: GameState, cmd: Command, events: GameEvent[] | null = []): GameEvent[] | null {
  checkCommand(g, cmd);
  const x = newCtx(g, events);
  // Read as fields rather than tested with `in`: a field read is the cheaper of the two.
  const c = cmd as { seat: number; play?: number; answer?: unknown; promptId?: string };
  if (c.play !== undefined || 'play' in cmd) playCard(x, c.seat, c.play as number);
  else if (typeof c.answer === 'string') answerPrompt(x, c.seat, c.answer, c.promptId);
  else fail('BAD_USER_INPUT', 'a command has "play" or "answer"');
  g.commands++;
  return events;
}

export { cloneState } from './clone.js';

/** The pure entry point: state + command -> new state + events. The input is not touched. */
export function apply(state: GameState, cmd: Command): { state: GameState; events: GameEvent[] } {
  const g = cloneState(state);
  const events: GameEvent[] = [];
  applyInPlace(g, cmd, events);
  return { state: g, events };
}
