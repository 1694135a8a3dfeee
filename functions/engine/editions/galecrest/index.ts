// Libertalia: Winds of Galecrest (2022): 3 voyages of 4, 5 and 6 days, ships, public loot
// with data-driven loot tiles, the reputation track, the 2-player Midshipman.
// Rules choices: docs/rules-galecrest.md.
import { step } from '../../kernel.js';
import type { Edition } from '../../edition.js';
import { rankSeats } from '../../scoring.js';
import type { Step } from '../../types.js';
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
 * every game (pushAll only reads it). Seat -1 is the Midshipman.
 */
const DUSK_STEPS: Step[][] = [];
function duskStepsOf(seat: number, rank: number): Step[] {
  if (seat < 0) return Object.freeze([step('midshipman', seat, rank)]) as Step[];
  const c = cards[rank];
  const steps: Step[] = [];
  if ((c?.loot ?? 1) > 0) steps.push(step('pick', seat, rank));
  if (c?.dusk) steps.push(step('dusk', seat, rank));
  steps.push(step('enterDen', seat, rank));
  return Object.freeze(steps) as Step[];
}

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
      ledger: new Array(g.players).fill(0),
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
    if (seat >= 0) {
      // Emptied by pops: setting an array's length is a runtime call, and this runs at every dusk step.
      const took = ext(x.g).took;
      while (took.length > 0) took.pop();
    }
    const i = (seat + 1) * 64 + rank;
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
  // Final tie: the higher reputation wins.
  ranking: (g) => rankSeats(g, [(s) => s.score, (_s, i, gg) => reputationOf(gg, i)]),
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
