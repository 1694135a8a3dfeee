// What a game shows before its start: the table without a deal. The deal is made by startGame
// (the engine state exists only from then), so a lobby shows no hand, no day loot, no
// reputation track and no loot tiles (Galecrest draws those at set-up too): nothing a seat
// could keep or cancel the game over.
import { editionOf, type GameView } from '../../engine/index.js';
import type { GameDoc } from '../doc.js';

export function lobbyView(doc: GameDoc, viewer: number | null): GameView {
  const ed = editionOf(doc.edition);
  const noLoot = Object.fromEntries(ed.lootKinds.map((k) => [k, 0]));
  const players = doc.seats.length;
  return {
    edition: doc.edition,
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
    // Shaped as the engine's view (view.ts): what an edition keeps face down is null for others.
    seats: doc.seats.map((_, seat) => ({
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
    boardSide: doc.edition === 'galecrest' ? (doc.board ?? 'calm') : null,
  };
}
