// The shared game flow: sunrise, day, dusk, night, end of round. Each phase walks the
// island (or the dens) with a cursor kept in the state, so cards added or removed while a
// phase runs (Parrot, Brute, Spanish officer...) are handled by the same loop.
import { indexIn, placeOnIsland, moveCharacter, removeAt } from './actions.js';
import {
  firstAwaitedSeat,
  hasChosen,
  isLastDay,
  isLastRound,
  push,
  pushAll,
  resume,
  step,
  stepMaker,
  NO_CHOICE,
} from './kernel.js';
import type { Ctx, Effect } from './edition.js';
import { startRound } from './setup.js';
import type { IslandCard, Step } from './types.js';
import { concededLast } from './scoring.js';

// The phase-walking steps carry no data: one shared instance each saves an allocation per
// card per phase (steps are never edited, see core.ts step()).
const DAY_NEXT = step('dayNext');
const DUSK_NEXT = step('duskNext');
const NIGHT_NEXT = step('nightNext');
const DAY_END = step('dayEnd');
const ROUND_CLOSE = step('roundClose');
const dayStep = stepMaker('day');
const nightStep = stepMaker('night');
/** Reveals the day's choices; pushed by the last card choice (core) and the greedy bot's trial. */
export const SUNRISE = step('sunrise');

// Cursor ends: finite, because the state goes through JSON (Infinity would become null).
const LEFT_END = -1;
const RIGHT_END = 1e9;

// Running a step at once rather than pushing it: where a phase step would push a step and
// return, and the run loop would pop that same step next (nothing is asked in between, the
// game is not over, the phase is not `choose`), calling it directly does exactly the same
// work in the same order, minus a push, a pop and a dispatch. The steps after it are still
// pushed first, so whatever it pushes runs before them, as before.

/** Reveal every secret choice at once and lay the cards out in order. */
const sunrise: Effect = (x) => {
  const g = x.g;
  g.island = [];
  for (let s = 0; s < g.players; s++) {
    const me = g.seats[s];
    if (!hasChosen(me)) continue;
    removeAt(me.hand, indexIn(me.hand, me.choice));
    placeOnIsland(x, s, me.choice);
    me.choice = NO_CHOICE;
  }
  x.ed.sunrise?.(x);
  x.log.sunrise(g);
  g.phase = 'day';
  g.cursor = LEFT_END;
  if (g.prompt) push(x, DAY_NEXT);
  else dayNext(x, DAY_NEXT);
};

/**
 * Daytime, left to right: the next card after the cursor with a day ability resolves it
 * (cards without one are passed over in the same step: nothing happens between them).
 */
const dayNext: Effect = (x) => {
  const g = x.g;
  const day = x.fx.day;
  const island = g.island;
  for (let i = 0; i < island.length; i++) {
    const card = island[i];
    if (card.key <= g.cursor) continue;
    g.cursor = card.key;
    const ability = card.seat >= 0 ? day[card.rank] : undefined;
    if (!ability) continue;
    push(x, DAY_NEXT);
    ability(x, dayStep(card.seat, card.rank), undefined);
    return;
  }
  g.phase = 'dusk';
  g.cursor = RIGHT_END;
  x.log.phase('dusk');
  duskNext(x, DUSK_NEXT);
};

/** Dusk, right to left: each character takes its loot, resolves, then enters the den. */
const duskNext: Effect = (x) => {
  const g = x.g;
  let card;
  for (let i = g.island.length - 1; i >= 0; i--) {
    if (g.island[i].key < g.cursor) {
      card = g.island[i];
      break;
    }
  }
  if (!card) {
    endDusk(x);
    return;
  }
  g.cursor = card.key;
  push(x, DUSK_NEXT);
  const steps = x.ed.duskSteps(x, card.seat, card.rank);
  for (let i = steps.length - 1; i > 0; i--) push(x, steps[i]);
  if (steps.length > 0) resume(x, steps[0]);
};

function anyNotASeat(island: readonly IslandCard[]): boolean {
  for (let i = 0; i < island.length; i++) if (island[i].seat < 0) return true;
  return false;
}

/**
 * The day's unclaimed loot back to the bag (Galecrest), emptied in place: a loop and pops,
 * where `splice(0)` made a new list at every dusk (the event gets its own copy).
 */
function leftoverToBag(x: Ctx): void {
  const g = x.g;
  const day = g.days[g.day - 1];
  if (day.length === 0) return;
  x.log.lootLeftover(g.day, day);
  for (let i = 0; i < day.length; i++) g.bag.push(day[i]);
  while (day.length > 0) day.pop();
}

function endDusk(x: Ctx): void {
  const g = x.g;
  if (x.ed.leftoverToBag) leftoverToBag(x);
  // Pieces that are not characters of a seat (the Midshipman) leave with the dusk.
  if (anyNotASeat(g.island)) g.island = g.island.filter((c) => c.seat >= 0);
  g.phase = 'night';
  g.cursor = RIGHT_END;
  x.log.phase('night');
  push(x, DAY_END);
  if (x.ed.night) x.ed.night(x);
  else pushDenNights(x);
}

/**
 * A character that is still on the island after its dusk goes into its owner's den
 * (moveCharacter does nothing for one that left the island during its dusk).
 */
