// Helpers shared by the rule examples of every edition: drive a game day by day with real
// commands and read the results (each edition's helpers add its own set-up).
import { applyInPlace, summary } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import type { GameEvent, GameState } from '../../functions/engine/index.js';
import { cardProblem, coinProblem, lootProblem } from './invariants.js';

/**
 * Throws unless the state passes the invariants every real game keeps (each dealt character in
 * exactly one place, loot conserved, doubloons whole and never negative). `day` and `answer`
 * call it before their first command, so an example whose hand-made set-up is impossible fails
 * here instead of pinning a made-up result, and again after their last one.
 */
export function assertPossible(g: GameState, when = 'set-up'): void {
  const problem = cardProblem(g) ?? lootProblem(g) ?? coinProblem(g);
  if (problem) throw new Error(`impossible state (${when}): ${problem}`);
}

export type Answer = [seat: number, option: string];

const PLACES = ['island', 'den', 'hand', 'graveyard'];
/** Reasons of events that are not a card's name (set-up, phases, loot and the track). */
const CORE_REASONS = [
  'campaign',
  'booty',
  'dusk',
  'officer',
  'saber',
  'reputation',
  'reputation overflow',
  'anchor',
  'day',
  'bag',
  'Midshipman',
];
/** Prompts that are not a card's: the dusk pick, loot tiles, the hook, the night order, the Midshipman. */
const CORE_PROMPTS =
  /^(Take a booty token$|(Saber|Hook|Night|Midshipman|map|barrel|relic|saber|amulet|hook|chest): \S)/;

/**
 * What players read is part of the rules: every event names a known reason (a card of the
 * edition or a core reason), every character move names real places, and a pending prompt's
 * text starts with the name of the card that asks (or a core prompt) and each option is
 * labelled (cards by name and rank). `day` and `answer` check every event they produce.
 */
export function assertReadable(g: GameState, events: GameEvent[]): void {
  const ed = editionOf(g.edition);
  const names = ed.cards.map((c) => c?.name).filter((n): n is string => !!n);
  const loot = ed.lootKinds.map((k) => `${k} tile`);
  const known = (why: unknown) =>
    typeof why === 'string' && (names.includes(why) || CORE_REASONS.includes(why) || loot.includes(why));
  for (const e of events) {
    if (!/^[a-z][A-Za-z]+$/.test(e.type)) throw new Error(`event type ${JSON.stringify(e.type)}`);
    for (const data of [e.data, e.secret?.data ?? {}]) {
      for (const key of ['reason', 'why']) {
        if (key in data && !known(data[key]))
          throw new Error(`${e.type} event with ${key} ${JSON.stringify(data[key])}: ${JSON.stringify(e)}`);
      }
    }
    if (e.type === 'character' && !(PLACES.includes(e.data.from as string) && PLACES.includes(e.data.to as string))) {
      throw new Error(`character event from ${JSON.stringify(e.data.from)} to ${JSON.stringify(e.data.to)}`);
    }
  }
  const p = g.prompt;
  if (!p) return;
  // The dusk pick names the picking card in Galecrest ("Cook: take a loot token"), not in classic.
  const asker = ['day', 'dusk', 'night', 'copy', ...(g.edition === 'galecrest' ? ['pick'] : [])].includes(p.step.t)
    ? ed.cards[p.step.rank]?.name
    : undefined;
  const readable = asker
    ? p.text.startsWith(`${asker}: `) && p.text.length > asker.length + 2
    : CORE_PROMPTS.test(p.text);
  if (!readable) throw new Error(`prompt text ${JSON.stringify(p.text)} (step ${p.step.t} of ${p.step.rank})`);
  for (const o of p.options) {
    const rank = /^(\d+:)?(\d+)$/.exec(o.id)?.[2];
    const name = rank === undefined ? undefined : ed.cards[Number(rank)]?.name;
    if (
      !o.label ||
      (name && !o.label.includes(name)) ||
      ((p.kind === 'hand' || p.kind === 'graveyard') && o.label !== `${name} (${rank})`)
    ) {
      throw new Error(`option ${o.id} labelled ${JSON.stringify(o.label)} in prompt ${JSON.stringify(p.text)}`);
    }
  }
}

