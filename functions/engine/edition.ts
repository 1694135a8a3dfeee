import type {
  EditionId,
  GameOptions,
  GameState,
  Loot,
  Phase,
  Place,
  Prompt,
  PromptKind,
  SeatState,
  Step,
} from './types.js';

/**
 * What one apply() works with: the state it mutates, where its events go and the edition's
 * rules. Transient: it never enters the state.
 */
export interface Ctx {
  g: GameState;
  ed: Edition;
  /** Where events go (events.ts): a list, or nobody when no one reads them. */
  log: EventSink;
  /** The card table's abilities by timing, indexed by rank (built once per edition). */
  fx: Abilities;
  /**
   * The core flow's steps (phases, picks, card abilities by timing: phases.ts coreStep), run
   * before the edition's own: the kernel reaches the flow through here, not by an import.
   */
  flow: Flow;
}

/**
 * Where the events of one command go, chosen once per command (events.ts sinkInto): one method
 * per kind of event, with the facts it records (events.ts builds each payload). Rule code calls
 * `x.log.<event>(...)` unconditionally: the sink nobody listens to does nothing.
 */
export interface EventSink {
  prompt(seat: number, kind: PromptKind, promptId: string): void;
  /** The card stays secret until sunrise: the others see that the seat chose (or changed its mind). */
  cardChosen(seat: number, changed: boolean, rank: number): void;
  answered(seat: number, p: Prompt, answer: string): void;
  conceded(seat: number): void;
  doubloons(seat: number, delta: number, reason: string): void;
  /** A character moved; `secret`: which one only its owner sees (the Surgeon). */
  character(seat: number, rank: number, from: Place, to: Place, reason: string, secret?: boolean): void;
  /** Tokens gained or returned: the kind public when `open`, else seen by their holder only. */
  loot(type: 'lootGained' | 'lootReturned', seat: number, kind: Loot, n: number, why: string, open: boolean): void;
  lootPassed(from: number, to: number, kind: Loot, n: number, reason: string): void;
  roundStart(g: GameState, dealt: readonly number[]): void;
  /** A new day (the first of a round, or the next): its loot, laid out face up. */
  dayStart(g: GameState): void;
  sunrise(g: GameState): void;
  phase(phase: Phase): void;
  lootLeftover(day: number, kinds: readonly Loot[]): void;
  dayEnd(round: number, day: number): void;
  gameEnd(g: GameState): void;
  /** Classic: a seat's booty sold and doubloons banked at the end of a campaign. */
  campaignScored(seat: number, me: SeatState, value: number): void;
  /** Galecrest: the rest are the Galecrest edition's. */
  copied(seat: number, rank: number, copied: number): void;
  /** A token of the day's display back to the bag (Bodyguard, Midshipman). */
  lootRemoved(seat: number, kind: Loot, reason: string): void;
  lootSwapped(seat: number, today: Loot, tomorrow: Loot, reason: string): void;
  /** A reputation token moved (`track` as it is after the move). */
  reputation(
    track: readonly (number | null)[],
    seat: number,
    from: number,
    to: number,
    overflow: number,
    reason: string,
  ): void;
  anchorAbility(seat: number, rank: number, value: number): void;
  anchorLoot(seat: number, kind: Loot, count: number, value: number): void;
  kept(seat: number, rank: number): void;
  voyageBanked(seat: number, banked: number, score: number, dialMax: number): void;
}

/** Runs `step` if it is one of the core flow's and answers true; false leaves it to the edition. */
export type Flow = (x: Ctx, step: Step, answer: string | undefined) => boolean;

/** Dense per-timing arrays of the card table: the hot loops index these by rank. */
export type Abilities = Record<Timing, (Effect | undefined)[]>;

/**
 * A card ability or a step handler. Called first with `answer` undefined; if it needs a
 * decision it calls `ask()` and returns, and is called again with the chosen option id.
 */
export type Effect = (x: Ctx, step: Step, answer?: string) => void;

export type Timing = 'day' | 'dusk' | 'night' | 'end';

