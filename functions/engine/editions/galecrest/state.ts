// Galecrest data kept in `g.ext`: the reputation track, the loot tiles in play and the
// bookkeeping of the current dusk and anchor. Plain JSON, like the rest of the state.
import type { GameState, Loot } from '../../types.js';
import type { TileSet } from './tiles.js';

export interface GalecrestExt {
  /** The reputation track, lowest (index 0) to highest (5): seat numbers, null for unused tokens. */
  track: (number | null)[];
  /** The board side chosen at set-up: calm, stormy, uncharted or custom. */
  board: string;
  /** The side showing on each loot tile (uncharted: drawn at set-up). */
  sides: Record<Loot, string>;
  /** The effects of the tiles in play, one side per loot kind. */
  tiles: TileSet;
  /** Loot kinds the character now resolving its dusk took this dusk (Explorer, Armorer). */
  took: Loot[];
  /** Anchor: each seat's doubloons still to settle (gains and losses summed, see anchor.ts). */
  ledger: number[];
}

export const ext = (g: GameState): GalecrestExt => g.ext as unknown as GalecrestExt;
