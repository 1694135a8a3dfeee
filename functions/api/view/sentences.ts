// Events as sentences for one caller. An edition's own events (classic's campaign scoring,
// Galecrest's anchor, reputation and kept cards) are worded by the edition (`words.events`);
// the lobby's events and those every edition shares are worded here, one small function per
// event type, with the edition's nouns (`words`: voyage or campaign, ship or den...).
import { cap, type EventData, num, plural, poss, reasonWords, verb } from '../../engine/index.js';
import type { Names } from './names.js';

/** One event type's sentence; `type` is the event's (for the fallback that shows it). */
export type Sentence = (d: EventData, names: Names, type: string) => string;

const seat = (d: EventData, names: Names, key = 'seat') => names.seat(num(d[key]));
const name = (d: EventData, anyone: string) => String(d.name ?? anyone);
/** Loot kinds by their names ("cursed relic"), others as they are. */
const kinds = (v: unknown, names: Names) =>
  Array.isArray(v) ? v.map((x) => names.words.lootName(String(x))).join(', ') : '';
/** `n` tokens of `kind`, or face-down tokens (classic's hidden booty) when the kind is not shown. */
const tokens = (d: EventData, names: Names) => {
  const n = num(d.n ?? 1);
  return d.kind ? names.words.lootWords(String(d.kind), n) : `${n} face-down token${n === 1 ? '' : 's'}`;
};

/** The lobby's and the service's events: the API logs these, not the engine. */
const TABLE: Record<string, Sentence> = {
  gameCreated: (d, { words }) =>
    `Game created: ${words.title}${d.board ? ` (${String(d.board)} board)` : ''}, ${plural(num(d.seats), 'seat')}, ${plural(num(d.bots ?? 0), 'bot')}.`,
  playerJoined: (d) => `${name(d, 'A player')} joins the game.`,
  playerLeft: (d) =>
    d.removedBy
      ? `${name(d, 'A player')} is removed from the lobby by its creator.`
      : `${name(d, 'A player')} leaves the game.`,
  botSeated: (d) => `${name(d, 'A bot')} takes a free seat.`,
  gameStarted: (d, names) =>
    `The game starts with ${Array.isArray(d.names) ? d.names.join(', ') : 'everyone'}. Day 1 loot: ${kinds(d.loot, names)}.`,
  timeout: (d, names) => `${seat(d, names)} ran out of time: the default move is played.`,
  seatReplaced: (d, names) => `A bot now plays for ${seat(d, names)}.`,
  conceded: (d, names) =>
    `${seat(d, names)} ${verb(seat(d, names), 'concedes')}: a bot plays the seat to the end, ranked last.`,
  creatorChanged: (d, names) => `${seat(d, names)} may now start the game.`,
  gameCancelled: (d) =>
    d.reason === 'expired'
      ? `The lobby was cancelled: nobody changed it for ${num(d.days)} days.`
      : 'The game was cancelled.',
  playerInvited: (d) =>
    `Seat ${num(d.seat) + 1} is kept for a player of the previous game until they accept the rematch.`,
  rematch: () => 'A rematch was opened.',
};

const PROMPT_KINDS: Record<string, string> = {
  loot: 'which loot token to take',
  character: 'which character',
  hand: 'which card from hand',
  graveyard: 'which card from the graveyard',
  may: 'whether to use an ability',
  trade: 'what to trade',
  order: 'an order',
  remove: 'which token goes back to the bag',
};

const PHASES: Record<string, (names: Names) => string> = {
  day: () => 'Day: abilities from left to right.',
  dusk: () => 'Dusk: loot is taken from right to left.',
  night: ({ words }) => `Night: abilities in the ${words.den}s.`,
  anchor: ({ words }) => words.roundEnd,
};

/** The game's flow: rounds, days, phases, choices and prompts. */
const FLOW: Record<string, Sentence> = {
  roundStart: (d, { words }) =>
    `${cap(words.round)} ${num(d.round)} begins (${plural(num(d.days), 'day')}). Dealt: ${Array.isArray(d.dealt) ? d.dealt.map((r) => words.card(num(r))).join(', ') : ''}.`,
  dayStart: (d, names) => `Day ${num(d.day)} begins. Loot: ${kinds(d.loot, names)}.`,
  cardChosen: (d, names) => {
    const who = seat(d, names);
    const card = d.rank !== undefined ? ` ${names.words.card(num(d.rank))}` : ' a card';
    return `${who} ${d.changed ? `${verb(who, 'changes')} ${who === 'You' ? 'your' : 'their'} choice to` : verb(who, 'chooses')}${card}.`;
  },
  sunrise: (d, names) => sunriseWords(names, d.island),
  phase: (d, names) => {
    const phase = String(d.phase);
    return Object.hasOwn(PHASES, phase) ? PHASES[phase](names) : `${cap(phase)}.`;
  },
  prompt: (d, names) =>
    `${seat(d, names)} ${seat(d, names) === 'You' ? 'have' : 'has'} to decide ${PROMPT_KINDS[String(d.kind)] ?? 'something'}.`,
  answered: (d, names) =>
    `${seat(d, names)} ${verb(seat(d, names), 'decides')}${d.answer !== undefined ? `: ${answerWords(names, String(d.kind), String(d.answer))}` : ''}.`,
  dayEnd: (d) => `End of day ${num(d.day)}.`,
  gameEnd: (d, names) => {
    const ranking = Array.isArray(d.ranking) ? d.ranking.map((s) => names.seat(num(s))) : [];
    return `Game over. ${ranking.length ? `${ranking[0]} ${verb(ranking[0], 'wins')}. Ranking: ${ranking.join(', ')}.` : ''}`.trim();
  },
};

