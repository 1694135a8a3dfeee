// Where a context (Ctx) is made for a game: its edition from the registry, the card table's
// abilities by timing, and the flow that runs the core steps. Above the editions registry,
// below the core flow: set-up (setup.ts) makes contexts here without importing the flow.
import { cloneWith } from './clone.js';
import type { Abilities, Ctx, Edition, Flow, Timing } from './edition.js';
import { editionOf } from './editions/index.js';
import { sinkInto } from './events.js';
import { makeCtx } from './kernel.js';
import { perEdition } from './tables.js';
import type { GameEvent, GameState } from './types.js';

const abilitiesOf = perEdition((ed: Edition): Abilities => {
  const byTiming = (t: Timing) => Array.from({ length: ed.ranks + 1 }, (_, r) => ed.cards[r]?.[t]);
  return { day: byTiming('day'), dusk: byTiming('dusk'), night: byTiming('night'), end: byTiming('end') };
});

/** Set-up runs no step (it deals, lays out loot and pays): no core step is reached from it. */
const setUpOnly: Flow = () => false;

/** A context for `g`. Commands pass the core flow (core.ts playCtx); set-up needs none. */
export function newCtx(g: GameState, events: GameEvent[] | null, flow: Flow = setUpOnly): Ctx {
  const ed = editionOf(g.edition);
  return makeCtx(g, ed, sinkInto(events), abilitiesOf(ed), flow);
}

/** A deep copy of the state with its edition's copy of loot and edition data (clone.ts). */
export function cloneState(g: GameState, seatsOnly = false): GameState {
  return cloneWith(editionOf(g.edition), g, seatsOnly);
}
