// The API's game document, stored opaquely by the store: who sits where, the options, the
// engine's state and since when each awaited seat has been waited for (for deadlines). The
// commands live in the game's commit items (bots' and timeouts' included: replays), not here.
import type { GameRecord } from '../store/index.js';
import { ApiError } from './errors.js';
import {
  applyInPlace,
  awaitedSeats,
  type BotKind,
  type Command,
  type EditionId,
  type GameEvent,
  type GameOptions,
  type GameState,
  type RngVersion,
} from '../engine/index.js';

export interface SeatHolder {
  playerId: string | null;
  name: string | null;
  bot: BotKind | null;
  /** A player replaced by a bot after too many timeouts (still a member: sees the seat). */
  replaced?: boolean;
  /** The seat conceded (by the player, or abandoned: `timeoutsBeforeBot` timeouts): it ranks last. */
  conceded?: boolean;
  /**
   * A free seat kept for this player (a rematch invites the old game's players; each takes
   * the seat by accepting: `rematch` or `joinGame`). Nobody else may take it.
   */
  invited?: string;
}

/** One applied command and the seq of the last event it produced (its place in the log). */
export interface LoggedCommand {
  c: Command;
  seq: number;
}

/** A game as the API holds it: the store's record of a GameDoc (play/commit.ts folds it from the log). */
export type GameRec = GameRecord<GameDoc>;

export interface GameDoc {
  edition: EditionId;
  board: string | null;
  creatorId: string;
  seats: SeatHolder[];
  decisionTimeLimitHours: number | null;
  seed: string;
  /**
   * How the engine derives the generator from `seed` (engine rng.ts): every game created now
   * is 2 (SHA-256); absent: 1, a game created before version 2 (replays as it was made).
   */
  rngVersion?: RngVersion;
  /**
   * The engine's state: absent until the game starts. The deal is made by startGame, never in
   * the lobby, so nothing stored or shown before the start says anything about the hands.
   * (A lobby stored by an earlier version still has one: never shown, replaced at the start.)
   */
  state?: GameState;
  /** Awaited seat -> the decision awaited and when it became pending. */
  pending: Record<string, { key: string; since: string }>;
  /** Commands applied by the commit being computed (collected by `play`; never stored in the snapshot). */
  log?: LoggedCommand[];
  /** Anyone with the id may watch (spectator view); default true. */
  spectators?: boolean;
  /** Consecutive timeouts after which a bot takes the seat over; default 3. */
  timeoutsBeforeBot?: number;
  /** Consecutive timeouts per seat (reset by the seat's own move). */
  timeouts?: Record<string, number>;
  /** How the bots play (for seats filled at start). */
  botKind?: BotKind;
  /** The seq of the `gameStarted` event (replays before it show the lobby). */
  startSeq?: number;
  /** Players the creator removed from the lobby (removePlayer; they may not join it again), the last REMOVED_MAX. */
  removed?: string[];
  /** The game created by `rematch`, once asked for. */
  rematchId?: string;
  /**
   * The player who chose the seed at creation (private games, tests, bug reports): such a seed
   * is public at once and the game is marked everywhere. Absent: the server drew it (CSPRNG).
   */
  seedChosenBy?: { playerId: string; name: string };
  /** Players' commands applied so far (bounded: BOUNDS.commandsPerGame). */
  commands?: number;
  /** Per seat: the minute (epoch minutes) and the commands counted in it (BOUNDS.commandsPerSeatPerMinute). */
  commandRate?: Record<string, { m: number; n: number }>;
  /** Per seat: the day (`round:day`) and how often its choice was changed that day (MAX_CHOICE_CHANGES_PER_DAY). */
  choiceChanges?: Record<string, { d: string; n: number }>;
}

/**
 * How often a seat may change the day's card once chosen (the choice stays secret until the
 * last seat chooses, so it may be replaced; not without end): one more change is LIMIT_EXCEEDED.
 * Every change is a commit item of its own, so this bounds the log of a day, and with it a game's.
 */
export const MAX_CHOICE_CHANGES_PER_DAY = 20;

/** Counts a change of `seat`'s card for the day (call before applying the command); throws LIMIT_EXCEEDED past the limit. */
export function countChoiceChange(doc: GameDoc, seat: number, command: Command): void {
  const g = dealt(doc);
  if (!('play' in command) || g.seats[seat]?.choice === undefined || g.seats[seat].choice < 0) return;
  const day = `${g.round}:${g.day}`;
  const changes = (doc.choiceChanges ??= {});
  const n = changes[seat]?.d === day ? changes[seat].n : 0;
  if (n >= MAX_CHOICE_CHANGES_PER_DAY) {
    throw new ApiError(
      'LIMIT_EXCEEDED',
      `choice changes limit: at most ${MAX_CHOICE_CHANGES_PER_DAY} changes of the day's card per seat`,
      { limit: { name: 'choiceChangesPerDay', max: MAX_CHOICE_CHANGES_PER_DAY } },
    );
  }
  changes[seat] = { d: day, n: n + 1 };
}

