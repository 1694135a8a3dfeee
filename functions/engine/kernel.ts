// The kernel: steps, events, prompts and the run loop, which every edition and the core flow
// share. It imports only types, so editions (below the core) can use it without a circle:
// the core flow's own steps reach it through the context (`x.flow`, put in by core.ts).
import type { Abilities, Ctx, Edition, EventSink, Flow } from './edition.js';
import { NO_EVENTS } from './events.js';
import type { GameState, Option, PromptKind, SeatState, Step } from './types.js';

/** Safety net against a rules bug looping forever; a game runs far fewer steps per command. */
const MAX_STEPS_PER_COMMAND = 100_000;

// ---- the calendar: rounds (campaigns / voyages) and their days ----

/** Days in the current round. */
export const daysThisRound = (x: Ctx): number => x.ed.daysPerRound[x.g.round - 1];

/** The day is the round's last: night ends the round (end of campaign / anchor). */
export const isLastDay = (x: Ctx): boolean => x.g.day >= daysThisRound(x);

/** The round is the game's last: its end is the end of the game. */
export const isLastRound = (x: Ctx): boolean => x.g.round >= x.ed.daysPerRound.length;

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
  x.log.prompt(seat, kind, g.prompt.id);
}

// Prompt ids `p1`, `p2`...: built once each (a game asks a few hundred times).
const PROMPT_IDS: string[] = [];
const promptId = (n: number): string => PROMPT_IDS[n] ?? (PROMPT_IDS[n] = `p${n}`);

/**
 * Runs one step: the core flow's steps first (phases.ts), then the edition's (its own switch,
 * Edition.step: direct calls, where a lookup by name in a table is a dictionary read and a call
 * the compiler cannot inline).
 */
export function resume(x: Ctx, step: Step, answer?: string): void {
  if (x.flow(x, step, answer) || x.ed.step(x, step, answer)) return;
  throw new Error(`no handler for step ${step.t}`);
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

/**
 * The one place a context object is made (context.ts newCtx, trialCtx): one object literal, so
 * every context has one hidden class and the code reading contexts stays monomorphic.
 */
export function makeCtx(g: GameState, ed: Edition, log: EventSink, fx: Abilities, flow: Flow): Ctx {
  return { g, ed, log, fx, flow };
}

/** A context for a trial on a copy `g` of x's game (Galecrest night order): nobody listens. */
export function trialCtx(x: Ctx, g: GameState): Ctx {
  return makeCtx(g, x.ed, NO_EVENTS, x.fx, x.flow);
}

/** A seat's `choice` while it has not chosen today's card (ranks start at 1). */
export const NO_CHOICE = -1;

/** Whether the seat has chosen today's card (secret until sunrise). */
export const hasChosen = (me: SeatState): boolean => me.choice !== NO_CHOICE;

const awaitsChoice = (g: GameState, s: number) => !hasChosen(g.seats[s]) && g.seats[s].hand.length > 0;

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

/** Whether the game waits for `seat` now (allocation-free). */
export function isAwaited(g: GameState, seat: number): boolean {
  if (g.finished) return false;
  if (g.prompt) return g.prompt.seat === seat;
  return g.phase === 'choose' && seat >= 0 && seat < g.players && awaitsChoice(g, seat);
}
