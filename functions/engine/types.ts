// The game state is plain JSON: it is stored between any two commands and resumed by
// another process, so nothing here may be a class instance or a closure.

export type EditionId = 'classic' | 'galecrest';
export type Phase = 'choose' | 'day' | 'dusk' | 'night' | 'anchor' | 'finished';

/** A loot (booty) kind name, e.g. `chest`, `map`. Each edition lists its own. */
export type Loot = string;

/** One character card on the island (classic: the ship), ordered by `key`. */
export interface IslandCard {
  seat: number;
  rank: number;
  /** Sort key: rank first, then the tie-break. Left (low) to right (high). */
  key: number;
}

export interface SeatState {
  hand: number[];
  /** The secret daily choice, or -1 while not chosen. */
  choice: number;
  /** Classic: the den. Galecrest: the ship. */
  den: number[];
  graveyard: number[];
  /** Characters out of play for the rest of the game (classic: den and graveyard after a campaign). */
  out: number[];
  doubloons: number;
  /** Banked score (classic: the chest; Galecrest: the score dial plus the wealth above 99). */
  score: number;
  /** Loot held, as a count per kind (every kind of the edition is a key). */
  loot: Record<Loot, number>;
  /** Galecrest: characters a hook keeps in the ship for the next voyage. */
  kept: number[];
  /** Set at the end of the last round for the final tie-breaks. */
  final?: { doubloons: number; loot: number };
}

/** Work waiting to be done. Always data, never a closure. */
export interface Step {
  /** The handler name, looked up in the step table (core) or the edition. */
  t: string;
  seat: number;
  rank: number;
  /** Free per-step data (stage of a multi-part ability, remembered choices). */
  n?: number;
  memo?: string[];
}

export interface Option {
  id: string;
  label: string;
}

export type PromptKind =
  | 'loot' // take a loot token
  | 'character' // a character on the island, in a den/ship or a graveyard: `<seat>:<rank>`
  | 'hand' // a card from hand: `<rank>`
  | 'graveyard' // a card of your own graveyard: `<rank>`
  | 'may' // an optional ability: yes / no
  | 'trade' // Merchant: `<kind>:<count>`
  | 'order' // which ability (or loot) resolves next
  | 'remove'; // Midshipman: a loot token to remove

/** Where a character can be (island: the ship in classic, den: the ship in Galecrest). */
export type Place = 'island' | 'den' | 'hand' | 'graveyard';

/** The id of a `character` option: `<seat>:<rank>`. */
export const charId = (seat: number, rank: number): string => `${seat}:${rank}`;

export interface Prompt {
  id: string;
  seat: number;
  kind: PromptKind;
  text: string;
  options: Option[];
  /** The step that resumes with the answer. */
  step: Step;
}

/**
 * An event of the log. `data` is public; `secret` is seen only by `secret.seat`
 * (merged over `data`). `view.ts` is the one place that applies this.
 */
export interface GameEvent {
  type: string;
  data: Record<string, unknown>;
  secret?: { seat: number; data: Record<string, unknown> };
}

export interface GameState {
  v: 1;
  edition: EditionId;
  players: number;
  seed: string;
  /** The seeded RNG's state (xoroshiro128+ words). */
  rng: number[];
  round: number;
  day: number;
  phase: Phase;
  seats: SeatState[];
  /** The shuffled character deck (ranks) still to be dealt. */
  deck: number[];
  island: IslandCard[];
  /** Ordering cursor of the current phase (a sort key, see IslandCard.key). */
  cursor: number;
  /** Loot laid out for each day of the round (classic: drawn at campaign start). */
  days: Loot[][];
  bag: Loot[];
  /** Pending steps, a stack: the last element runs next. */
  queue: Step[];
  prompt: Prompt | null;
  promptSeq: number;
  /** Commands applied so far (a cheap progress counter, also used in prompt ids). */
  commands: number;
  finished: boolean;
  ranking: number[];
  /** Scenario fixes: ranks dealt per round, loot per round per day. */
  fixed: { deal?: number[][]; loot?: Loot[][][] };
  /** Edition-specific data (Galecrest: reputation track, loot tiles...). */
  ext: Record<string, unknown>;
  /**
   * How `rng` was derived from `seed` (rng.ts): 2 = SHA-256 to the whole state. Absent: 1, the
   * 32-bit fold of the games created before version 2 (kept absent so their states, replays and
   * exports stay byte for byte what they were). Always the last key.
   */
  rngVersion?: RngVersion;
  /**
   * Seats that conceded, in the order they did (absent: none). A conceded seat is still played
   * (by a bot, outside the engine) to the end and ranks below every seat that did not concede.
   * Added after `rngVersion` when the first seat concedes.
   */
  conceded?: number[];
}

/** A seed-to-generator derivation (rng.ts): 1 = FNV-1a 32-bit fold (old games), 2 = SHA-256. */
export type RngVersion = 1 | 2;

/** A decision: the day's card or a prompt's answer (what a bot or a default move makes). */
export type MoveCommand = { seat: number; play: number } | { seat: number; answer: string; promptId?: string };

export type Command =
  | MoveCommand
  /** The seat gives up: it ranks last (scoring.ts concededLast); its moves are still made. */
  | { seat: number; concede: true };

export interface GameOptions {
  edition: EditionId;
  players: number;
  seed: string;
  /**
   * The seed's derivation (rng.ts). createGame defaults to the current one (2); a game stored,
   * exported or recorded before it existed is version 1 and must say so to replay identically.
   */
  rngVersion?: RngVersion;
  deal?: number[][];
  loot?: Loot[][][];
  /** Galecrest: `calm`, `stormy`, `uncharted` or a custom tile set. */
  board?: unknown;
  /** Galecrest: the starting reputation track, lowest to highest, seat numbers or null. */
  reputation?: (number | null)[];
}