export const DEFAULT_TIMEOUTS_BEFORE_BOT = 3;

export const BOT_NAMES = ['Bot Blackbeard', 'Bot Read', 'Bot Kidd', 'Bot Roberts', 'Bot Teach', 'Bot Vane'];

/** The seat a player holds, or null. */
export function seatOf(doc: GameDoc, playerId: string | null | undefined): number | null {
  if (!playerId) return null;
  const i = doc.seats.findIndex((s) => s.playerId === playerId);
  return i < 0 ? null : i;
}

export const isFull = (doc: GameDoc) => doc.seats.every((s) => s.playerId !== null || s.bot !== null);

/** The `playerJoined` event: the player took `seat` (createGame, joinGame, rematch). */
export const playerJoined = (seat: number, playerId: string, name: string | null): GameEvent => ({
  type: 'playerJoined',
  data: { seat, playerId, name },
});

/** The `gameCreated` event of a new game's document (createGame; a rematch names the game it follows). */
export function gameCreated(doc: GameDoc, rematchOf?: string): GameEvent {
  return {
    type: 'gameCreated',
    data: {
      edition: doc.edition,
      board: doc.board,
      seats: doc.seats.length,
      bots: doc.seats.filter((s) => !s.playerId && s.bot).length,
      decisionTimeLimitHours: doc.decisionTimeLimitHours,
      spectators: doc.spectators ?? true,
      timeoutsBeforeBot: doc.timeoutsBeforeBot,
      ...(rematchOf ? { rematchOf } : {}),
      seedChosenBy: doc.seedChosenBy?.playerId ?? null,
    },
  };
}

/** The free seat `playerId` may take: the one kept for them, else the first one kept for nobody. */
export function freeSeatFor(doc: GameDoc, playerId: string | null): number | null {
  const free = (s: SeatHolder) => s.playerId === null && s.bot === null;
  const mine = playerId === null ? -1 : doc.seats.findIndex((s) => free(s) && s.invited === playerId);
  if (mine >= 0) return mine;
  const any = doc.seats.findIndex((s) => free(s) && !s.invited);
  return any < 0 ? null : any;
}

/** The engine options the game was created with (replays and the scenario start from them). */
export function engineOptions(doc: GameDoc): GameOptions {
  return {
    edition: doc.edition,
    players: doc.seats.length,
    seed: doc.seed,
    rngVersion: doc.rngVersion ?? 1,
    ...(doc.board ? { board: doc.board } : {}),
  };
}

/** The engine state of a started game (WRONG_PHASE before the start: there is no deal yet). */
export function dealt(doc: GameDoc): GameState {
  if (!doc.state) throw new ApiError('WRONG_PHASE', 'the game has not started');
  return doc.state;
}

/**
 * Applies one command to the document's state and logs it. `baseSeq` is the game's lastSeq
 * before this commit, so the command's place in the log is known now.
 */
export function play(doc: GameDoc, command: Command, events: GameEvent[], baseSeq: number): void {
  applyInPlace(dealt(doc), command, events);
  doc.log?.push({ c: command, seq: baseSeq + events.length });
}

/** What a seat is being asked now: a prompt (by id) or the day's card. */
function decisionKey(g: GameState, seat: number): string {
  return g.prompt && g.prompt.seat === seat ? `prompt:${g.prompt.id}` : `choose:${g.round}:${g.day}`;
}

/**
 * Refreshes `pending` after a change: a seat still asked the same thing keeps its start time,
 * a newly awaited seat starts now. Deadlines are `since + decisionTimeLimitHours`.
 */
export function refreshPending(doc: GameDoc, active: boolean, now: Date): void {
  const next: GameDoc['pending'] = {};
  if (active) {
    const g = dealt(doc);
    for (const seat of awaitedSeats(g)) {
      const key = decisionKey(g, seat);
      const old = doc.pending[seat];
      next[seat] = old && old.key === key ? old : { key, since: now.toISOString() };
    }
  }
  doc.pending = next;
}

/** When the seat's current decision is due, or null (no limit, not awaited). */
export function deadlineOf(doc: GameDoc, seat: number): string | null {
  const p = doc.pending[seat];
  if (!p || doc.decisionTimeLimitHours === null) return null;
  return new Date(Date.parse(p.since) + doc.decisionTimeLimitHours * 3600_000).toISOString();
}

/** Awaited human seats whose deadline has passed at `now`. */
export function lateSeats(doc: GameDoc, now: Date): number[] {
  return Object.keys(doc.pending)
    .map(Number)
    .filter((seat) => doc.seats[seat].bot === null && (deadlineOf(doc, seat) ?? '\uffff') <= now.toISOString())
    .sort((a, b) => a - b);
}

/** The earliest deadline of an awaited human seat (the sweep's due time), or null. */
export function nextDeadline(doc: GameDoc): string | null {
  let first: string | null = null;
  for (const seat of Object.keys(doc.pending).map(Number)) {
    if (doc.seats[seat].bot !== null) continue;
    const d = deadlineOf(doc, seat);
    if (d !== null && (first === null || d < first)) first = d;
  }
  return first;
}