const PLACES: Record<string, (names: Names) => string> = {
  island: ({ words }) => words.island,
  den: ({ words }) => `the ${words.den}`,
  hand: () => 'the hand',
  graveyard: () => 'the graveyard',
  out: () => 'out of the game',
};
const place = (p: unknown, names: Names) => (Object.hasOwn(PLACES, String(p)) ? PLACES[String(p)](names) : String(p));

/** What moves: characters, doubloons and loot. */
const MOVES: Record<string, Sentence> = {
  character: (d, names) => {
    const who = seat(d, names);
    const moved =
      d.rank !== undefined
        ? `${poss(who)} ${names.words.card(num(d.rank))}`
        : `A character of ${who === 'You' ? 'yours' : who}`;
    return `${moved} goes from ${place(d.from, names)} to ${place(d.to, names)}${reasonWords(d)}.`;
  },
  doubloons: (d, names) => {
    const k = num(d.delta);
    return `${seat(d, names)} ${verb(seat(d, names), k >= 0 ? 'gains' : 'loses')} ${plural(Math.abs(k), 'doubloon')}${reasonWords(d)}.`;
  },
  lootGained: (d, names) => {
    const n = num(d.n ?? 1);
    const what = d.kind || n !== 1 ? tokens(d, names) : 'a face-down token';
    return `${seat(d, names)} ${verb(seat(d, names), 'takes')} ${what}${reasonWords(d, 'why')}.`;
  },
  lootReturned: (d, names) =>
    `${seat(d, names)} ${verb(seat(d, names), 'returns')} ${tokens(d, names)} to the bag${reasonWords(d, 'why')}.`,
  lootRemoved: (d, names) =>
    `${cap(names.words.lootWords(String(d.kind)))} goes back to the bag${d.seat !== undefined ? `, chosen by ${seat(d, names)}` : ''}${reasonWords(d)}.`,
  lootPassed: (d, names) =>
    `${seat(d, names, 'from')} ${verb(seat(d, names, 'from'), 'passes')} ${names.words.lootWords(String(d.kind), num(d.n))} to ${seat(d, names, 'to')}${reasonWords(d)}.`,
  lootSwapped: (d, names) =>
    `${seat(d, names)} ${verb(seat(d, names), 'swaps')} today's ${names.words.lootName(String(d.today))} with tomorrow's ${names.words.lootName(String(d.tomorrow))}${reasonWords(d)}.`,
  lootLeftover: (d, names) => `Loot left on day ${num(d.day)}: ${kinds(d.kinds, names) || 'none'}.`,
};

const SENTENCES: Record<string, Sentence> = { ...TABLE, ...FLOW, ...MOVES };

/** A type without a sentence, as its words: `lootFound` reads "Loot found.". */
const typeWords: Sentence = (_d, _names, type) => `${cap(type.replace(/([A-Z])/g, ' $1').toLowerCase())}.`;

/**
 * One event as a sentence for the caller: an edition's own event in its words, the others from
 * the tables above. Unknown types still show, as their type.
 */
export function describeEvent(ev: { type: string; data: Record<string, unknown> }, names: Names): string {
  const own = names.words.events;
  if (Object.hasOwn(own, ev.type)) return own[ev.type](ev.data, names);
  const say = Object.hasOwn(SENTENCES, ev.type) ? SENTENCES[ev.type] : typeWords;
  return say(ev.data, names, ev.type);
}

/**
 * Sunrise: the island left to right, and why each pair of identical ranks sits as it does
 * (the edition's tie-break: classic's printed marks, Galecrest's reputation).
 */
export function sunriseWords(names: Names, island: unknown): string {
  const { words } = names;
  const cards = Array.isArray(island) ? island.map(parseCard) : [];
  const list = cards.map((c) => words.seatCard(names, c.seat, c.rank)).join(', ');
  const ties: string[] = [];
  for (let i = 1; i < cards.length; i++) {
    const [a, b] = [cards[i - 1], cards[i]];
    if (a.rank !== b.rank || a.seat < 0 || b.seat < 0) continue;
    const who = `${names.seat(a.seat)} and ${names.seat(b.seat)} both played ${words.card(a.rank)}`;
    ties.push(`${who}: ${words.sunriseTie(a, b, names)}`);
  }
  return `Sunrise: ${list || 'nobody'}.${ties.length ? ` Tie: ${ties.join('. Tie: ')}.` : ''}`;
}

/** An island card as the event holds it: "seat:rank", or { seat, rank }. */
function parseCard(c: unknown): { seat: number; rank: number } {
  if (typeof c === 'string') {
    const [s, r] = c.split(':');
    return { seat: num(s), rank: num(r) };
  }
  const o = c as { seat: number; rank: number };
  return { seat: o.seat, rank: o.rank };
}

/** A prompt's answer in words: a card, a seat's card or loot, a loot kind; else as given. */
function answerWords(names: Names, kind: string, answer: string): string {
  const { words } = names;
  if ((kind === 'hand' || kind === 'graveyard') && /^\d+$/.test(answer)) return words.card(Number(answer));
  const c = /^(-?\d+):(\d+(?:\.\d+)?)$/.exec(answer);
  if (c) return words.seatCard(names, Number(c[1]), Number(c[2]));
  const k = /^(-?\d+):([a-z]+)$/.exec(answer);
  if (k) return `${poss(names.seat(Number(k[1])))} ${words.lootName(k[2])}`;
  const t = /^([a-z]+):(\d+)$/.exec(answer);
  if (t) return `${t[2]} ${words.lootName(t[1])}`;
  return words.isLoot(answer) ? words.lootWords(answer) : answer;
}