export interface CardDef {
  rank: number;
  name: string;
  /** Rules text in our own words, shown to players. */
  text: string;
  day?: Effect;
  dusk?: Effect;
  night?: Effect;
  /** End of campaign (classic) / anchor (Galecrest). */
  end?: Effect;
  /** Loot tokens this character takes at dusk (default 1). */
  loot?: number;
}

/**
 * An edition is configuration plus its card table and a few rule hooks; the core game
 * flow (phases, ordering, prompts) is shared.
 */
export interface Edition {
  id: EditionId;
  minPlayers: number;
  maxPlayers: number;
  /** Days in each round (campaign / voyage); the length is the number of rounds. */
  daysPerRound: number[];
  /** Ranks dealt to every player before each round. */
  dealPerRound: number[];
  /** Highest character rank (1..ranks). */
  ranks: number;
  /** Loot kinds, in display order; option ids of loot prompts. */
  lootKinds: readonly Loot[];
  /**
   * A copy of one seat's loot record (every kind, in `lootKinds` order). Written out as an
   * object literal per edition: all loot records then share one object layout, which makes
   * copying them (every apply()) and reading them fast.
   */
  copyLoot(loot: Readonly<Record<Loot, number>>): Record<Loot, number>;
  /**
   * `loot[kind] += n`, written out per kind like copyLoot: a store by a fixed name is a plain
   * field write, one by a varying kind name a lookup (a token is gained about 70 times a game).
   */
  addLoot(loot: Record<Loot, number>, kind: Loot, n: number): void;
  /** The bag's composition. */
  bag: Readonly<Record<Loot, number>>;
  lootPerDay(players: number): number;
  /** Galecrest returns unclaimed day loot to the bag after dusk; classic leaves it on its day. */
  leftoverToBag: boolean;
  /** Whether loot held by a player is face down (hidden from the other seats). */
  hiddenLoot: boolean;
  /** Whether a player's graveyard is hidden from the other seats. */
  hiddenGraveyard: boolean;
  cards: ReadonlyArray<CardDef | undefined>;
  /** Edition-specific set-up (ext data); may throw EngineError for bad options. */
  setup(g: GameState, opts: GameOptions): void;
  /** Doubloons and any edition work at the start of a round. */
  startRound(x: Ctx): void;
  /** Tie-break of identical ranks (0-9); higher sits to the right. */
  tieBreak(g: GameState, seat: number, rank: number): number;
  /** Extra island pieces after sunrise (Galecrest 2-player Midshipman). */
  sunrise?(x: Ctx): void;
  /** Steps of one character's dusk, in the order they run (take loot, abilities, enter). */
  duskSteps(x: Ctx, seat: number, rank: number): Step[];
  /**
   * The dusk pick (step `pick`): a character takes loot from the day's display. Every edition
   * has one and a game runs it about twice per card played, so the core dispatches it first.
   */
  pick: Effect;
  /** Steps that end the round (end-of-campaign / anchor abilities, scoring, banking). */
  roundEndSteps(x: Ctx): Step[];
  /** Final ranking, best first. */
  ranking(g: GameState): number[];
  /**
   * Runs one of the edition's own steps (by Step.t) and answers true; false for a step it does
   * not know. A switch with direct calls, most frequent first, as the core's (phases.ts coreStep).
   */
  step: Flow;
  /** What a bot thinks a loot token is worth (greedy bot). */
  botLootValue: Readonly<Record<Loot, number>>;
  /** Reputation track position 0-5 of a seat (Galecrest), or null. */
  reputation?(g: GameState, seat: number): number | null;
  /** The board side in play (Galecrest: calm, stormy, uncharted, custom); none in classic. */
  boardSide?(g: GameState): string;
  /** Public edition data for views (reputation track, loot tiles...). */
  publicInfo?(g: GameState): Record<string, unknown>;
  /**
   * The edition's own night (Galecrest: each player's order, ruling 7): pushes the night's
   * steps when night falls (above the core's end of the day). Without it the core walks the
   * dens by decreasing rank (classic).
   */
  night?(x: Ctx): void;
  /**
   * A deep copy of `g.ext` for cloneState (default: a generic copy). It may share data the
   * edition never changes after set-up.
   */
  cloneExt?(ext: Record<string, unknown>): Record<string, unknown>;
}
