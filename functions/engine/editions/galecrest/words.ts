// Winds of Galecrest in words: voyages, ships, the sea, loot worded from the tiles in play,
// the reputation track (it breaks ties and pays each voyage) and the anchor's events.
import { GALECREST_CARDS } from './cards.js';
import { LOOT_BAG, playableBoards } from './loot.js';
import { REPUTATION_DOUBLOONS } from './reputation.js';
import type { LootEffect, LootTiming, TileSide } from './tiles.js';
import {
  cardNames,
  defineWords,
  doubloonWords,
  type EventData,
  num,
  plural,
  poss,
  reasonWords,
  type SeatNames,
  signed,
  verb,
} from '../words.js';

const named = cardNames(GALECREST_CARDS);

function effectWords(fx: LootEffect): string {
  if ('doubloons' in fx) return `${doubloonWords(fx.doubloons)} per token`;
  if ('reputation' in fx) return `reputation ${signed(fx.reputation)} per token`;
  if ('sets' in fx) return fx.sets.map((s) => `${s.size} together score ${s.value}`).join(', ');
  if ('keepOrDoubloons' in fx)
    return `per token: keep one ship character for the next voyage, or take ${fx.keepOrDoubloons} doubloons`;
  if ('discard' in fx)
    return `discard another player's character ${fx.discard === 'island' ? 'still at sea' : 'from their ship'}`;
  return JSON.stringify(fx);
}

/** Every loot kind with the tile in play: its anchor effects are its worth, dusk and night its effect. */
function legend(board: Readonly<Record<string, unknown>>) {
  const tiles = (board.tiles ?? {}) as Record<string, TileSide>;
  const sides = (board.sides ?? {}) as Record<string, string>;
  return Object.entries(LOOT_BAG).map(([kind, tokens]) => {
    const tile = tiles[kind] ?? {};
    const words = (t: LootTiming) => (tile[t] ?? []).map(effectWords).join('; ');
    const effect = [tile.dusk && `when taken: ${words('dusk')}`, tile.night && `each night: ${words('night')}`]
      .filter(Boolean)
      .join('; ');
    return {
      kind,
      name: galecrestWords.lootName(kind),
      tokens,
      side: sides[kind] || null,
      worth: words('anchor') || '0',
      effect,
    };
  });
}

/**
 * A reputation move with every token it moved: "Anne's reputation rises from space 3 to 4;
 * she passes Mary, who slides back to space 3". A move that cannot go further stays put and
 * says so ("stays on space 6, 1 over the top").
 */
function reputationMove(d: EventData, names: SeatNames): string {
  const who = names.seat(num(d.seat));
  const [from, to, over] = [num(d.from), num(d.to), num(d.overflow ?? 0)];
  const beyond = over ? `${Math.abs(over)} ${over > 0 ? 'over the top' : 'below the bottom'}` : '';
  if (from === to) return `${poss(who)} reputation stays on space ${to + 1}${beyond ? `, ${beyond}` : ''}`;
  const up = to > from;
  const passed = Array.isArray(d.passed) ? (d.passed as { seat: number; to: number }[]) : [];
  const slides = passed.map((p) => {
    const name = names.seat(num(p.seat));
    return `${name}, who ${name === 'You' ? 'slide' : 'slides'} ${up ? 'back' : 'up'} to space ${num(p.to) + 1}`;
  });
  const pronoun = who === 'You' ? 'you' : 'they';
  return `${poss(who)} reputation ${up ? 'rises' : 'falls'} from space ${from + 1} to ${to + 1}${beyond ? ` (${beyond})` : ''}${
    slides.length ? `; ${pronoun} ${up ? 'pass' : 'drop below'} ${slides.join(' and ')}` : ''
  }`;
}

const seatOf = (d: EventData, names: SeatNames) => names.seat(num(d.seat));
const card = (rank: unknown) => galecrestWords.card(num(rank));

export const galecrestWords = defineWords({
  title: 'Winds of Galecrest',
  round: 'voyage',
  den: 'ship',
  island: 'the sea',
  roundEnd: 'Anchor: the voyage is scored.',
  neutralSeat: 'the Midshipman',
  // The Midshipman (2 players) is the one card between two ranks: 20½.
  card: (rank) => (Number.isInteger(rank) ? named(rank) : `Midshipman (${Math.floor(rank)}½)`),
  lootNouns: {
    map: ['treasure map', 'treasure maps'],
    barrel: ['barrel', 'barrels'],
    relic: ['cursed relic', 'cursed relics'],
    saber: ['saber', 'sabers'],
    amulet: ['amulet', 'amulets'],
    hook: ['hook', 'hooks'],
    chest: ['chest', 'chests'],
  },
  legend,
  // Identical ranks: the higher reputation sits to the right (index.ts tieBreak).
  sunriseTie: (_a, b, names) => {
    const right = names.seat(b.seat);
    return `${right} ${right === 'You' ? 'have' : 'has'} the higher reputation and sits to the right`;
  },
  rankingTies: [{ why: 'the higher reputation', value: (f) => f.reputation ?? 0, show: (v) => `space ${v + 1}` }],
  events: {
    reputation: (d, names) => `${reputationMove(d, names)}${reasonWords(d)}.`,
    kept: (d, names) =>
      `${seatOf(d, names)} ${verb(seatOf(d, names), 'keeps')} ${card(d.rank)} aboard for the next voyage.`,
    copied: (d, names) => `${poss(seatOf(d, names))} ${card(d.rank)} copies ${card(d.copied)}.`,
    anchorAbility: (d, names) =>
      `Anchor: ${galecrestWords.seatCard(names, num(d.seat), num(d.rank))} is worth ${signed(num(d.value))}.`,
    anchorLoot: (d, names) =>
      `Anchor: ${poss(seatOf(d, names))} ${galecrestWords.lootWords(String(d.kind), num(d.count)).replace(/^an? /, '')} ${num(d.count) === 1 ? 'is' : 'are'} worth ${signed(num(d.value))}.`,
    voyageBanked: (d, names) =>
      `${seatOf(d, names)} ${verb(seatOf(d, names), 'banks')} ${plural(num(d.banked), 'doubloon')}: score ${num(d.score)}.`,
  },
  tieBreakMarks: () => null,
  reputationPayouts: () => [...REPUTATION_DOUBLOONS],
  boards: () => playableBoards(),
});
