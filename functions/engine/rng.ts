import { sha256 } from '@noble/hashes/sha2.js';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { GameState, RngVersion } from './types.js';

/**
 * How a game's seed becomes its generator's state. 2 (every new game): SHA-256 of
 * `libertalia-rng-v2:<seed>` (UTF-8) gives the whole 128-bit xoroshiro128+ state, so a game
 * depends on every bit of a 256-bit server seed. 1 (games created before): the seed folded
 * into 32 bits (FNV-1a): only 2^32 different games, so it is kept only to replay old games.
 */
export const RNG_VERSIONS: readonly RngVersion[] = [1, 2];
export const CURRENT_RNG_VERSION: RngVersion = 2;

/** FNV-1a: turns the seed text into a 32-bit number (version 1's fold; bots' own seeds). */
export function hashSeed(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Version 1: the 32-bit fold, then 16 outputs skipped (xoroshiro from a tiny seed starts with low-entropy values). */
function foldedState(seed: string): number[] {
  const g = xoroshiro128plus(hashSeed(seed));
  for (let i = 0; i < 16; i++) g.next();
  return g.getState() as number[];
}

/**
 * The state words [s01, s00, s11, s10] from the first 16 bytes of a digest (big-endian 32-bit
 * words, as signed integers like the generator keeps them). The all-zero state would output
 * zeros for ever: it (probability 2^-128) is replaced by the state of the digest's digest.
 */
export function stateFromDigest(digest: Uint8Array): number[] {
  const st: number[] = [];
  for (let w = 0; w < 4; w++)
    st.push((digest[4 * w] << 24) | (digest[4 * w + 1] << 16) | (digest[4 * w + 2] << 8) | digest[4 * w + 3] | 0);
  return st.some((x) => x !== 0) ? st : stateFromDigest(sha256(digest));
}

const utf8 = new TextEncoder();

/**
 * Version 2: the whole state from SHA-256 of the seed (a prefix of its own: never the seed
 * commitment's hash). A pure-JS hash (@noble/hashes), so the engine imports nothing of Node.
 */
function hashedState(seed: string): number[] {
  return stateFromDigest(sha256(utf8.encode(`libertalia-rng-v2:${seed}`)));
}

/** The generator's first state for `seed` by derivation `version`. */
export function seedRng(seed: string, version: RngVersion = CURRENT_RNG_VERSION): number[] {
  return version === 1 ? foldedState(seed) : hashedState(seed);
}

/**
 * One xoroshiro128+ step on the state words [s01, s00, s11, s10], in place: the same
 * sequence as pure-rand's xoroshiro128plus (its `next()`), without an object per draw.
 */
function nextWord(st: number[]): number {
  const s01 = st[0];
  const s00 = st[1];
  const s11 = st[2];
  const s10 = st[3];
  const out = (s00 + s10) | 0;
  const a0 = s10 ^ s00;
  const a1 = s11 ^ s01;
  st[1] = (s00 << 24) ^ (s01 >>> 8) ^ a0 ^ (a0 << 16);
  st[0] = (s01 << 24) ^ (s00 >>> 8) ^ a1 ^ ((a1 << 16) | (a0 >>> 16));
  st[3] = (a1 << 5) ^ (a0 >>> 27);
  st[2] = (a0 << 5) ^ (a1 >>> 27);
  return out;
}

/** Uniform in [0, n) for 1 <= n <= 2^32: pure-rand's `uniformInt(rng, 0, n - 1)`, draw for draw. */
function uniformBelow(st: number[], n: number): number {
  const maxAllowed = n > 2 ? Math.floor(4294967296 / n) * n : 4294967296;
  // `>>> 0`: the same value, known to the compiler as an unsigned 32-bit integer, so `%` is an
  // integer remainder rather than a floating-point one.
  let v = (nextWord(st) + 2147483648) >>> 0;
  while (v >= maxAllowed) v = (nextWord(st) + 2147483648) >>> 0;
  return v % n;
}

/** A uniform integer in [0, n). The generator state lives in the game state. */
export function randomInt(g: GameState, n: number): number {
  return uniformBelow(g.rng, n);
}

/** Fisher-Yates in place, drawing from the game's generator. */
export function shuffle<T>(g: GameState, items: T[]): T[] {
  const st = g.rng;
  for (let i = items.length - 1; i > 0; i--) {
    const j = uniformBelow(st, i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
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
