// The one place hidden information is filtered: what a seat (or a spectator, seat null)
// may see of the state and of each event. Every API answer and event read passes here.
import { lootCount } from './actions.js';
import { editionOf } from './editions/index.js';
import { awaitedSeats, hasChosen } from './kernel.js';
import type { GameEvent, GameState, Loot, Option, Phase, PromptKind } from './types.js';

export interface SeatView {
  seat: number;
  doubloons: number;
  score: number;
  handSize: number;
  /** Chosen today (the card itself stays secret until sunrise). */
  hasChosen: boolean;
  /** Den (classic) or ship (Galecrest), ranks ascending. */
  den: number[];
  /** Ranks ascending; null where the edition keeps other players' graveyards face down. */
  graveyard: number[] | null;
  graveyardSize: number;
  /** Loot by kind; null where the edition keeps other players' loot face down. */
  loot: Record<Loot, number> | null;
  lootCount: number;
  /** Galecrest reputation track position 0-5 (null in classic). */
  reputation: number | null;
}

export interface PromptView {
  id: string;
  seat: number;
  kind: PromptKind;
  text: string;
  options: Option[];
}

export interface MeView {
  seat: number;
  hand: number[];
  /** Today's secret choice, or null. */
  choice: number | null;
  prompt: PromptView | null;
}

export interface GameView {
  edition: string;
  players: number;
  round: number;
  day: number;
  phase: Phase;
  finished: boolean;
  /** Characters on the island / ship now, left to right (seat -1: the Midshipman). */
  island: { seat: number; rank: number }[];
  /** Loot laid out for each day of the round (face up on the board). */
  days: Loot[][];
  /** Tokens left in the bag. */
  bagSize: number;
  /** Seats whose input the game waits for. */
  awaiting: number[];
  /** Who must answer the pending decision and what kind it is (options only in `me`). */
  pending: { seat: number; kind: PromptKind; promptId: string } | null;
  seats: SeatView[];
  me: MeView | null;
  /** Best first, once finished. */
  ranking: number[];
  /** Edition data everyone sees (Galecrest: reputation track, loot tiles). */
  board: Record<string, unknown>;
  /** The board side in play (Galecrest: calm, stormy, uncharted, custom); null in classic. */
  boardSide: string | null;
}

const asc = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

/** The game as `viewer` may see it (null: a spectator, who sees no hidden information). */
export function view(g: GameState, viewer: number | null): GameView {
  const ed = editionOf(g.edition);
  const seats = g.seats.map((s, seat): SeatView => {
    const own = seat === viewer;
    return {
      seat,
      doubloons: s.doubloons,
      score: s.score,
      handSize: s.hand.length,
      hasChosen: hasChosen(s),
      den: asc(s.den),
      graveyard: own || !ed.hiddenGraveyard || g.finished ? asc(s.graveyard) : null,
      graveyardSize: s.graveyard.length,
      loot: own || !ed.hiddenLoot || g.finished ? { ...s.loot } : null,
      lootCount: lootCount(g, seat),
      reputation: ed.reputation ? ed.reputation(g, seat) : null,
    };
  });
  const p = g.prompt;
  const me: MeView | null =
    viewer === null || viewer < 0 || viewer >= g.players
      ? null
      : {
          seat: viewer,
          hand: asc(g.seats[viewer].hand),
          choice: hasChosen(g.seats[viewer]) ? g.seats[viewer].choice : null,
          prompt:
            p && p.seat === viewer
              ? { id: p.id, seat: p.seat, kind: p.kind, text: p.text, options: p.options.map((o) => ({ ...o })) }
              : null,
        };
  return {
    edition: g.edition,
    players: g.players,
    round: g.round,
    day: g.day,
    phase: g.phase,
    finished: g.finished,
    island: g.island.map((c) => ({ seat: c.seat, rank: c.rank })),
    days: g.days.map((d) => [...d]),
    bagSize: g.bag.length,
    awaiting: awaitedSeats(g),
    pending: p ? { seat: p.seat, kind: p.kind, promptId: p.id } : null,
    seats,
    me,
    ranking: [...g.ranking],
    board: ed.publicInfo ? ed.publicInfo(g) : {},
    boardSide: ed.boardSide ? ed.boardSide(g) : null,
  };
}

/** An event as `viewer` may see it: the secret part only for its own seat. */
export function viewEvent(e: GameEvent, viewer: number | null): { type: string; data: Record<string, unknown> } {
  if (e.secret && e.secret.seat === viewer) return { type: e.type, data: { ...e.data, ...e.secret.data } };
  return { type: e.type, data: e.data };
}

/** The stable, documented full-information summary used by scenarios and tests. */
export function summary(g: GameState) {
  const ed = editionOf(g.edition);
  return {
    round: g.round,
    day: g.day,
    phase: g.phase,
    finished: g.finished,
    seats: g.seats.map((s, seat) => ({
      seat,
      doubloons: s.doubloons,
      score: s.score,
      hand: asc(s.hand),
      den: asc(s.den),
      graveyard: asc(s.graveyard),
      loot: { ...s.loot },
      reputation: ed.reputation ? ed.reputation(g, seat) : null,
    })),
    ranking: [...g.ranking],
  };
}
