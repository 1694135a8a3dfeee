// States of random bot games of both editions at every phase, for the tests that must see
// every field the state can hold (clone.test.ts, view.test.ts): each set-up below is chosen
// so that, together, they fill every optional field (scenario fixes, a concession, the old
// seed derivation's missing `rngVersion`, the final tie-break counts, Galecrest's uncharted
// board with tiles that act at dusk and at night, the 2-player Midshipman).
import {
  applyInPlace,
  botCommand,
  botRandom,
  createGame,
  type BotKind,
  type EditionId,
  type GameEvent,
  type GameOptions,
  type GameState,
} from '../../functions/engine/index.js';
import { firstAwaitedSeat } from '../../functions/engine/core.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { STORMY_TEST } from './galecrest/tiles.js';

export interface Setup {
  name: string;
  opts: Omit<GameOptions, 'seed'>;
  /** A seat concedes partway (the `conceded` field). */
  concede?: boolean;
}

/** Round 1 fixed by a scenario (the `fixed` field): the first ranks dealt, the first day's loot. */
function fixes(edition: EditionId, players: number): Pick<GameOptions, 'deal' | 'loot'> {
  const ed = editionOf(edition);
  const deal = [Array.from({ length: ed.dealPerRound[0] }, (_, i) => i + 1)];
  const day = Array.from({ length: ed.lootPerDay(players) }, (_, i) => ed.lootKinds[i % ed.lootKinds.length]);
  return { deal, loot: [[day]] };
}

export const SETUPS: Setup[] = [
  { name: 'classic 2p, old seed derivation', opts: { edition: 'classic', players: 2, rngVersion: 1 } },
  { name: 'classic 4p, a concession', opts: { edition: 'classic', players: 4 }, concede: true },
  { name: 'classic 6p, scenario fixes', opts: { edition: 'classic', players: 6, ...fixes('classic', 6) } },
  { name: 'galecrest 2p calm (Midshipman)', opts: { edition: 'galecrest', players: 2, board: 'calm' } },
  {
    name: 'galecrest 4p uncharted test tiles, a concession',
    opts: { edition: 'galecrest', players: 4, board: { side: 'uncharted', stormy: STORMY_TEST } },
    concede: true,
  },
  {
    name: 'galecrest 5p calm, old seed derivation, scenario fixes',
    opts: { edition: 'galecrest', players: 5, board: 'calm', rngVersion: 1, ...fixes('galecrest', 5) },
  },
];

/** When a probe runs: inside a command, as an event is logged (any phase), or between commands. */
export type Moment = 'event' | 'command';

/**
 * Plays one game of `setup` with random and greedy bots (seeded: the same game every run),
 * calling `probe` with the live state as each event is logged (so in the middle of every phase,
 * not only where a decision waits) and after each command. The probe must not change the state.
 */
export function playProbed(
  setup: Setup,
  seed: string,
  probe: (g: GameState, at: Moment) => void,
  bots: BotKind[] = ['random', 'greedy'],
): GameState {
  const rnd = botRandom(seed);
  let g: GameState | null = null;
  // The engine only appends to the list it logs to: a list whose push probes the state first.
  const events = { push: () => (g ? probe(g, 'event') : undefined) } as unknown as GameEvent[];
  g = createGame({ ...setup.opts, seed }, events);
  const concedeAt = setup.concede ? 25 : -1;
  for (let n = 0; !g.finished; n++) {
    if (n === concedeAt) applyInPlace(g, { seat: 1, concede: true }, events);
    const seat = firstAwaitedSeat(g);
    applyInPlace(g, botCommand(g, seat, bots[n % bots.length], rnd), events);
    probe(g, 'command');
  }
  return g;
}

/** Every object and array reachable from `v` (the state's own, and what it shares). */
export function objectsOf(v: unknown, out = new Set<object>()): Set<object> {
  if (v === null || typeof v !== 'object' || out.has(v)) return out;
  out.add(v);
  for (const k of Object.keys(v)) objectsOf((v as Record<string, unknown>)[k], out);
  return out;
}
