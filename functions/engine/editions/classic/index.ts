// Libertalia (2012): 3 campaigns of 6 days, dens, face-down booty, colour tie-breaks.
import { gain } from '../../actions.js';
import { step } from '../../kernel.js';
import { fail } from '../../errors.js';
import type { Edition } from '../../edition.js';
import { rankSeats } from '../../scoring.js';
import type { Step } from '../../types.js';
import { addBooty, BOOTY_BAG, BOOTY_KINDS, campaignEnd, copyBooty, pick, saber, scoreCampaign } from './booty.js';
import { CLASSIC_CARDS } from './cards.js';
import { tieBreak } from './tiebreak.js';

const cards = [undefined, ...CLASSIC_CARDS];

/**
 * A character's dusk (take its booty, then enter the den) depends only on its seat and rank:
 * one frozen list each, shared by every game (pushAll only reads it).
 */
const DUSK_STEPS: Step[][] = [];
function duskStepsOf(seat: number, rank: number): Step[] {
  const steps: Step[] = [];
  const take = cards[rank]?.loot ?? 1;
  if (take > 0) steps.push(step('pick', seat, rank, take));
  steps.push(step('enterDen', seat, rank));
  return Object.freeze(steps) as Step[];
}

export const classic: Edition = {
  id: 'classic',
  minPlayers: 2,
  maxPlayers: 6,
  daysPerRound: [6, 6, 6],
  dealPerRound: [9, 6, 6],
  ranks: 30,
  lootKinds: BOOTY_KINDS,
  copyLoot: copyBooty,
  addLoot: addBooty,
  bag: BOOTY_BAG,
  lootPerDay: (players) => players,
  leftoverToBag: false,
  hiddenLoot: true,
  // Discards are public events, but the Surgeon takes a card back "without revealing which":
  // other seats see how many cards a graveyard holds, not which.
  hiddenGraveyard: true,
  cards,
  setup: (_g, opts) => {
    if (opts.board !== undefined && opts.board !== null)
      fail('BAD_USER_INPUT', 'the classic edition has no board sides');
  },
  startRound: (x) => {
    for (let seat = 0; seat < x.g.players; seat++) gain(x, seat, 10, 'campaign');
  },
  tieBreak,
  duskSteps: (_x, seat, rank) =>
    DUSK_STEPS[seat * 32 + rank] ?? (DUSK_STEPS[seat * 32 + rank] = duskStepsOf(seat, rank)),
  roundEndSteps: campaignEnd,
  // Final tie-breaks: most cards in hand, then most booty tokens, then most doubloons.
  ranking: (g) =>
    rankSeats(g, [(s) => s.score, (s) => s.hand.length, (s) => s.final?.loot ?? 0, (s) => s.final?.doubloons ?? 0]),
  pick,
  step: (x, s, answer) => {
    switch (s.t) {
      case 'saber':
        saber(x, s, answer);
        return true;
      case 'scoreCampaign':
        scoreCampaign(x, s, answer);
        return true;
      default:
        return false;
    }
  },
  botLootValue: { chest: 5, jewel: 3, goods: 1, map: 4, relic: -3, saber: 1, officer: -2 },
};
