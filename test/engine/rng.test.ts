// The seed's derivation (rng.ts): a game depends on every bit of its seed (version 2), and the
// games made with the old 32-bit fold (version 1) still replay as they did.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createGame, type GameState, playScenario } from '../../functions/engine/index.js';
import { seedRng, stateFromDigest } from '../../functions/engine/rng.js';
import { drawSeed } from '../../functions/api/lobby/seeds.js';

/** The deal and the bag of a fresh game: what a player would try to predict. */
const dealOf = (g: GameState) => `${g.seats[0].hand}|${g.deck}|${g.days.join(';')}|${g.bag}`;

/** Two server-style seeds (43 base64url characters) whose FNV-1a 32-bit folds are equal (found by a birthday search). */
const FOLD_TWINS = ['dD68Ki1qtBFgJywwIE4WzGCgerDaspyx1Krpq27LPgE', 'g6S5HGlzLS7libmngwzGD59eb6hCHxAlVaHbHVQ0_lo'];

describe('seed derivation', () => {
  it('version 2: the whole 128-bit state is the first 16 bytes of SHA-256("libertalia-rng-v2:" + seed), as four big-endian signed words', () => {
    const seed = 'table 7';
    const digest = createHash('sha256').update(`libertalia-rng-v2:${seed}`).digest();
    const words = [0, 4, 8, 12].map((o) => digest.readInt32BE(o));
    expect(seedRng(seed, 2)).toEqual(words);
    expect(createGame({ edition: 'classic', players: 3, seed }).rng).not.toEqual(words); // the set-up has drawn since
  });

  it('the all-zero state (a generator that outputs zeros for ever) is never used: it becomes the state of the digest of the digest', () => {
    const zero = new Uint8Array(32);
    const st = stateFromDigest(zero);
    expect(st.some((w) => w !== 0)).toBe(true);
    const again = createHash('sha256').update(zero).digest();
    expect(st).toEqual([0, 4, 8, 12].map((o) => again.readInt32BE(o)));
  });

  it('a new game records version 2 as the last key of its state; version 1 states have no such key (as before)', () => {
    const g2 = createGame({ edition: 'galecrest', players: 4, seed: 's', board: 'calm' });
    expect(g2.rngVersion).toBe(2);
    expect(Object.keys(g2).at(-1)).toBe('rngVersion');
    const g1 = createGame({ edition: 'galecrest', players: 4, seed: 's', board: 'calm', rngVersion: 1 });
    expect('rngVersion' in g1).toBe(false);
    expect(dealOf(g1)).not.toBe(dealOf(g2));
  });

  it('an unknown version is refused with BAD_USER_INPUT', () => {
    expect(() => createGame({ edition: 'classic', players: 3, seed: 's', rngVersion: 3 as never })).toThrow(
      /unknown rngVersion 3/,
    );
  });

  it('seeds whose 32-bit folds collide make identical version 1 games, and different version 2 games', () => {
    const [a, b] = FOLD_TWINS.map((seed) => ({ edition: 'classic' as const, players: 4, seed }));
    expect(dealOf(createGame({ ...a, rngVersion: 1 }))).toBe(dealOf(createGame({ ...b, rngVersion: 1 })));
    expect(dealOf(createGame(a))).not.toBe(dealOf(createGame(b)));
  });

  it('200,000 games from fresh server seeds: no two initial deals and bags are the same', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++)
      seen.add(dealOf(createGame({ edition: 'classic', players: 3, seed: drawSeed() })));
    expect(seen.size).toBe(200_000);
  }, 120_000); // a few seconds on an idle machine; the margin is for a shared one

  it('a scenario without rngVersion is played with version 1 (exports made before the field existed); with it, as it says', () => {
    const sc = { edition: 'classic' as const, players: 3, seed: 'any text', commands: [] };
    const state = (r: ReturnType<typeof playScenario>) => ('state' in r ? r.state : null);
    expect(dealOf(state(playScenario(sc))!)).toBe(dealOf(createGame({ ...sc, rngVersion: 1 })));
    expect(dealOf(state(playScenario({ ...sc, rngVersion: 2 }))!)).toBe(dealOf(createGame(sc)));
  });
});
