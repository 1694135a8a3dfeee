// What a game shows before its start: the table without a deal. The deal is made when the game
// starts (the state exists only from then), so a lobby shows no hand, no day loot, no
// reputation track and no loot tiles (Galecrest draws those at set-up too): nothing a seat
// could keep or cancel the game over. Shaped as view.ts's GameView: what an edition keeps
// face down is null for the other seats here too.
import { editionOf, wordsOf } from './editions/index.js';
import type { EditionId } from './types.js';
import type { GameView } from './view.js';

/**
 * The view of an unstarted game of `players` seats for `viewer` (null: a spectator). `board`
 * is the side chosen at creation; none is the edition's default (its first; no boards: null).
 */
export function lobbyView(
  edition: EditionId,
  players: number,
  viewer: number | null,
  board: string | null | undefined,
): GameView {
  const ed = editionOf(edition);
  const noLoot = Object.fromEntries(ed.lootKinds.map((k) => [k, 0]));
  const boards = wordsOf(edition).boards();
  return {
    edition,
    players,
    round: 1,
    day: 1,
    phase: 'choose',
    finished: false,
    island: [],
    days: [],
    bagSize: Object.values(ed.bag).reduce((a, n) => a + n, 0),
    awaiting: [],
    pending: null,
    seats: Array.from({ length: players }, (_, seat) => ({
      seat,
      doubloons: 0,
      score: 0,
      handSize: 0,
      hasChosen: false,
      den: [],
      graveyard: seat === viewer || !ed.hiddenGraveyard ? [] : null,
      graveyardSize: 0,
      loot: seat === viewer || !ed.hiddenLoot ? { ...noLoot } : null,
      lootCount: 0,
      reputation: null,
    })),
    me:
      viewer === null || viewer < 0 || viewer >= players
        ? null
        : { seat: viewer, hand: [], choice: null, prompt: null },
    ranking: [],
    board: {},
    boardSide: boards.length ? (board ?? boards[0]) : null,
  };
}