/** Gives the answers in order; each must be for the seat whose decision is pending. */
export function answer(g: GameState, answers: Answer[], events: GameEvent[] = []): GameEvent[] {
  assertPossible(g);
  for (const [seat, a] of answers) {
    if (!g.prompt) throw new Error(`no decision pending for answer ${seat}:${a}`);
    assertReadable(g, []); // each prompt is read before it is answered
    if (g.prompt.seat !== seat)
      throw new Error(`decision pending for seat ${g.prompt.seat} (${g.prompt.text}), not ${seat}`);
    applyInPlace(g, { seat, answer: a }, events);
  }
  assertPossible(g, 'after the answers');
  assertReadable(g, events);
  return events;
}

/**
 * Plays one day: seat i plays `plays[i]` (null: that seat has no card), then the answers are
 * given in order. Unless `open`, the day must then be over (no decision left pending).
 */
export function day(g: GameState, plays: (number | null)[], answers: Answer[] = [], open = false): GameEvent[] {
  const events: GameEvent[] = [];
  assertPossible(g);
  plays.forEach((rank, seat) => {
    if (rank !== null) applyInPlace(g, { seat, play: rank }, events);
  });
  answer(g, answers, events);
  assertReadable(g, events);
  if (!open && g.prompt) {
    throw new Error(
      `unexpected decision: seat ${g.prompt.seat} ${g.prompt.kind} [${g.prompt.options.map((o) => o.id)}]`,
    );
  }
  return events;
}

/** Plays several days without decisions; returns all their events. */
export function days(g: GameState, list: (number | null)[][]): GameEvent[] {
  return list.flatMap((plays) => day(g, plays));
}

/** The pending decision in a compact, comparable form. */
export function pending(g: GameState): { seat: number; kind: string; options: string[] } | null {
  const p = g.prompt;
  return p ? { seat: p.seat, kind: p.kind, options: p.options.map((o) => o.id) } : null;
}

export const seat = (g: GameState, s: number) => summary(g).seats[s];
export const coins = (g: GameState) => g.seats.map((s) => s.doubloons);

/** A seat's loot without the zero counts, e.g. `{ chest: 1 }`. */
export function lootOf(g: GameState, s: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(g.seats[s].loot)) if (n > 0) out[k] = n;
  return out;
}

export const ofType = (events: GameEvent[], type: string) => events.filter((e) => e.type === type);

/** Doubloon changes in the events as [seat, delta] pairs, optionally for one reason (card name). */
export function doubloonMoves(events: GameEvent[], reason?: string): [number, number][] {
  return ofType(events, 'doubloons')
    .filter((e) => reason === undefined || e.data.reason === reason)
    .map((e) => [e.data.seat as number, e.data.delta as number]);
}

/**
 * Set-up shortcut: exactly `keep` stays in the bag (each must be there); every other token of
 * the bag goes to seat `holder`, so loot is still conserved.
 */
export function leaveInBag(g: GameState, keep: string[], holder: number): void {
  const rest = [...g.bag];
  for (const k of keep) {
    const i = rest.indexOf(k);
    if (i < 0) throw new Error(`set-up: no ${k} in the bag`);
    rest.splice(i, 1);
  }
  for (const k of rest) g.seats[holder].loot[k]++;
  g.bag = [...keep];
}

/**
 * Set-up shortcut: a seat holds only `ranks` (each must be in its hand); the rest of its hand
 * is out of play, as if spent in earlier campaigns.
 */
export function handOnly(g: GameState, s: number, ranks: number[]): void {
  const me = g.seats[s];
  for (const r of ranks) if (!me.hand.includes(r)) throw new Error(`set-up: seat ${s} holds no character ${r}`);
  me.out.push(...me.hand.filter((r) => !ranks.includes(r)));
  me.hand = [...ranks];
}

/** Set-up shortcut: give a seat loot tokens (taken out of the bag, each must be there). */
export function giveLoot(g: GameState, s: number, loot: Record<string, number>): void {
  for (const [k, n] of Object.entries(loot)) {
    for (let i = 0; i < n; i++) {
      const at = g.bag.indexOf(k);
      if (at < 0) throw new Error(`set-up: no ${k} left in the bag`);
      g.bag.splice(at, 1);
    }
    g.seats[s].loot[k] += n;
  }
}

/** A deep copy to compare states before/after a rejected command. */
export const snapshot = (g: GameState) => JSON.stringify(g);
