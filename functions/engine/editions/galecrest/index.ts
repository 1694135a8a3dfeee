// Libertalia: Winds of Galecrest (2022): 3 voyages of 4, 5 and 6 days, ships, public loot
// with data-driven loot tiles, the reputation track, the 2-player Midshipman.
// Rules choices: docs/rules-galecrest.md.
import { step } from '../../kernel.js';
import type { Edition } from '../../edition.js';
import type { GameState, Step } from '../../types.js';
import { anchor, anchorSteps, bank, DIAL_MAX, hook, settle } from './anchor.js';
import { copy, discardFromIsland, GALECREST_CARDS } from './cards.js';
import { galecrestNight, nightEnd, nymphs, shipNight } from './night.js';
import { addLoot, copyLoot, LOOT_BAG, LOOT_KINDS, lootFx, pick, setupBoard } from './loot.js';
import { midshipman, placeMidshipman } from './midshipman.js';
import { payReputation, reputationOf, setupTrack } from './reputation.js';
import { ext, type GalecrestExt } from './state.js';

const cards = [undefined, ...GALECREST_CARDS];

/**
 * A character's dusk steps depend only on its seat and rank: one frozen list each, shared by
 * every game (pushAll only reads it). The Midshipman (seat -1) has its own (midshipmanSteps).
 */
const DUSK_STEPS: Step[][] = [];
let MIDSHIPMAN_STEPS: Step[] | null = null;
function midshipmanSteps(rank: number): Step[] {
  if (MIDSHIPMAN_STEPS === null || MIDSHIPMAN_STEPS[0].rank !== rank)
    MIDSHIPMAN_STEPS = Object.freeze([step('midshipman', -1, rank)]) as Step[];
  return MIDSHIPMAN_STEPS;
}
function duskStepsOf(seat: number, rank: number): Step[] {
  const c = cards[rank];
  const steps: Step[] = [];
  if ((c?.loot ?? 1) > 0) steps.push(step('pick', seat, rank));
  if (c?.dusk) steps.push(step('dusk', seat, rank));
  steps.push(step('enterDen', seat, rank));
  return Object.freeze(steps) as Step[];
}

/**
 * Seats best first: the higher score, then the higher reputation, then the lower seat. What
 * rankSeats with those two criteria gives (its order is total), by insertion without a
 * comparator, criteria closures or a list of them.
 */
function ranking(g: GameState): number[] {
  const out: number[] = [];
  for (let s = 0; s < g.seats.length; s++) {
    const score = g.seats[s].score;
    const rep = reputationOf(g, s);
    let i = out.length;
    // Seats already placed are lower; s goes after every one at least as good.
    while (i > 0) {
      const o = out[i - 1];
      const d = g.seats[o].score - score;
      if (d > 0 || (d === 0 && reputationOf(g, o) >= rep)) break;
      i--;
    }
    out.push(s);
    for (let j = out.length - 1; j > i; j--) out[j] = out[j - 1];
    out[i] = s;
  }
  return out;
}

/** A new ledger per player count (0 each), copied: `new Array(n).fill(0)` is a runtime call. */
const LEDGERS: number[][] = [[], [0], [0, 0], [0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]];
const newLedger = (players: number): number[] =>
  players < LEDGERS.length ? LEDGERS[players].slice() : new Array(players).fill(0);

export const galecrest: Edition = {
  id: 'galecrest',
  minPlayers: 2,
  maxPlayers: 6,
  daysPerRound: [4, 5, 6],
  dealPerRound: [6, 6, 6],
  ranks: 40,
  lootKinds: LOOT_KINDS,
  copyLoot,
  addLoot,
  bag: LOOT_BAG,
  lootPerDay: (players) => (players === 2 ? 3 : players),
  leftoverToBag: true,
  hiddenLoot: false,
  hiddenGraveyard: true,
  cards,
  setup: (g, opts) => {
    // Every field at once, in cloneExt's order (the state's): new games' data and their copies
    // share one object layout; set-up fills the board, sides, tiles and track in place.
    const e: GalecrestExt = {
      took: [],
      ledger: newLedger(g.players),
      board: '',
      sides: {},
      tiles: {},
      track: [],
    };
    g.ext = e as unknown as Record<string, unknown>;
    setupBoard(g, opts);
    setupTrack(g, opts);
  },
  startRound: payReputation,
  // Identical ranks: the higher reputation sits to the right (the Midshipman has no token).
  tieBreak: (g, seat) => (seat < 0 ? 0 : reputationOf(g, seat)),
  sunrise: placeMidshipman,
  duskSteps: (x, seat, rank) => {
    // The Midshipman apart: its rank 20.5 as an index would make the table's reads look up a
    // property by name ("20.5") beside the elements, slowing every read.
    if (seat < 0) return midshipmanSteps(rank);
    // Emptied by pops: setting an array's length is a runtime call, and this runs at every dusk step.
    const took = ext(x.g).took;
    while (took.length > 0) took.pop();
    const i = seat * 64 + rank;
    return DUSK_STEPS[i] ?? (DUSK_STEPS[i] = duskStepsOf(seat, rank));
  },
  // The tiles and their sides are fixed at set-up and only read afterwards: copies share them.
  cloneExt: (x) => {
    const e = x as unknown as GalecrestExt;
    // Keys in set-up order, so the copy serialises exactly like the original.
    const c: GalecrestExt = {
      took: e.took.slice(),
      ledger: e.ledger.slice(),
      board: e.board,
      sides: e.sides,
      tiles: e.tiles,
      track: e.track.slice(),
    };
    return c as unknown as Record<string, unknown>;
  },
  night: galecrestNight,
  roundEndSteps: anchorSteps,
  // Final tie: the higher reputation wins (then the lower seat, as rankSeats).
  ranking,
  pick,
  // Most frequent first (a 4-player game runs about 26 shipNight, 20 lootFx, 15 nymphs...).
  step: (x, s, answer) => {
    switch (s.t) {
      case 'shipNight':
        shipNight(x, s, answer);
        return true;
      case 'lootFx':
        lootFx(x, s, answer);
        return true;
      case 'nymphs':
        nymphs(x, s, answer);
        return true;
      case 'nightEnd':
        nightEnd(x, s, answer);
        return true;
      case 'anchor':
        anchor(x, s, answer);
        return true;
      case 'settle':
        settle(x, s, answer);
        return true;
      case 'hook':
        hook(x, s, answer);
        return true;
      case 'copy':
        copy(x, s, answer);
        return true;
      case 'bank':
        bank(x, s, answer);
        return true;
      case 'discardFromIsland':
        discardFromIsland(x, s, answer);
        return true;
      case 'midshipman':
        midshipman(x, s, answer);
        return true;
      default:
        return false;
    }
  },
  botLootValue: { map: 4, barrel: 2, relic: -3, saber: 1, amulet: 3, hook: 2, chest: 5 },
  reputation: reputationOf,
  boardSide: (g) => ext(g).board,
  publicInfo: (g) => {
    const e = ext(g);
    return {
      reputation: [...e.track],
      board: e.board,
      sides: { ...e.sides },
      tiles: structuredClone(e.tiles),
      dial: g.seats.map((s) => Math.min(DIAL_MAX, s.score)),
    };
  },
};
