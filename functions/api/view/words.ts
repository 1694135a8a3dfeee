// Game data in plain English for one caller, in ONE place on the server: event sentences,
// prompt texts and option labels with the seat holders' names (the caller's own seat reads
// "You"), the loot legend of a game and the reasons behind ties. Seat numbers are never shown
// to people. What a caller may see was already decided by the engine's view (view/viewEvent);
// this only puts it into words.
import {
  BOOTY_BAG,
  BOOTY_VALUE,
  characters,
  COLOURS,
  type EditionId,
  LOOT_BAG,
  MAP_SET,
  REPUTATION_DOUBLOONS,
  tieBreak,
} from '../../engine/index.js';
import type { GameDoc } from '../doc.js';
import type { LootKind, TileSide } from '../schema.types.generated.js';

/**
 * An engine loot name or tile side as the schema's enum. The engine names them with plain
 * strings (an edition defines its own); a name the schema lacks is refused when the answer is
 * serialised, so a new kind needs its enum value in schema/game.graphql.
 */
export const lootKind = (k: string) => k as LootKind;
export const tileSide = (s: string) => s as TileSide;

export const NEUTRAL_SEAT = -1;

export interface Names {
  edition: EditionId;
  /** The caller's seat, or null (spectators). */
  viewer: number | null;
  /** A seat's holder by name; the caller's own seat is "You". */
  seat(seat: number): string;
}

export function namesOf(doc: Pick<GameDoc, 'seats' | 'edition'>, viewer: number | null): Names {
  return {
    edition: doc.edition,
    viewer,
    seat: (s) =>
      s === NEUTRAL_SEAT ? 'the Midshipman' : s === viewer ? 'You' : (doc.seats[s]?.name ?? `Player ${s + 1}`),
  };
}

// ---- cards and loot ----

const cardTables = new Map<EditionId, Map<number, string>>();

export function cardName(edition: EditionId, rank: number): string {
  if (!Number.isInteger(rank)) return `Midshipman (${Math.floor(rank)}½)`;
  let t = cardTables.get(edition);
  if (!t) cardTables.set(edition, (t = new Map(characters(edition).map((c) => [c.rank, c.name]))));
  const name = t.get(rank);
  return name ? `${name} (${rank})` : `Character ${rank}`;
}

const LOOT_NAMES: Record<string, [one: string, many: string]> = {
  chest: ['chest', 'chests'],
  jewel: ['jewel', 'jewels'],
  goods: ['goods', 'goods'],
  map: ['treasure map', 'treasure maps'],
  relic: ['cursed relic', 'cursed relics'],
  saber: ['saber', 'sabers'],
  officer: ['Spanish officer', 'Spanish officers'],
  barrel: ['barrel', 'barrels'],
  amulet: ['amulet', 'amulets'],
  hook: ['hook', 'hooks'],
};

