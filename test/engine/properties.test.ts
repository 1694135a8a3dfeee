// Property-based tests over random bot games, for every edition, board and player count.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyInPlace,
  botCommand,
  botRandom,
  createGame,
  playBotGame,
  view,
  viewEvent,
  type Command,
  type GameOptions,
  type GameState,
} from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { awaitedSeats } from '../../functions/engine/core.js';
import { STORMY_TILES } from '../../functions/engine/editions/galecrest/loot.js';
import { STORMY_TEST } from './galecrest/tiles.js';
import { cardProblem, coinProblem, lootProblem } from './invariants.js';

/**
 * Every configuration, listed (never probed: a set-up that throws fails its tests loudly).
 * The printed stormy tiles are not in our rules data (`STORMY_TILES` is null), so the printed
 * stormy and uncharted boards join the property runs the day that data lands; until then one
 * test per board pins their NOT_AVAILABLE answer. Their set-ups also run with the stormy-like
 * test table (fewer games: the calm board is the one played).
 */
const PRINTED_STORMY = ['stormy', 'uncharted'] as const;
/**
 * `gamesToEnd`: the random games of the first property, per player count. Classic's 250: its
 * random games stop meeting anything new long before that. Counted as distinct event shapes (type,
 * character, payload fields, kind, reason) over 1,000 random bot games per player count: classic
 * met all of its 308 within the first 100 games at every player count; Galecrest still met new
 * ones past 500 (6 players: 576 at 200 games, 592 at 500, 601 at 1,000), so it keeps 1,000.
 */
const CONFIGS: { name: string; opts: Pick<GameOptions, 'edition' | 'board'>; share: number; gamesToEnd: number }[] = [
  { name: 'classic', opts: { edition: 'classic' }, share: 1, gamesToEnd: 250 },
  { name: 'galecrest/calm', opts: { edition: 'galecrest', board: 'calm' }, share: 1, gamesToEnd: 1000 },
  ...(STORMY_TILES
    ? PRINTED_STORMY.map((board) => ({
        name: `galecrest/${board}`,
        opts: { edition: 'galecrest' as const, board },
        share: 1,
        gamesToEnd: 1000,
      }))
    : []),
  ...PRINTED_STORMY.map((side) => ({
    name: `galecrest/${side} (test tiles)`,
    opts: { edition: 'galecrest' as const, board: { side, stormy: STORMY_TEST } },
    share: 0.2,
    gamesToEnd: 1000,
  })),
];

describe.runIf(!STORMY_TILES).each(PRINTED_STORMY)('galecrest/%s (printed tiles)', (board) => {
  it('is not playable until the printed stormy tiles are in the data: NOT_AVAILABLE, so it has no property runs yet', () => {
    expect(() => createGame({ edition: 'galecrest', players: 2, seed: 'probe', board })).toThrow(
      expect.objectContaining({ code: 'NOT_AVAILABLE' }),
    );
  });
});

const PLAYERS = [2, 3, 4, 5, 6];
const seedArb = fc.string({ minLength: 1, maxLength: 12 });

