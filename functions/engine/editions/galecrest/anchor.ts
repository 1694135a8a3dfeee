// End of a voyage ("anchor"). Players may resolve anchor abilities in any order, but the
// order may not dodge the floor of 0 doubloons: losses offset gains whatever the order. So
// every anchor ability is read from the ship as it stands when the voyage ends, the values
// are summed in a ledger (hooks add their +2 there), and the sum is settled once. No order
// prompt is needed because the order can change nothing.
import { cardName, charId, gain, idRank, moveCharacter, pay, sortedCopy } from '../../actions.js';
import { ask, isLastRound, push, step, stepMaker } from '../../kernel.js';
import { perEdition } from '../../tables.js';
import type { Ctx, Effect } from '../../edition.js';
import type { Loot, Option, Step } from '../../types.js';
import type { GalecrestCard } from './cards.js';
import {
  OP_DOUBLOONS,
  OP_KEEP,
  OP_REPUTATION,
  OP_SETS,
  clearLoot,
  heldOf,
  LOOT_KINDS,
  setsValue,
  tileFacts,
} from './loot.js';
import { changeReputation } from './reputation.js';
import { ext } from './state.js';

/** The score dial stops at 99; wealth above it is kept beside the dial and still counts. */
export const DIAL_MAX = 99;

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

/**
 * The card table's anchor fields by rank (card objects differ in shape, so reading a field of
 * each ship character is a slow lookup; an array by rank is one read), per edition.
 */
const byRank = perEdition((ed) => {
  const cards = ed.cards as ReadonlyArray<GalecrestCard | undefined>;
  const anchor: (GalecrestCard['anchor'] | undefined)[] = [];
  const countsDouble: (Loot | undefined)[] = [];
  const backToHand: (GalecrestCard['backToHand'] | undefined)[] = [];
  for (let r = 0; r <= ed.ranks; r++) {
    anchor.push(cards[r]?.anchor);
    countsDouble.push(cards[r]?.countsDouble);
    backToHand.push(cards[r]?.backToHand);
  }
  return { anchor, countsDouble, backToHand };
});

/**
 * One seat's anchor: ship abilities and loot tiles into the ledger, then hooks, then settle.
 * A hook that can only give its doubloons (the last voyage, or an empty ship: its one option
 * would be taken without asking) adds them to the ledger at once; without a hook left to
 * ask, the settle step that would run next runs at once.
 */
export const anchor: Effect = (x, s) => {
  const g = x.g;
  const me = g.seats[s.seat];
  const t = byRank(x.ed);
  let net = 0;
  let doubled: Loot | undefined;
  const den = me.den;
  for (let i = 0; i < den.length; i++) {
    const r = den[i];
    const d = t.countsDouble[r];
    if (d !== undefined) doubled = d;
    const f = t.anchor[r];
    if (f === undefined) continue;
    const v = f(x, s.seat);
    net += v;
    x.log.anchorAbility(s.seat, r, v);
  }
  let hooks = 0;
  let hookValue = 0;
  const program = tileFacts(ext(g).tiles).anchor;
  for (let k = 0; k < LOOT_KINDS.length; k++) {
    const ops = program[k];
    if (ops === null) continue;
    const held = heldOf(me.loot, k);
    if (held === 0) continue;
    const kind = LOOT_KINDS[k];
    const count = held + (doubled === kind ? 1 : 0);
    let v = 0;
    for (let i = 0; i < ops.length; i++) {
      const e = ops[i];
      if (e.op === OP_DOUBLOONS) v += e.n * count;
      else if (e.op === OP_SETS) v += setsValue(e, count);
      else if (e.op === OP_REPUTATION) v += changeReputation(x, s.seat, e.n * count, `${kind} tile`, false);
      else if (e.op === OP_KEEP) {
        hooks += held;
        hookValue = e.n;
      }
    }
    if (v !== 0) x.log.anchorLoot(s.seat, kind, count, v);
    net += v;
  }
  if (hooks > 0 && (isLastRound(x) || den.length === 0)) {
    net += hooks * hookValue;
    hooks = 0;
  }
  ext(g).ledger[s.seat] = net;
  if (hooks === 0) {
    settle(x, settleStep(s.seat, 0));
    return;
  }
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
    if (!isLastRound(x))
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
  const rank = idRank(answer);
  // Replaced, not pushed to: copies share `kept` (clone.ts).
  const kept = me.kept.slice();
  kept.push(rank);
  me.kept = kept;
  x.log.kept(s.seat, rank);
};

/** Settles the ledger (never below 0) and sends a lone night Witch back to hand. */
export const settle: Effect = (x, s) => {
  const net = ext(x.g).ledger[s.seat];
  if (net > 0) gain(x, s.seat, net, 'anchor');
  else if (net < 0) pay(x, s.seat, -net, 'anchor');
  ext(x.g).ledger[s.seat] = 0;
  const me = x.g.seats[s.seat];
  const back = byRank(x.ed).backToHand;
  // Copied only when some character may go back (moving it edits the ship).
  let any = false;
  for (let i = 0; i < me.den.length; i++) if (back[me.den[i]] !== undefined) any = true;
  if (!any) return;
  for (const r of [...me.den]) {
    const f = back[r];
    if (f !== undefined && !me.kept.includes(r) && f(x.g, s.seat))
      moveCharacter(x, s.seat, r, 'den', 'hand', cardName(x, r));
  }
};

/** Bank the doubloons on the dial, loot back to the bag, ship to the graveyard (kept stay). */
export const bank: Effect = (x) => {
  const g = x.g;
  const last = isLastRound(x);
  for (let seat = 0; seat < g.seats.length; seat++) {
    const me = g.seats[seat];
    const banked = me.doubloons;
    let tokens = 0;
    for (let k = 0; k < LOOT_KINDS.length; k++) {
      const n = heldOf(me.loot, k);
      tokens += n;
      for (let i = 0; i < n; i++) g.bag.push(LOOT_KINDS[k]);
    }
    clearLoot(me.loot);
    if (last) me.final = { doubloons: banked, loot: tokens };
    me.score += banked;
    me.doubloons = 0;
    const den = me.den;
    if (me.kept.length === 0) {
      // The whole ship in its order, as moving one character after the other does.
      for (let i = 0; i < den.length; i++) {
        me.graveyard.push(den[i]);
        x.log.character(seat, den[i], 'den', 'graveyard', 'anchor');
      }
      while (den.length > 0) den.pop();
    } else {
      // Kept characters stay (in their order), the others go in the ship's order, as moving
      // one after the other does: the ship compacted in place, no copy of it.
      const kept = me.kept;
      let w = 0;
      for (let i = 0; i < den.length; i++) {
        const r = den[i];
        if (kept.includes(r)) den[w++] = r;
        else {
          me.graveyard.push(r);
          x.log.character(seat, r, 'den', 'graveyard', 'anchor');
        }
      }
      while (den.length > w) den.pop();
      me.kept = [];
    }
    x.log.voyageBanked(seat, banked, me.score, DIAL_MAX);
  }
  for (const day of g.days) while (day.length > 0) g.bag.push(day.shift()!);
};
