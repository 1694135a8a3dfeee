// What an edition tells a person, behind one interface (EditionWords): its names for rounds,
// places and cards, its loot and what each kind is worth, why tied cards and seats sit as they
// do, and the sentences of its own events. Each edition writes its own (classic/words.ts,
// galecrest/words.ts); the API's view reaches them through `wordsOf` (editions/index.ts) and
// holds no edition branch. The English both use (plurals, "You" and its verbs) is here too.

/** The seat of the island's neutral piece (Galecrest's Midshipman). */
export const NEUTRAL_SEAT = -1;

/** How the caller names a seat: "You" for their own, the holder's name for the others. */
export interface SeatNames {
  seat(seat: number): string;
}

/** An event's payload as the caller may see it (the engine's view already hid what it must). */
export type EventData = Readonly<Record<string, unknown>>;

/** One of an edition's own events as a sentence for the caller. */
export type EventSentence = (d: EventData, names: SeatNames) => string;

/** A loot kind of a game, as the loot legend shows it. */
export interface LootEntry {
  kind: string;
  name: string;
  /** Tokens of this kind in the game. */
  tokens: number;
  /** The tile side in play (Galecrest: calm, stormy, custom); null for an edition without tiles. */
  side: string | null;
  /** Its worth at the end of the round, in words. */
  worth: string;
  /** What it does when taken / each night, in words ('' when nothing). */
  effect: string;
}

/** A seat's standing at the end of the game, as the final ranking's tie-breaks read it. */
export interface RankFacts {
  handSize: number;
  /** Booty tokens and doubloons at the end of the last campaign (classic). */
  finalLoot: number;
  finalDoubloons: number;
  /** Reputation space (0 lowest); null without a track. */
  reputation: number | null;
}

/** One tie-break of the final ranking: what it compares, the value compared, that value in words. */
export interface RankingTie {
  why: string;
  value(f: RankFacts): number;
  show(v: number): string;
}

/** A card on the island: its seat (NEUTRAL_SEAT for the Midshipman) and rank. */
export interface PlayedCard {
  seat: number;
  rank: number;
}

/** What an edition writes itself; `defineWords` adds the phrases every edition builds alike. */
export interface OwnWords {
  /** The edition in a sentence: "classic", "Winds of Galecrest". */
  readonly title: string;
  /** A round: "campaign", "voyage". */
  readonly round: string;
  /** Where a seat's characters stay: "den", "ship". */
  readonly den: string;
  /** Where the day's characters line up: "the island", "the sea". */
  readonly island: string;
  /** The phase that ends a round, as a sentence. */
  readonly roundEnd: string;
  /** Who holds NEUTRAL_SEAT ("the Midshipman"). */
  readonly neutralSeat: string;
  /** A character: "Brute (14)", "Midshipman (20½)". */
  card(rank: number): string;
  /** Each loot kind's noun, one and many (goods has no singular: both the same). */
  readonly lootNouns: Readonly<Record<string, readonly [one: string, many: string]>>;
  /** Every loot kind of a game, in the bag's order; `board` is the game view's public board data. */
  legend(board: Readonly<Record<string, unknown>>): LootEntry[];
  /** Why `right` sits right of `left`, two identical ranks at sunrise (after "A and B both played X: "). */
  sunriseTie(left: PlayedCard, right: PlayedCard, names: SeatNames): string;
  /** The final ranking's tie-breaks after points, in the engine's order. */
  readonly rankingTies: readonly RankingTie[];
  /** Sentences of the edition's own events, by event type (the view words the shared ones). */
  readonly events: Readonly<Record<string, EventSentence>>;
  // What the table shows beside the words:
  /** A character's printed tie-break mark for each seat colour; null without printed marks. */
  tieBreakMarks(rank: number): number[] | null;
  /** Doubloons each reputation space pays at the start of a round, lowest first; null without a track. */
  reputationPayouts(): number[] | null;
  /** The board sides a game can be set up with now, the default first; none without boards. */
  boards(): string[];
}

/** An edition's words: its own and the phrases built from them. */
export interface EditionWords extends OwnWords {
  /** Whether `kind` is one of the edition's loot kinds. */
  isLoot(kind: string): boolean;
  /** A loot kind's noun ("cursed relic"); an unknown kind as it is. */
  lootName(kind: string): string;
  /** "a saber", "2 cursed relics", "an amulet", "a goods token" (goods has no singular). */
  lootWords(kind: string, n?: number): string;
  /** "Anne Bonny's Brute (14)", "Your Brute (14)", "the Midshipman (20½)". */
  seatCard(names: SeatNames, seat: number, rank: number): string;
}

export function defineWords(own: OwnWords): EditionWords {
  const nouns = (kind: string) => (Object.hasOwn(own.lootNouns, kind) ? own.lootNouns[kind] : undefined);
  return {
    ...own,
    isLoot: (kind) => nouns(kind) !== undefined,
    lootName: (kind) => nouns(kind)?.[0] ?? kind,
    lootWords(kind, n = 1) {
      const [one, many] = nouns(kind) ?? [kind, `${kind}s`];
      if (n !== 1) return `${n} ${many}`;
      const noun = one === many ? `${one} token` : one;
      return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
    },
    seatCard: (names, seat, rank) =>
      seat === NEUTRAL_SEAT ? `the ${own.card(rank)}` : `${poss(names.seat(seat))} ${own.card(rank)}`,
  };
}

/** An edition's characters by rank as "Brute (14)"; a rank without a card "Character 31". */
export function cardNames(cards: readonly ({ rank: number; name: string } | undefined)[]): (rank: number) => string {
  const byRank = new Map<number, string>();
  for (const c of cards) if (c) byRank.set(c.rank, c.name);
  return (rank) => {
    const name = byRank.get(rank);
    return name ? `${name} (${rank})` : `Character ${rank}`;
  };
}

/** A seat's deck colour as printed: seat 0 red, then yellow, green, blue, black, white. */
const SEAT_COLOURS = ['red', 'yellow', 'green', 'blue', 'black', 'white'] as const;

/** The seats that have a deck colour (classic prints a tie-break mark per colour). */
export const COLOURED_SEATS = SEAT_COLOURS.length;

export const seatColour = (seat: number): string => SEAT_COLOURS[seat] ?? `colour ${seat + 1}`;

// ---- English ----

/** A payload value as a number (payloads are plain JSON). */
export const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));
export const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
export const signed = (k: number) => (k >= 0 ? `+${k}` : `${k}`);
/** "+5 doubloons", "+1 doubloon", "-3 doubloons". */
export const doubloonWords = (k: number) => `${signed(k)} doubloon${Math.abs(k) === 1 ? '' : 's'}`;
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "takes" after a name, "take" after "You". */
export const verb = (subject: string, s3: string) =>
  subject !== 'You' ? s3 : /(ss|sh|ch|x)es$/.test(s3) ? s3.slice(0, -2) : s3.slice(0, -1);
export const poss = (subject: string) => (subject === 'You' ? 'Your' : `${subject}'s`);
export const possLower = (subject: string) => (subject === 'You' ? 'your' : `${subject}'s`);
/** " (Brute)": the reason a payload gives, nothing for none or for the day's own flow. */
export const reasonWords = (d: EventData, key = 'reason') =>
  d[key] !== undefined && d[key] !== 'day' && d[key] !== null ? ` (${String(d[key])})` : '';
