// A stored game as one caller sees it: everything about the game goes through the engine's
// view (the one hidden-information filter); this only adds the lobby and timing data.
import { editionShape, type GameState, type GameView, lobbyView, seatColour, view } from '../../engine/index.js';
import type { GameDoc, GameRec } from '../doc.js';
import { DEFAULT_TIMEOUTS_BEFORE_BOT, deadlineOf, seatOf } from '../doc.js';
import { scenarioOf } from './replay.js';
import { seedCommitment } from '../lobby/seeds.js';
import type { Board, Game, SeatColour } from '../schema.types.generated.js';
import { lootKind, lootLegend, type Names, nameSeats, namesOf, optionLabel, tieReasons, tileSide } from './words.js';

/** An engine name as the schema's enum value (`galecrest` -> `GALECREST`), typed so tsc checks it. */
const upper = <T extends string>(s: T) => s.toUpperCase() as Uppercase<T>;
/**
 * A board side as the schema's Board. The engine names sides with plain strings (an edition
 * defines its own); a side the schema lacks is refused when the answer is serialised.
 */
const boardOf = (s: string | null) => (s === null ? null : (upper(s) as Board));

/** Game.galecrest: the edition's public table data, typed; null for an edition without it (classic). */
function galecrestBoard(info: Record<string, unknown>) {
  if (!Array.isArray(info.reputation)) return null;
  const side = typeof info.board === 'string' && info.board !== 'custom' ? boardOf(info.board) : null;
  const sides = (info.sides ?? {}) as Record<string, string>;
  // publicInfo is the edition's open record: Galecrest's holds the track and the dial as number lists.
  const dial = Array.isArray(info.dial) ? (info.dial as number[]) : [];
  const reputation = info.reputation as (number | null)[];
  return {
    reputation,
    side,
    tiles: Object.entries(sides).map(([kind, s]) => ({ kind: lootKind(kind), side: tileSide(s) })),
    dial,
  };
}

/** What the parts of a rendered game read: the stored game, the caller's view and names. */
interface Seen {
  rec: GameRec;
  doc: GameDoc;
  /** The engine state; undefined before the deal (lobby) and for a cancelled lobby. */
  g: GameState | undefined;
  v: GameView;
  names: Names;
  /** Seats awaited now (none unless the game is active). */
  awaiting: number[];
  live: boolean;
}

/** The caller's view of a stored game: the engine's once dealt, the lobby's before. */
function seenBy(rec: GameRec, playerId: string | null): Seen {
  const doc = rec.doc;
  const seat = seatOf(doc, playerId);
  // Before the start there is no deal to show (a lobby stored by an earlier version has one: not
  // shown). Only lobbies are ever cancelled.
  const g = rec.status === 'LOBBY' || rec.status === 'CANCELLED' ? undefined : doc.state;
  const v = g ? view(g, seat) : lobbyView(doc.edition, doc.seats.length, seat, doc.board);
  const live = rec.status === 'ACTIVE';
  // Labels and texts name the seats' holders (words.ts); the view already hid what it must.
  return { rec, doc, g, v, names: namesOf(doc, seat), awaiting: live ? v.awaiting : [], live };
}

/** Game.seats: the view's seats with their holders, deadlines and colours. */
function renderSeats({ doc, v, awaiting }: Seen) {
  return v.seats.map((s) => {
    const holder = doc.seats[s.seat];
    const awaited = awaiting.includes(s.seat);
    return {
      ...s,
      playerId: holder.playerId,
      name: holder.name,
      isBot: holder.bot !== null,
      isOpen: holder.playerId === null && holder.bot === null,
      awaited,
      deadline: awaited ? deadlineOf(doc, s.seat) : null,
      timeouts: doc.timeouts?.[s.seat] ?? 0,
      replacedByBot: holder.replaced === true,
      colour: upper(seatColour(s.seat)) as SeatColour,
      conceded: holder.conceded === true,
      loot: s.loot && Object.entries(s.loot).map(([kind, count]) => ({ kind: lootKind(kind), count })),
    };
  });
}

