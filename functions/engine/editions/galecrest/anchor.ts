// End of a voyage ("anchor"). Players may resolve anchor abilities in any order, but the
// order may not dodge the floor of 0 doubloons: losses offset gains whatever the order. So
// every anchor ability is read from the ship as it stands when the voyage ends, the values
// are summed in a ledger (hooks add their +2 there), and the sum is settled once. No order
// prompt is needed because the order can change nothing.
import { cardName, charId, gain, moveCharacter, pay, sortedCopy } from '../../actions.js';
import { ask, emit, push, step, stepMaker } from '../../kernel.js';
import { perEdition } from '../../tables.js';
import type { Ctx, Effect } from '../../edition.js';
import type { Option, Step } from '../../types.js';
import type { GalecrestCard } from './cards.js';
import { bestSets, LOOT_KINDS } from './loot.js';
import { changeReputation } from './reputation.js';
import { ext } from './state.js';

/** The score dial stops at 99; wealth above it is kept beside the dial and still counts. */
export const DIAL_MAX = 99;

const cardsOf = (x: Ctx) => x.ed.cards as ReadonlyArray<GalecrestCard | undefined>;

// Anchor steps carry a seat (and the hook its value): shared objects, never edited.
const anchorStep = stepMaker('anchor');
const settleStep = stepMaker('settle');
const BANK = step('bank');
/** Per player count: the end of a voyage, one frozen list (pushAll only reads it). */
const ANCHOR_STEPS: Step[][] = [];

export function anchorSteps(x: Ctx): Step[] {
  const players = x.g.players;
  if (ANCHOR_STEPS[players]) return ANCHOR_STEPS[players];
  const steps: Step[] = [];
  for (let seat = 0; seat < players; seat++) steps.push(anchorStep(seat, 0));
  steps.push(BANK);
  return (ANCHOR_STEPS[players] = Object.freeze(steps) as Step[]);
}

/** Hook steps by seat and value (tiles are data: a value the table has not seen gets its own). */
const HOOK_STEPS: Step[] = [];
function hookStep(seat: number, value: number): Step {
  const i = (seat + 1) * 32 + value;
  if (seat < 0 || seat >= 8 || !Number.isInteger(value) || value < 0 || value >= 32)
    return step('hook', seat, 0, value);
  return HOOK_STEPS[i] ?? (HOOK_STEPS[i] = step('hook', seat, 0, value));
}

/** One seat's anchor: ship abilities and loot tiles into the ledger, then hooks, then settle. */
export const anchor: Effect = (x, s) => {
  const g = x.g;
  const me = g.seats[s.seat];
  const cards = cardsOf(x);
  let net = 0;
  let doubled = '';
  for (const r of me.den) {
    const c = cards[r];
    if (c?.countsDouble) doubled = c.countsDouble;
    if (!c?.anchor) continue;
    const v = c.anchor(x, s.seat);
    net += v;
    if (x.events) emit(x, 'anchorAbility', { seat: s.seat, rank: r, value: v });
  }
  let hooks = 0;
  let hookValue = 0;
  const tiles = ext(g).tiles;
  for (const kind of LOOT_KINDS) {
    const held = me.loot[kind];
    const fx = tiles[kind].anchor;
    if (!fx || held === 0) continue;
    const count = held + (doubled === kind ? 1 : 0);
    let v = 0;
    for (const e of fx) {
      if ('doubloons' in e) v += e.doubloons * count;
      else if ('sets' in e) v += bestSets(count, e.sets);
      else if ('reputation' in e) v += changeReputation(x, s.seat, e.reputation * count, `${kind} tile`, false);
      else if ('keepOrDoubloons' in e) {
        hooks += held;
        hookValue = e.keepOrDoubloons;
      }
    }
    if (v !== 0 && x.events) emit(x, 'anchorLoot', { seat: s.seat, kind, count, value: v });
    net += v;
  }
  ext(g).ledger[s.seat] = net;
  push(x, settleStep(s.seat, 0));
  for (let i = 0; i < hooks; i++) push(x, hookStep(s.seat, hookValue));
};

