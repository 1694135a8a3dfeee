// Helpers for the Galecrest rule examples: a game set up with playScenario (deal, loot,
// board and reputation track fixed), then driven day by day with real commands.
import { applyInPlace, playScenario, summary } from '../../../functions/engine/index.js';
import type { Command, GameEvent, GameState } from '../../../functions/engine/index.js';

export interface Setup {
  players?: number;
  seed?: string;
  /** Ranks dealt before each voyage (everyone gets the same six). */
  deal?: number[][];
  /** Per voyage, per day: the tokens laid out. */
  loot?: string[][][];
  /** Lowest to highest; default: seats 0, 1, 2 on the three lowest spaces (12, 11, 10 doubloons). */
  reputation?: (number | null)[];
  board?: unknown;
  commands?: Command[];
}

export const DEFAULT_TRACK = [0, 1, 2, null, null, null];

/** A Galecrest game at its first decision. Throws on a scenario error. */
export function setup(opts: Setup = {}): { g: GameState; events: GameEvent[] } {
  const players = opts.players ?? 3;
  const r = playScenario({
    edition: 'galecrest',
    players,
    seed: opts.seed ?? 'galecrest rule examples',
    deal: opts.deal,
    loot: opts.loot,
    board: opts.board ?? 'calm',
    reputation: opts.reputation ?? (players === 3 ? DEFAULT_TRACK : undefined),
    commands: opts.commands ?? [],
  });
  if ('error' in r) throw new Error(`scenario error ${r.error.code}: ${r.error.message}`);
  return { g: r.state, events: r.events };
}

export type Answer = [seat: number, option: string];

/**
 * Plays one day: seat i plays `plays[i]` (null: no card), then the answers in order.
 * Unless `open`, no decision may be left pending afterwards.
 */
export function day(g: GameState, plays: (number | null)[], answers: Answer[] = [], open = false): GameEvent[] {
  const events: GameEvent[] = [];
  plays.forEach((rank, seat) => {
    if (rank !== null) applyInPlace(g, { seat, play: rank }, events);
  });
  answer(g, answers, events);
  if (!open && g.prompt) {
    throw new Error(`unexpected decision: seat ${g.prompt.seat} ${g.prompt.kind} [${g.prompt.options.map((o) => o.id)}]`);
  }
  return events;
}

export function answer(g: GameState, answers: Answer[], events: GameEvent[] = []): GameEvent[] {
  for (const [seat, a] of answers) {
    if (!g.prompt) throw new Error(`no decision pending for answer ${seat}:${a}`);
    if (g.prompt.seat !== seat) throw new Error(`decision pending for seat ${g.prompt.seat} (${g.prompt.text}), not ${seat}`);
    applyInPlace(g, { seat, answer: a }, events);
  }
  return events;
}

export function pending(g: GameState): { seat: number; kind: string; options: string[] } | null {
  const p = g.prompt;
  return p ? { seat: p.seat, kind: p.kind, options: p.options.map((o) => o.id) } : null;
}

export const seat = (g: GameState, s: number) => summary(g).seats[s];
export const coins = (g: GameState) => g.seats.map((s) => s.doubloons);
export const rep = (g: GameState) => summary(g).seats.map((s) => s.reputation);
export const track = (g: GameState) => (g.ext as { track: (number | null)[] }).track;

/** Set-up shortcut: put characters straight into a seat's ship (taken from its hand if there). */
export function toShip(g: GameState, s: number, ranks: number[]): void {
  const me = g.seats[s];
  for (const r of ranks) {
    const i = me.hand.indexOf(r);
    if (i >= 0) me.hand.splice(i, 1);
    me.den.push(r);
  }
}

/** Set-up shortcut: give a seat loot tokens (taken out of the bag). */
export function giveLoot(g: GameState, s: number, loot: Record<string, number>): void {
  for (const [k, n] of Object.entries(loot)) {
    for (let i = 0; i < n; i++) g.bag.splice(g.bag.indexOf(k), 1);
    g.seats[s].loot[k] += n;
  }
}

/** Set-up shortcut: jump to the voyage's last day, so the next day ends at anchor. */
export function lastDay(g: GameState): void {
  g.day = g.days.length;
}

export function lootOf(g: GameState, s: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(g.seats[s].loot)) if (n > 0) out[k] = n;
  return out;
}

export const ofType = (events: GameEvent[], type: string) => events.filter((e) => e.type === type);
/** Doubloon changes as [seat, delta], optionally for one reason. */
export function moves(events: GameEvent[], reason?: string): [number, number][] {
  return ofType(events, 'doubloons')
    .filter((e) => reason === undefined || e.data.reason === reason)
    .map((e) => [e.data.seat as number, e.data.delta as number]);
}

export const same = (kind: string, n = 3) => Array.from({ length: n }, () => kind);
