import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { GameState } from './types.js';

/** FNV-1a: turns the seed text into the 32-bit seed of the generator. */
export function hashSeed(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export function seedRng(seed: string): number[] {
  const g = xoroshiro128plus(hashSeed(seed));
  // Skip the first outputs: xoroshiro from a tiny seed starts with low-entropy values.
  for (let i = 0; i < 16; i++) g.next();
  return g.getState() as number[];
}

/** A uniform integer in [0, n). The generator state lives in the game state. */
export function randomInt(g: GameState, n: number): number {
  const gen = xoroshiro128plusFromState(g.rng);
  const v = uniformInt(gen, 0, n - 1);
  g.rng = gen.getState() as number[];
  return v;
}

/** Fisher-Yates in place, drawing from the game's generator. */
export function shuffle<T>(g: GameState, items: T[]): T[] {
  const gen = xoroshiro128plusFromState(g.rng);
  for (let i = items.length - 1; i > 0; i--) {
    const j = uniformInt(gen, 0, i);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  g.rng = gen.getState() as number[];
  return items;
}

/** Removes and returns a random element. */
export function drawRandom<T>(g: GameState, items: T[]): T | undefined {
  if (items.length === 0) return undefined;
  const i = randomInt(g, items.length);
  const v = items[i];
  items[i] = items[items.length - 1];
  items.pop();
  return v;
}
