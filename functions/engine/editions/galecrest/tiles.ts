// The loot tiles' effect vocabulary, as types: the state (state.ts) holds the tiles in play and
// loot.ts reads and checks them, so the types sit below both.
import type { Loot } from '../../types.js';

/**
 * The effect vocabulary (one key per effect object):
 * - `{ doubloons: n }`      gain n (or lose -n, never below 0 during a voyage), per token.
 * - `{ reputation: n }`     move your reputation token n spaces (negative: down), per token.
 * - `{ sets: [{size, value}, ...] }`  anchor only: the kind's tokens score the best split into
 *                           sets (a token in no set scores 0). Calm maps: pairs 7, triples 12.
 * - `{ keepOrDoubloons: n }` anchor only, per token: keep one ship character for the next
 *                           voyage, or gain n.
 * - `{ discard: 'island' | 'ship' }`  dusk or night, per token: discard one character of
 *                           another player still on the island / in their ship (if any).
 */
export type LootEffect =
  | { doubloons: number }
  | { reputation: number }
  | { sets: { size: number; value: number }[] }
  | { keepOrDoubloons: number }
  | { discard: 'island' | 'ship' };

export type LootTiming = 'dusk' | 'night' | 'anchor';
export type TileSide = { [T in LootTiming]?: LootEffect[] };
export type TileSet = Record<Loot, TileSide>;