/** "a saber", "2 cursed relics", "an amulet", "a goods token" (goods has no singular). */
export function lootWords(kind: string, n = 1): string {
  const [one, many] = LOOT_NAMES[kind] ?? [kind, `${kind}s`];
  if (n !== 1) return `${n} ${many}`;
  const noun = one === many ? `${one} token` : one;
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

export const lootName = (kind: string) => (LOOT_NAMES[kind] ?? [kind])[0];

export interface LootInfo {
  kind: LootKind;
  name: string;
  /** Tokens of this kind in the game. */
  tokens: number;
  /** Galecrest: the tile side in play (calm, stormy, custom); null in classic. */
  side: TileSide | null;
  /** Its worth at the end of the round, in words. */
  worth: string;
  /** What it does when taken / each night, in words ('' when nothing). */
  effect: string;
}

type Effect = Record<string, unknown>;

const signed = (k: number) => (k >= 0 ? `+${k}` : `${k}`);

function effectWords(fx: Effect): string {
  if ('doubloons' in fx)
    return `${signed(Number(fx.doubloons))} doubloon${Math.abs(Number(fx.doubloons)) === 1 ? '' : 's'} per token`;
  if ('reputation' in fx) return `reputation ${signed(Number(fx.reputation))} per token`;
  if ('sets' in fx)
    return (fx.sets as { size: number; value: number }[]).map((s) => `${s.size} together score ${s.value}`).join(', ');
  if ('keepOrDoubloons' in fx)
    return `per token: keep one ship character for the next voyage, or take ${Number(fx.keepOrDoubloons)} doubloons`;
  if ('discard' in fx)
    return `discard another player's character ${fx.discard === 'island' ? 'still at sea' : 'from their ship'}`;
  return JSON.stringify(fx);
}

/** Every loot kind of a game: count, worth and effect (Galecrest: the tiles in play). */
export function lootLegend(edition: EditionId, board: Record<string, unknown>): LootInfo[] {
  if (edition === 'classic') {
    const effects: Record<string, [string, string]> = {
      chest: [`+${BOOTY_VALUE.chest} doubloons`, ''],
      jewel: [`+${BOOTY_VALUE.jewel} doubloons`, ''],
      goods: [`+${BOOTY_VALUE.goods} doubloon`, ''],
      map: [`each set of ${MAP_SET.size} maps scores ${MAP_SET.value}; maps outside a full set score 0`, ''],
      relic: [`${BOOTY_VALUE.relic} doubloons`, ''],
      saber: ['0', 'when taken: discard a character from the den of a neighbour (left or right)'],
      officer: ['0', 'when taken: the character that took it is discarded instead of entering the den'],
    };
    return Object.entries(BOOTY_BAG).map(([kind, tokens]) => ({
      kind: lootKind(kind),
      name: lootName(kind),
      tokens,
      side: null,
      worth: effects[kind]?.[0] ?? '0',
      effect: effects[kind]?.[1] ?? '',
    }));
  }
  const tiles = (board.tiles ?? {}) as Record<string, Record<string, Effect[]>>;
  const sides = (board.sides ?? {}) as Record<string, string>;
  return Object.entries(LOOT_BAG).map(([kind, tokens]) => {
    const tile = tiles[kind] ?? {};
    const words = (t: string) => (tile[t] ?? []).map(effectWords).join('; ');
    const effect = [tile.dusk && `when taken: ${words('dusk')}`, tile.night && `each night: ${words('night')}`]
      .filter(Boolean)
      .join('; ');
    return {
      kind: lootKind(kind),
      name: lootName(kind),
      tokens,
      side: sides[kind] ? tileSide(sides[kind]) : null,
      worth: words('anchor') || '0',
      effect,
    };
  });
}

/** Galecrest: the doubloons each reputation space pays at the start of a voyage, lowest first. */
export const reputationPayouts = (): number[] => [...REPUTATION_DOUBLOONS];

/** Classic: a card's tie-break mark for each seat colour (seat i plays colour i). */
export function tieBreakMarks(rank: number): number[] {
  return COLOURS.map((_, seat) => tieBreak(null, seat, rank));
}

export const colourOf = (seat: number) => COLOURS[seat] ?? `colour ${seat + 1}`;

// ---- sentences ----

const n = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
/** "takes" after a name, "take" after "You". */
const verb = (subject: string, s3: string) =>
  subject !== 'You' ? s3 : /(ss|sh|ch|x)es$/.test(s3) ? s3.slice(0, -2) : s3.slice(0, -1);
const poss = (subject: string) => (subject === 'You' ? 'Your' : `${subject}'s`);
const possLower = (subject: string) => (subject === 'You' ? 'your' : `${subject}'s`);
const roundWord = (e: EditionId) => (e === 'galecrest' ? 'voyage' : 'campaign');
const denWord = (e: EditionId) => (e === 'galecrest' ? 'ship' : 'den');
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Anne Bonny's Brute (14)", "Your Brute (14)", "the Midshipman (20½)". */
export function seatCard(names: Names, seat: number, rank: number): string {
  if (seat === NEUTRAL_SEAT) return `the ${cardName(names.edition, rank)}`;
  return `${poss(names.seat(seat))} ${cardName(names.edition, rank)}`;
}

function place(e: EditionId, p: unknown): string {
  switch (p) {
    case 'island':
      return e === 'galecrest' ? 'the sea' : 'the island';
    case 'den':
      return `the ${denWord(e)}`;
    case 'hand':
      return 'the hand';
    case 'graveyard':
      return 'the graveyard';
    case 'out':
      return 'out of the game';
    default:
      return String(p);
  }
}

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

function phaseWords(e: EditionId, phase: string): string {
  switch (phase) {
    case 'day':
      return 'Day: abilities from left to right.';
    case 'dusk':
      return 'Dusk: loot is taken from right to left.';
    case 'night':
      return `Night: abilities in the ${denWord(e)}s.`;
    case 'anchor':
      return e === 'galecrest'
        ? 'Anchor: the voyage is scored.'
        : 'End of the campaign: the booty is sold and doubloons banked.';
    default:
      return `${cap(phase)}.`;
  }
}

function parseCard(c: unknown): { seat: number; rank: number } {
  if (typeof c === 'string') {
    const [s, r] = c.split(':');
    return { seat: n(s), rank: n(r) };
  }
  const o = c as { seat: number; rank: number };
  return { seat: o.seat, rank: o.rank };
}

/**
 * Sunrise: the island left to right, and why each pair of identical ranks sits as it does
 * (classic: the lower tie-break mark goes left; Galecrest: the higher reputation goes right).
 */
export function sunriseWords(names: Names, island: unknown): string {
  const cards = Array.isArray(island) ? island.map(parseCard) : [];
  const list = cards.map((c) => seatCard(names, c.seat, c.rank)).join(', ');
  const ties: string[] = [];
  for (let i = 1; i < cards.length; i++) {
    const [a, b] = [cards[i - 1], cards[i]];
    if (a.rank !== b.rank || a.seat < 0 || b.seat < 0) continue;
    const who = `${names.seat(a.seat)} and ${names.seat(b.seat)} both played ${cardName(names.edition, a.rank)}`;
    if (names.edition === 'classic') {
      const [ma, mb] = [tieBreak(null, a.seat, a.rank), tieBreak(null, b.seat, b.rank)];
      ties.push(
        `${who}: ${possLower(names.seat(a.seat))} ${colourOf(a.seat)} card has tie-break mark ${ma}, ${possLower(names.seat(b.seat))} ${colourOf(b.seat)} card ${mb}; the lower mark goes left`,
      );
    } else {
      ties.push(
        `${who}: ${names.seat(b.seat)} ${names.seat(b.seat) === 'You' ? 'have' : 'has'} the higher reputation and sits to the right`,
      );
    }
  }
  return `Sunrise: ${list || 'nobody'}.${ties.length ? ` Tie: ${ties.join('. Tie: ')}.` : ''}`;
}

function answerWords(names: Names, kind: string, answer: string): string {
  if ((kind === 'hand' || kind === 'graveyard') && /^\d+$/.test(answer)) return cardName(names.edition, Number(answer));
  const c = /^(-?\d+):(\d+(?:\.\d+)?)$/.exec(answer);
  if (c) return seatCard(names, Number(c[1]), Number(c[2]));
  const k = /^(-?\d+):([a-z]+)$/.exec(answer);
  if (k) return `${poss(names.seat(Number(k[1])))} ${lootName(k[2])}`;
  const t = /^([a-z]+):(\d+)$/.exec(answer);
  if (t) return `${t[2]} ${lootName(t[1])}`;
  if (LOOT_NAMES[answer]) return lootWords(answer);
  return answer;
}

/**
 * A reputation move with every token it moved: "Anne's reputation rises from space 3 to 4;
 * she passes Mary, who slides back to space 3". A move that cannot go further stays put and
 * says so ("stays on space 6, 1 over the top").
 */
export function reputationWords(names: Names, d: Record<string, unknown>): string {
  const who = names.seat(n(d.seat));
  const from = n(d.from);
  const to = n(d.to);
  const over = n(d.overflow ?? 0);
  const beyond = over ? `${Math.abs(over)} ${over > 0 ? 'over the top' : 'below the bottom'}` : '';
  if (from === to) return `${poss(who)} reputation stays on space ${to + 1}${beyond ? `, ${beyond}` : ''}`;
  const up = to > from;
  const passed = Array.isArray(d.passed) ? (d.passed as { seat: number; to: number }[]) : [];
  const slides = passed.map((p) => {
    const name = names.seat(n(p.seat));
    return `${name}, who ${name === 'You' ? 'slide' : 'slides'} ${up ? 'back' : 'up'} to space ${n(p.to) + 1}`;
  });
  const pronoun = who === 'You' ? 'you' : 'they';
  return `${poss(who)} reputation ${up ? 'rises' : 'falls'} from space ${from + 1} to ${to + 1}${beyond ? ` (${beyond})` : ''}${
    slides.length ? `; ${pronoun} ${up ? 'pass' : 'drop below'} ${slides.join(' and ')}` : ''
  }`;
}

/** One event as a sentence for the caller. Unknown types still show, as their type. */
export function describeEvent(ev: { type: string; data: Record<string, unknown> }, names: Names): string {
  const d = ev.data;
  const e = names.edition;
  const who = (k = 'seat') => names.seat(n(d[k]));
  const why = (k = 'reason') => (d[k] !== undefined && d[k] !== 'day' && d[k] !== null ? ` (${String(d[k])})` : '');
  const list = (v: unknown) =>
    Array.isArray(v) ? v.map((x) => (LOOT_NAMES[String(x)] ? lootName(String(x)) : String(x))).join(', ') : '';
  switch (ev.type) {
    case 'gameCreated':
      return `Game created: ${e === 'galecrest' ? 'Winds of Galecrest' : 'classic'}${d.board ? ` (${String(d.board)} board)` : ''}, ${plural(n(d.seats), 'seat')}, ${plural(n(d.bots ?? 0), 'bot')}.`;
    case 'playerJoined':
      return `${String(d.name ?? 'A player')} joins the game.`;
    case 'playerLeft':
      return d.removedBy
        ? `${String(d.name ?? 'A player')} is removed from the lobby by its creator.`
        : `${String(d.name ?? 'A player')} leaves the game.`;
    case 'botSeated':
      return `${String(d.name ?? 'A bot')} takes a free seat.`;
    case 'gameStarted':
      return `The game starts with ${Array.isArray(d.names) ? d.names.join(', ') : 'everyone'}. Day 1 loot: ${list(d.loot)}.`;
    case 'roundStart':
      return `${cap(roundWord(e))} ${n(d.round)} begins (${plural(n(d.days), 'day')}). Dealt: ${Array.isArray(d.dealt) ? d.dealt.map((r) => cardName(e, n(r))).join(', ') : ''}.`;
    case 'dayStart':
      return `Day ${n(d.day)} begins. Loot: ${list(d.loot)}.`;
    case 'cardChosen': {
      const card = d.rank !== undefined ? ` ${cardName(e, n(d.rank))}` : ' a card';
      return `${who()} ${d.changed ? `${verb(who(), 'changes')} ${who() === 'You' ? 'your' : 'their'} choice to` : verb(who(), 'chooses')}${card}.`;
    }
    case 'sunrise':
      return sunriseWords(names, d.island);
    case 'phase':
      return phaseWords(e, String(d.phase));
    case 'prompt':
      return `${who()} ${who() === 'You' ? 'have' : 'has'} to decide ${PROMPT_KINDS[String(d.kind)] ?? 'something'}.`;
    case 'answered':
      return `${who()} ${verb(who(), 'decides')}${d.answer !== undefined ? `: ${answerWords(names, String(d.kind), String(d.answer))}` : ''}.`;
    case 'character': {
      const moved =
        d.rank !== undefined
          ? `${poss(who())} ${cardName(e, n(d.rank))}`
          : `A character of ${who() === 'You' ? 'yours' : who()}`;
      return `${moved} goes from ${place(e, d.from)} to ${place(e, d.to)}${why()}.`;
    }
    case 'doubloons': {
      const k = n(d.delta);
      return `${who()} ${verb(who(), k >= 0 ? 'gains' : 'loses')} ${plural(Math.abs(k), 'doubloon')}${why()}.`;
    }
    case 'reputation':
      return reputationWords(names, d) + `${why()}.`;
    case 'lootGained':
      return `${who()} ${verb(who(), 'takes')} ${d.kind ? lootWords(String(d.kind), n(d.n ?? 1)) : n(d.n ?? 1) === 1 ? 'a face-down token' : `${n(d.n)} face-down tokens`}${why('why')}.`;
    case 'lootReturned':
      return `${who()} ${verb(who(), 'returns')} ${d.kind ? lootWords(String(d.kind), n(d.n ?? 1)) : `${n(d.n ?? 1)} face-down token${n(d.n ?? 1) === 1 ? '' : 's'}`} to the bag${why('why')}.`;
    case 'lootRemoved':
      return `${cap(lootWords(String(d.kind)))} goes back to the bag${d.seat !== undefined ? `, chosen by ${who()}` : ''}${why()}.`;
    case 'lootPassed':
      return `${names.seat(n(d.from))} ${verb(names.seat(n(d.from)), 'passes')} ${lootWords(String(d.kind), n(d.n))} to ${names.seat(n(d.to))}${why()}.`;
    case 'lootSwapped':
      return `${who()} ${verb(who(), 'swaps')} today's ${lootName(String(d.today))} with tomorrow's ${lootName(String(d.tomorrow))}${why()}.`;
    case 'lootLeftover':
      return `Loot left on day ${n(d.day)}: ${list(d.kinds) || 'none'}.`;
    case 'kept':
      return `${who()} ${verb(who(), 'keeps')} ${cardName(e, n(d.rank))} aboard for the next voyage.`;
    case 'copied':
      return `${poss(who())} ${cardName(e, n(d.rank))} copies ${cardName(e, n(d.copied))}.`;
    case 'dayEnd':
      return `End of day ${n(d.day)}.`;
    case 'campaignScored': {
      const booty = d.booty as Record<string, number> | undefined;
      const held = booty
        ? Object.entries(booty)
            .filter(([, k]) => k > 0)
            .map(([k, c]) => lootWords(k, c))
            .join(', ')
        : '';
      return `${who()} ${verb(who(), 'sells')} ${held ? `the booty (${held})` : 'no booty'} for ${signed(n(d.value))} and ${verb(who(), 'banks')} ${plural(n(d.banked), 'doubloon')}: score ${n(d.score)}.`;
    }
    case 'anchorAbility':
      return `Anchor: ${seatCard(names, n(d.seat), n(d.rank))} is worth ${signed(n(d.value))}.`;
    case 'anchorLoot':
      return `Anchor: ${poss(who())} ${lootWords(String(d.kind), n(d.count)).replace(/^an? /, '')} ${n(d.count) === 1 ? 'is' : 'are'} worth ${signed(n(d.value))}.`;
    case 'voyageBanked':
      return `${who()} ${verb(who(), 'banks')} ${plural(n(d.banked), 'doubloon')}: score ${n(d.score)}.`;
    case 'gameEnd': {
      const ranking = Array.isArray(d.ranking) ? d.ranking.map((s) => names.seat(n(s))) : [];
      return `Game over. ${ranking.length ? `${ranking[0]} ${verb(ranking[0], 'wins')}. Ranking: ${ranking.join(', ')}.` : ''}`.trim();
    }
    case 'timeout':
      return `${who()} ran out of time: the default move is played.`;
    case 'seatReplaced':
      return `A bot now plays for ${who()}.`;
    case 'conceded':
      return `${who()} ${verb(who(), 'concedes')}: a bot plays the seat to the end, ranked last.`;
    case 'creatorChanged':
      return `${who()} may now start the game.`;
    case 'gameCancelled':
      return d.reason === 'expired'
        ? `The lobby was cancelled: nobody changed it for ${n(d.days)} days.`
        : 'The game was cancelled.';
    case 'playerInvited':
      return `Seat ${n(d.seat) + 1} is kept for a player of the previous game until they accept the rematch.`;
    case 'rematch':
      return 'A rematch was opened.';
    default:
      return `${cap(ev.type.replace(/([A-Z])/g, ' $1').toLowerCase())}.`;
  }
}

/**
 * An engine label or prompt text with seats named: "Brute (14) of seat 2" becomes
 * "Mary Read's Brute (14)" ("Your Brute (14)" for the caller); any other "seat N" is a name.
 */
export function nameSeats(text: string, names: Names): string {
  const m = /^(.*) of seat (\d+)$/.exec(text);
  if (m) return `${poss(names.seat(Number(m[2])))} ${m[1]}`;
  return text.replace(/\bseat (\d+)\b/g, (_, s: string) => names.seat(Number(s)));
}

/** A prompt option's label for the caller (loot kinds by their names). */
export function optionLabel(label: string, names: Names): string {
  const named = nameSeats(label, names);
  return LOOT_NAMES[named]
    ? cap(lootName(named))
    : named.replace(/\b(\d+) ([a-z]+) for\b/, (all, k: string, kind: string) =>
        LOOT_NAMES[kind] ? `${k} ${lootWords(kind, Number(k)).replace(/^\d+ /, '')} for` : all,
      );
}

// ---- the final ranking ----

export interface TieFacts {
  seat: number;
  score: number;
  handSize: number;
  /** Classic: booty tokens and doubloons at the end of the last campaign. */
  finalLoot: number;
  finalDoubloons: number;
  /** Galecrest: reputation space (0 lowest). */
  reputation: number | null;
}

/**
 * Why each seat ranks below the one before it on equal points: the criterion that decided, in
 * the engine's order (classic: cards in hand, booty tokens, doubloons; Galecrest: reputation);
 * null for a seat not tied with the one above.
 */
export function tieReasons(edition: EditionId, ranked: TieFacts[], names: Names): (string | null)[] {
  const criteria: [string, (f: TieFacts) => number, (v: number) => string][] =
    edition === 'classic'
      ? [
          ['more cards left in hand', (f) => f.handSize, (v) => plural(v, 'card')],
          ['more booty tokens at the end', (f) => f.finalLoot, (v) => plural(v, 'token')],
          ['more doubloons at the end', (f) => f.finalDoubloons, (v) => plural(v, 'doubloon')],
        ]
      : [['the higher reputation', (f) => f.reputation ?? 0, (v) => `space ${v + 1}`]];
  return ranked.map((f, i) => {
    const above = ranked[i - 1];
    if (!above || above.score !== f.score) return null;
    const head = `Tied on ${plural(f.score, 'point')} with ${names.seat(above.seat)}`;
    for (const [why, value, show] of criteria) {
      const [a, b] = [value(above), value(f)];
      if (a !== b)
        return `${head}; ${names.seat(above.seat)} ${names.seat(above.seat) === 'You' ? 'rank' : 'ranks'} higher: ${why} (${show(a)} to ${show(b)}).`;
    }
    return `${head}; still equal on every tie-break, so the earlier seat ranks higher.`;
  });
}