/** Game.me: the caller's hand, choice and prompt (texts with seats named), or null. */
function renderMe({ doc, v, names, awaiting, live }: Seen) {
  const me = v.me;
  if (!me) return me;
  return {
    seat: me.seat,
    hand: me.hand,
    choice: me.choice,
    choiceDeadline: live && v.phase === 'choose' && awaiting.includes(me.seat) ? deadlineOf(doc, me.seat) : null,
    prompts:
      live && me.prompt
        ? [
            {
              ...me.prompt,
              text: nameSeats(me.prompt.text, names),
              options: me.prompt.options.map((o) => ({ id: o.id, label: optionLabel(o.label, names) })),
              deadline: deadlineOf(doc, me.seat),
            },
          ]
        : [],
  };
}

/** Game.ranking of a finished game, each place with the tie-break that decided it (words.ts). */
function renderRanking({ rec, doc, g, v, names }: Seen) {
  if (rec.status !== 'FINISHED') return [];
  const facts = v.ranking.map((s) => ({
    seat: s,
    score: v.seats[s].score,
    handSize: v.seats[s].handSize,
    finalLoot: g?.seats[s].final?.loot ?? 0,
    finalDoubloons: g?.seats[s].final?.doubloons ?? 0,
    reputation: v.seats[s].reputation,
  }));
  const ties = tieReasons(facts, names);
  return facts.map((f, i) => ({
    place: i + 1,
    seat: f.seat,
    name: doc.seats[f.seat].name,
    score: f.score,
    tieBreak: ties[i],
  }));
}

/** The game as the schema's Game (`satisfies`: tsc checks every field against schema/game.graphql). */
export function renderGame(rec: GameRec, playerId: string | null) {
  const seen = seenBy(rec, playerId);
  const { doc, g, v, names, awaiting, live } = seen;
  return {
    id: rec.id,
    status: rec.status,
    edition: upper(doc.edition),
    board: boardOf(v.boardSide),
    boardInfo: v.board,
    galecrest: galecrestBoard(v.board),
    creatorId: doc.creatorId,
    seatCount: doc.seats.length,
    decisionTimeLimitHours: doc.decisionTimeLimitHours,
    createdAt: rec.createdAt,
    updatedAt: rec.updatedAt,
    version: rec.version,
    lastSeq: rec.lastSeq,
    round: v.round,
    daysPerRound: editionShape(doc.edition).daysPerRound,
    day: v.day,
    // No phase before the deal: the lobby's view has none of its own (it would read CHOOSE).
    phase: g ? upper(v.phase) : ('LOBBY' as const),
    island: v.island,
    days: v.days.map((d) => d.map(lootKind)),
    bagSize: v.bagSize,
    lootLegend: () => lootLegend(doc.edition, v.board),
    reputationPayouts: names.words.reputationPayouts(),
    awaiting,
    pending: live ? v.pending : null,
    seats: renderSeats(seen),
    me: renderMe(seen),
    ranking: renderRanking(seen),
    // A server seed stays secret until the end; a chosen one was never secret.
    seed: rec.status === 'FINISHED' || doc.seedChosenBy ? doc.seed : null,
    seedCommitment: seedCommitment(rec.id, doc.seed),
    seedChosenBy: doc.seedChosenBy ?? null,
    rngVersion: doc.rngVersion ?? 1,
    spectators: doc.spectators ?? true,
    timeoutsBeforeBot: doc.timeoutsBeforeBot ?? DEFAULT_TIMEOUTS_BEFORE_BOT,
    nextDeadline: live ? (rec.dueAt ?? null) : null,
    scenario: () => scenarioOf(rec),
    rematchId: doc.rematchId ?? null,
  } satisfies Game;
}

export type RenderedGame = ReturnType<typeof renderGame>;
