// Classic in words: campaigns, dens, face-down booty sold at the end of each campaign, and the
// tie-break marks printed per deck colour.
import { BOOTY_BAG, BOOTY_VALUE, MAP_SET } from './booty.js';
import { CLASSIC_CARDS } from './cards.js';
import { tieBreak } from './tiebreak.js';
import {
  cardNames,
  COLOURED_SEATS,
  defineWords,
  doubloonWords,
  type EventData,
  num,
  plural,
  possLower,
  type SeatNames,
  seatColour,
  signed,
  verb,
} from '../words.js';

/** Worth in words where it is not the token's doubloons (BOOTY_VALUE). */
const WORTH: Record<string, string> = {
  map: `each set of ${MAP_SET.size} maps scores ${MAP_SET.value}; maps outside a full set score 0`,
};

const EFFECT: Record<string, string> = {
  saber: 'when taken: discard a character from the den of a neighbour (left or right)',
  officer: 'when taken: the character that took it is discarded instead of entering the den',
};

function campaignScored(d: EventData, names: SeatNames): string {
  const who = names.seat(num(d.seat));
  const booty = d.booty as Record<string, number> | undefined;
  const held = booty
    ? Object.entries(booty)
        .filter(([, k]) => k > 0)
        .map(([k, c]) => classicWords.lootWords(k, c))
        .join(', ')
    : '';
  return `${who} ${verb(who, 'sells')} ${held ? `the booty (${held})` : 'no booty'} for ${signed(num(d.value))} and ${verb(who, 'banks')} ${plural(num(d.banked), 'doubloon')}: score ${num(d.score)}.`;
}

export const classicWords = defineWords({
  title: 'classic',
  round: 'campaign',
  den: 'den',
  island: 'the island',
  roundEnd: 'End of the campaign: the booty is sold and doubloons banked.',
  neutralSeat: 'nobody',
  card: cardNames(CLASSIC_CARDS),
  lootNouns: {
    chest: ['chest', 'chests'],
    jewel: ['jewel', 'jewels'],
    goods: ['goods', 'goods'],
    map: ['treasure map', 'treasure maps'],
    relic: ['cursed relic', 'cursed relics'],
    saber: ['saber', 'sabers'],
    officer: ['Spanish officer', 'Spanish officers'],
  },
  legend: () =>
    Object.entries(BOOTY_BAG).map(([kind, tokens]) => ({
      kind,
      name: classicWords.lootName(kind),
      tokens,
      side: null,
      worth: WORTH[kind] ?? (BOOTY_VALUE[kind] ? doubloonWords(BOOTY_VALUE[kind]) : '0'),
      effect: EFFECT[kind] ?? '',
    })),
  // Identical ranks: the lower mark of the card's colour goes left (tiebreak.ts).
  sunriseTie: (a, b, names) =>
    `${possLower(names.seat(a.seat))} ${seatColour(a.seat)} card has tie-break mark ${tieBreak(null, a.seat, a.rank)}, ${possLower(names.seat(b.seat))} ${seatColour(b.seat)} card ${tieBreak(null, b.seat, b.rank)}; the lower mark goes left`,
  // The engine's order (index.ts ranking): cards in hand, booty tokens, doubloons.
  rankingTies: [
    { why: 'more cards left in hand', value: (f) => f.handSize, show: (v) => plural(v, 'card') },
    { why: 'more booty tokens at the end', value: (f) => f.finalLoot, show: (v) => plural(v, 'token') },
    { why: 'more doubloons at the end', value: (f) => f.finalDoubloons, show: (v) => plural(v, 'doubloon') },
  ],
  events: { campaignScored },
  tieBreakMarks: (rank) => Array.from({ length: COLOURED_SEATS }, (_, seat) => tieBreak(null, seat, rank)),
  reputationPayouts: () => null,
  boards: () => [],
});