const enterDen: Effect = (x, s) => {
  moveCharacter(x, s.seat, s.rank, 'island', 'den', 'dusk');
};

/** Night order key: rank first (higher resolves first), then seat (lower first); seats < 8. */
const nightKey = (rank: number, seat: number): number => rank * 8 + (7 - seat);

/**
 * Classic night: every den character with a night ability, highest rank first (then the lower
 * seat). The order is settled when night falls, one step per character (pushed lowest first:
 * the queue is a stack); a night ability may discard a character that has not resolved yet,
 * so each step first checks its character is still in the den. No night ability brings a
 * character into a den, so nobody is missed.
 */
function pushDenNights(x: Ctx): void {
  const g = x.g;
  const night = x.fx.night;
  const q = g.queue;
  const start = q.length;
  for (let s = 0; s < g.players; s++) {
    const den = g.seats[s].den;
    for (let i = 0; i < den.length; i++) if (night[den[i]] !== undefined) q.push(denNightStep(s, den[i]));
  }
  // The new steps sorted in place by night key, ascending (insertion sort: a few steps).
  for (let i = start + 1; i < q.length; i++) {
    const v = q[i];
    const k = nightKey(v.rank, v.seat);
    let j = i - 1;
    while (j >= start && nightKey(q[j].rank, q[j].seat) > k) {
      q[j + 1] = q[j];
      j--;
    }
    q[j + 1] = v;
  }
}

const denNightStep = stepMaker('denNight');

/** One den character's night ability, if the character is still in the den. */
const denNight: Effect = (x, s) => {
  const g = x.g;
  if (indexIn(g.seats[s.seat].den, s.rank) < 0) return;
  g.cursor = nightKey(s.rank, s.seat);
  x.fx.night[s.rank]!(x, nightStep(s.seat, s.rank), undefined);
};

/**
 * The classic night as states stored before `denNight` walk it (a game paused at a night
 * prompt by an earlier version resumes here): the next character is the highest night key
 * below the cursor among the characters in the dens now.
 */
const nightNext: Effect = (x) => {
  const g = x.g;
  let best = -1;
  let who = -1;
  let what = 0;
  const night = x.fx.night;
  for (let s = 0; s < g.players; s++) {
    const den = g.seats[s].den;
    for (let i = 0; i < den.length; i++) {
      const r = den[i];
      if (night[r] === undefined) continue;
      const k = nightKey(r, s);
      if (k < g.cursor && k > best) {
        best = k;
        who = s;
        what = r;
      }
    }
  }
  if (who < 0) {
    push(x, DAY_END);
    return;
  }
  g.cursor = best;
  push(x, NIGHT_NEXT);
  x.fx.night[what]!(x, nightStep(who, what), undefined);
};

const dayEnd: Effect = (x) => {
  const g = x.g;
  x.log.dayEnd(g.round, g.day);
  if (isLastDay(x)) {
    g.phase = 'anchor';
    x.log.phase('anchor');
    push(x, ROUND_CLOSE);
    pushAll(x, x.ed.roundEndSteps(x));
    return;
  }
  g.day++;
  g.phase = 'choose';
  x.log.dayStart(g);
  // Nobody holds a card (only possible after Parrot/Scout/Recruiter chains): the day still
  // passes, with an empty island, instead of waiting for a choice nobody can make.
  if (firstAwaitedSeat(g) < 0) push(x, SUNRISE);
};

/** After the round's scoring: the next round, or the end of the game. */
const roundClose: Effect = (x) => {
  const g = x.g;
  if (isLastRound(x)) {
    g.finished = true;
    g.phase = 'finished';
    g.ranking = concededLast(x.ed.ranking(g), g.conceded);
    x.log.gameEnd(g);
    return;
  }
  g.round++;
  startRound(x);
};

/**
 * Runs a core step. A switch with direct calls (rather than a table lookup) keeps each call
 * site monomorphic: this is the engine's hottest path. Returns false for edition steps.
 */
export function coreStep(x: Ctx, s: Step, answer: string | undefined): boolean {
  const fx = x.fx;
  switch (s.t) {
    // Most frequent first (a game of 4 runs about 135 picks, 70 dusk steps, 67 den entries...).
    case 'pick':
      x.ed.pick(x, s, answer);
      return true;
    case 'duskNext':
      duskNext(x, s);
      return true;
    case 'enterDen':
      enterDen(x, s);
      return true;
    case 'dayNext':
      dayNext(x, s);
      return true;
    case 'denNight':
      denNight(x, s);
      return true;
    case 'day':
      fx.day[s.rank]?.(x, s, answer);
      return true;
    case 'sunrise':
      sunrise(x, s);
      return true;
    case 'dayEnd':
      dayEnd(x, s);
      return true;
    case 'end':
      fx.end[s.rank]?.(x, s, answer);
      return true;
    case 'night':
      fx.night[s.rank]?.(x, s, answer);
      return true;
    case 'dusk':
      fx.dusk[s.rank]?.(x, s, answer);
      return true;
    case 'roundClose':
      roundClose(x, s);
      return true;
    case 'nightNext':
      nightNext(x, s);
      return true;
    default:
      return false;
  }
}
