// The expert (search) bot: it answers every decision of both editions, it is deterministic for
// a bot seed, and it uses only what its seat may see (non-interference).
import { describe, expect, it } from 'vitest';
import { applyInPlace, botCommand, botRandom, createGame, type GameState } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { firstAwaitedSeat } from '../../functions/engine/core.js';
import { expertCommand, type SearchBudget } from '../../functions/engine/bots/search.js';

const SMALL: SearchBudget = { cardPlayouts: 24, promptPlayouts: 12, maxCommands: 5000 };
const CONFIGS = [
  { edition: 'classic' as const, board: undefined },
  { edition: 'galecrest' as const, board: 'calm' },
];

/** Shuffles with a seeded source (test-local). */
function shuffled<T>(xs: T[], rnd: () => number): T[] {
  const out = xs.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The same game as `seat` sees it, with everything it cannot see changed: other seats' hands,
 * choices and graveyards re-dealt among themselves, hidden loot swapped with the bag, the deck
 * and bag reordered, another RNG state and seed.
 */
function perturb(g: GameState, seat: number, salt: number): GameState {
  const ed = editionOf(g.edition);
  const h = structuredClone(g);
  const rnd = botRandom(`perturb${salt}`);
  h.seed = `other seed ${salt}`;
  h.rng = [salt | 0, 77, -5, 1234567];
  h.deck = shuffled(h.deck, rnd);
  for (let s = 0; s < h.players; s++) {
    if (s === seat) continue;
    const o = h.seats[s];
    const chosen = o.choice >= 0;
    const pool = shuffled([...o.hand, ...o.graveyard], rnd);
    o.hand = pool.slice(0, o.hand.length).sort((a, b) => a - b);
    o.graveyard = pool.slice(o.hand.length);
    o.choice = chosen ? o.hand[Math.floor(rnd() * o.hand.length)] : -1;
    if (ed.hiddenLoot && !h.finished) {
      // Swap each hidden token with a random bag token (counts stay, kinds change).
      for (const k of Object.keys(o.loot)) {
        for (let i = 0; i < o.loot[k] && h.bag.length > 0; i++) {
          const j = Math.floor(rnd() * h.bag.length);
          const other = h.bag[j];
          h.bag[j] = k;
          o.loot[k]--;
          o.loot[other]++;
        }
      }
    }
  }
  h.bag = shuffled(h.bag, rnd);
  return h;
}

describe.each(CONFIGS)('expert bot, $edition', ({ edition, board }) => {
  it.each([2, 4])('%i players: finishes games against greedy bots, answering every decision', (players) => {
    for (let i = 0; i < 2; i++) {
      const g = createGame({ edition, players, seed: `expert${i}`, board });
      const rnd = botRandom(i + 1);
      const kinds = new Set<string>();
      for (let n = 0; !g.finished; n++) {
        expect(n).toBeLessThan(3000);
        const s = firstAwaitedSeat(g);
        if (s === 0 && g.prompt) kinds.add(g.prompt.kind);
        applyInPlace(g, s === 0 ? expertCommand(g, s, rnd, SMALL) : botCommand(g, s, 'greedy', rnd), null);
      }
      expect(g.finished).toBe(true);
    }
  });

  it('non-interference: changing what its seat cannot see never changes its move (fixed bot seed)', () => {
    let checked = 0;
    for (let i = 0; i < 3; i++) {
      const g = createGame({ edition, players: 3, seed: `ni${i}`, board });
      const rnd = botRandom(i + 10);
      for (let n = 0; !g.finished; n++) {
        const s = firstAwaitedSeat(g);
        // Check a sample of decisions (every 5th) to keep the test short.
        if (n % 5 === 0) {
          const mine = JSON.stringify(expertCommand(g, s, botRandom(`ni-bot${n}`), SMALL));
          for (let salt = 1; salt <= 2; salt++) {
            expect(
              JSON.stringify(expertCommand(perturb(g, s, salt * 1000 + n), s, botRandom(`ni-bot${n}`), SMALL)),
            ).toBe(mine);
          }
          checked++;
        }
        applyInPlace(g, botCommand(g, s, 'random', rnd), null);
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('is deterministic for a bot seed', () => {
    const g = createGame({ edition, players: 4, seed: 'det', board });
    const a = expertCommand(g, 0, botRandom('same'), SMALL);
    const b = expertCommand(g, 0, botRandom('same'), SMALL);
    expect(a).toEqual(b);
  });
});