describe.each(CONFIGS)('$name', ({ opts, share, gamesToEnd }) => {
  const runs = (n: number) => Math.max(2, Math.round(n * share));
  describe.each(PLAYERS)('%i players', (players) => {
    it('every game ends after the last round, with cards, loot and doubloons conserved after every command', () => {
      fc.assert(
        fc.property(seedArb, fc.integer({ min: 1, max: 2 ** 30 }), (seed, botSeed) => {
          const ed = editionOf(opts.edition);
          const { state } = playBotGame({ ...opts, players, seed }, ['random'], botSeed, (g) => {
            const problem = cardProblem(g) ?? lootProblem(g) ?? coinProblem(g);
            if (problem) throw new Error(problem);
          });
          expect(state.finished).toBe(true);
          expect(state.round).toBe(ed.daysPerRound.length);
          expect([...state.ranking].sort()).toEqual(state.seats.map((_, i) => i));
        }),
        { numRuns: runs(gamesToEnd) },
      );
    });

    it('the same seed and commands replay to the identical state, also through JSON between commands', () => {
      fc.assert(
        fc.property(
          seedArb,
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.constantFrom<'random' | 'greedy'>('random', 'greedy'),
          (seed, botSeed, bot) => {
            const commands: Command[] = [];
            const game = { ...opts, players, seed };
            const played = playBotGame(game, [bot, 'random'], botSeed, (_g, cmd) => void commands.push(cmd)).state;
            let g: GameState = createGame(game);
            for (const cmd of commands) {
              g = JSON.parse(JSON.stringify(g)) as GameState;
              applyInPlace(g, cmd);
            }
            expect(g).toEqual(played);
          },
        ),
        { numRuns: runs(players === 4 ? 60 : 25) },
      );
    });

    it('no view or event for one seat reveals another seat’s hand, secret choice or face-down loot', () => {
      fc.assert(
        fc.property(seedArb, fc.integer({ min: 1, max: 2 ** 30 }), (seed, botSeed) => {
          const rnd = botRandom(botSeed);
          const g = createGame({ ...opts, players, seed });
          const ed = editionOf(g.edition);
          while (!g.finished) {
            const cmd = botCommand(g, awaitedSeats(g)[0], 'random', rnd);
            const completesDay = 'play' in cmd && awaitedSeats(g).every((s) => s === cmd.seat);
            const events = applyInPlace(g, cmd) ?? [];
            for (let a = 0; a < players; a++) {
              for (const e of events) {
                const seen = viewEvent(e, a);
                if (e.secret && e.secret.seat !== a) {
                  for (const key of Object.keys(e.secret.data)) expect(seen.data).not.toHaveProperty(key);
                }
              }
            }
            // Non-interference: changing everything seat b hides must not change any other seat's
            // view. Each seat's hidden parts are changed once and every other view compared with
            // it (the copy was made per pair before: players - 1 times the same copy).
            const views = Array.from({ length: players }, (_, a) => JSON.stringify(view(g, a)));
            for (let b = 0; b < players; b++) {
              const h = perturbHidden(g, b, ed.hiddenLoot, ed.hiddenGraveyard);
              for (let a = 0; a < players; a++) {
                const seen = a === b ? views[a] : JSON.stringify(view(h, a));
                // expect() only on a difference: this runs for every pair of seats after every command.
                if (seen !== views[a])
                  expect(seen, `seat ${a}'s view after seat ${b}'s secrets changed`).toBe(views[a]);
              }
            }
            if ('play' in cmd && !completesDay) {
              // A choice that did not complete the day stays secret from everyone else.
              for (const e of events)
                expect(JSON.stringify(viewEvent(e, (cmd.seat + 1) % players))).not.toMatch(/"rank"/);
            }
          }
        }),
        { numRuns: runs(8) },
      );
    });
  });
});

/** A copy of the state where everything seat b keeps hidden is different. */
function perturbHidden(g: GameState, b: number, hiddenLoot: boolean, hiddenGraveyard: boolean): GameState {
  const h = structuredClone(g);
  const s = h.seats[b];
  const shift = (r: number) => r + 100;
  s.hand = s.hand.map(shift);
  if (s.choice >= 0) s.choice = shift(s.choice);
  if (h.prompt && h.prompt.seat === b)
    h.prompt.options = h.prompt.options.map((o) => ({ id: `x${o.id}`, label: 'changed' }));
  if (hiddenLoot && !h.finished) {
    const kinds = Object.keys(s.loot);
    const total = kinds.reduce((n, k) => n + s.loot[k], 0);
    kinds.forEach((k, i) => (s.loot[k] = i === kinds.length - 1 ? total : 0));
  }
  if (hiddenGraveyard && !h.finished) s.graveyard = s.graveyard.map(shift);
  return h;
}