// Hook options are shared frozen objects (a prompt is replaced, never edited), as actions.ts
// charOption: a hook asks about every character of the ship at every voyage's end.
const keepOptions = perEdition(() => [] as Option[]);
const keepOption = (x: Ctx, seat: number, rank: number): Option => {
  const table = keepOptions(x.ed);
  const i = seat * 64 + rank;
  return (
    table[i] ??
    (table[i] = Object.freeze({
      id: charId(seat, rank),
      label: `Keep ${cardName(x, rank)} (${rank}) for the next voyage`,
    }))
  );
};
const DOUBLOONS_OPTIONS: Option[] = [];
const doubloonsOption = (n: number): Option =>
  Number.isInteger(n) && n >= 0 && n < 64
    ? (DOUBLOONS_OPTIONS[n] ??= Object.freeze({ id: 'doubloons', label: `+${n} doubloons` }))
    : { id: 'doubloons', label: `+${n} doubloons` };

/** Hook: keep a ship character (`<seat>:<rank>`) for the next voyage, or `doubloons`. */
export const hook: Effect = (x, s, answer) => {
  const me = x.g.seats[s.seat];
  if (answer === undefined) {
    const options: Option[] = [];
    // Keeping is worth something only if another voyage follows: in the last one the hook
    // offers the doubloons alone (taken without asking).
    const last = x.g.round >= x.ed.daysPerRound.length;
    if (!last)
      for (const r of sortedCopy(me.den)) {
        if (!me.kept.includes(r)) options.push(keepOption(x, s.seat, r));
      }
    options.push(doubloonsOption(s.n!));
    ask(x, s, s.seat, 'character', 'Hook: keep a ship character for the next voyage, or take the doubloons', options);
    return;
  }
  if (answer === 'doubloons') {
    ext(x.g).ledger[s.seat] += s.n!;
    return;
  }
  const rank = Number(answer.slice(answer.indexOf(':') + 1));
  me.kept = me.kept.concat(rank); // replaced, not pushed to: copies share `kept` (clone.ts)
  if (x.events) emit(x, 'kept', { seat: s.seat, rank });
};

/** Settles the ledger (never below 0) and sends a lone night Witch back to hand. */
export const settle: Effect = (x, s) => {
  const net = ext(x.g).ledger[s.seat];
  if (net > 0) gain(x, s.seat, net, 'anchor');
  else if (net < 0) pay(x, s.seat, -net, 'anchor');
  ext(x.g).ledger[s.seat] = 0;
  const me = x.g.seats[s.seat];
  const cards = cardsOf(x);
  // Copied only when some character may go back (moving it edits the den).
  if (!me.den.some((r) => cards[r]?.backToHand)) return;
  for (const r of [...me.den]) {
    const c = cards[r];
    if (c?.backToHand && !me.kept.includes(r) && c.backToHand(x.g, s.seat))
      moveCharacter(x, s.seat, r, 'den', 'hand', c.name);
  }
};

/** Bank the doubloons on the dial, loot back to the bag, ship to the graveyard (kept stay). */
export const bank: Effect = (x) => {
  const g = x.g;
  const last = g.round === x.ed.daysPerRound.length;
  g.seats.forEach((me, seat) => {
    const banked = me.doubloons;
    let tokens = 0;
    for (const k of LOOT_KINDS) {
      const n = me.loot[k];
      tokens += n;
      for (let i = 0; i < n; i++) g.bag.push(k);
      me.loot[k] = 0;
    }
    if (last) me.final = { doubloons: banked, loot: tokens };
    me.score += banked;
    me.doubloons = 0;
    for (const r of [...me.den]) if (!me.kept.includes(r)) moveCharacter(x, seat, r, 'den', 'graveyard', 'anchor');
    me.kept = [];
    if (x.events)
      emit(x, 'voyageBanked', {
        seat,
        banked,
        score: me.score,
        dial: Math.min(DIAL_MAX, me.score),
        beyondDial: Math.max(0, me.score - DIAL_MAX),
      });
  });
  for (const day of g.days) for (const k of day.splice(0)) g.bag.push(k);
};
