// The hand-written state copy (clone.ts) must list every field of the state. These tests fail
// when a field of a real state (however deep: seats, loot, Galecrest's reputation track and
// ledger...) is missing from its copy or differs there, or is shared with the original where the
// engine edits it in place (an edit of the copy, in apply() or a bot's look-ahead, would change
// the original): every state of random bot games of both editions, at every phase.
import { describe, expect, it } from 'vitest';
import { cloneWith } from '../../functions/engine/clone.js';
import { cloneState, firstAwaitedSeat, playCtx } from '../../functions/engine/core.js';
import { expertCommand } from '../../functions/engine/bots/search.js';
import { orderMattersByTrial, WIND_NYMPH } from '../../functions/engine/editions/galecrest/night.js';
import { GALECREST_CARDS } from '../../functions/engine/editions/galecrest/cards.js';
import { apply, botCommand, botRandom, type GameState, type Phase } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { playProbed, SETUPS, type Setup } from './states.js';

/**
 * What a copy shares with its original: what the engine replaces and never edits in place
 * (clone.ts says why for each), as paths, `*` for any index or key.
 */
const SHARED = [
  'deck',
  'ranking',
  'fixed',
  'prompt',
  'queue.*',
  'island.*',
  'seats.*.out',
  'seats.*.kept',
  'ext.sides',
  'ext.tiles',
];
/** A Galecrest night trial's copy (cloneWith `seatsOnly`) shares too what no ship's night ability touches. */
const SHARED_BY_TRIALS = [...SHARED, 'bag', 'days', 'island'];

const matches = (path: string[], pattern: string) => {
  const p = pattern.split('.');
  return p.length === path.length && p.every((s, i) => s === '*' || s === path[i]);
};

/**
 * Where `copy` is not a deep copy of `original`: a field missing, added or in another order (the
 * copy must serialise like the original), a value that differs, or an object or array that is
 * the original's own although its path is not in `shared`.
 */
function copyFaults(original: unknown, copy: unknown, shared: string[], path: string[] = []): string[] {
  const at = path.join('.') || '(state)';
  if (original === null || typeof original !== 'object')
    return Object.is(original, copy) ? [] : [`${at}: ${JSON.stringify(original)} copied as ${JSON.stringify(copy)}`];
  if (copy === null || typeof copy !== 'object') return [`${at}: an object copied as ${JSON.stringify(copy)}`];
  if (original === copy)
    return shared.some((p) => matches(path, p)) ? [] : [`${at}: the original's own, shared by the copy`];
  if (Array.isArray(original) !== Array.isArray(copy)) return [`${at}: array and object`];
  const keys = Object.keys(original);
  const copied = Object.keys(copy);
  const faults: string[] = [];
  for (const k of keys) if (!copied.includes(k)) faults.push(`${[...path, k].join('.')}: missing from the copy`);
  for (const k of copied) if (!keys.includes(k)) faults.push(`${[...path, k].join('.')}: not in the original`);
  if (faults.length === 0 && keys.join() !== copied.join()) faults.push(`${at}: keys in another order`);
  for (const k of keys) {
    if (!copied.includes(k)) continue;
    const o = (original as Record<string, unknown>)[k];
    faults.push(...copyFaults(o, (copy as Record<string, unknown>)[k], shared, [...path, k]));
  }
  return faults;
}

/** Every path of `v` (indexes as `*`), to show which fields the games filled. */
function pathsOf(v: unknown, out: Set<string>, path = ''): void {
  if (v === null || typeof v !== 'object') return;
  for (const k of Object.keys(v)) {
    const p = path ? `${path}.${Array.isArray(v) ? '*' : k}` : k;
    out.add(p);
    pathsOf((v as Record<string, unknown>)[k], out, p);
  }
}

const PHASES: Phase[] = ['choose', 'day', 'dusk', 'night', 'anchor', 'finished'];
const GAMES = 2;

describe('cloneState: every field, nothing shared that the engine edits', () => {
  const seen = new Map<string, { phases: Set<Phase>; paths: Set<string>; states: number }>();

  it.each(SETUPS)('$name', (setup: Setup) => {
    const ed = editionOf(setup.opts.edition);
    const mine = seen.get(ed.id) ?? { phases: new Set(), paths: new Set(), states: 0 };
    seen.set(ed.id, mine);
    for (let i = 0; i < GAMES; i++) {
      playProbed(setup, `copy ${setup.name} ${i}`, (g) => {
        mine.states++;
        mine.phases.add(g.phase);
        pathsOf(g, mine.paths);
        const when = `${g.phase}, round ${g.round} day ${g.day}`;
        const faults = copyFaults(g, cloneState(g), SHARED);
        if (faults.length > 0) expect.fail(`${when}: ${faults.join('; ')}`);
        const trial = copyFaults(g, cloneWith(ed, g, true), SHARED_BY_TRIALS);
        if (trial.length > 0) expect.fail(`${when}, the night trial's copy: ${trial.join('; ')}`);
      });
    }
  });

  it.each(['classic', 'galecrest'])('%s: the games reached every phase and filled every optional field', (id) => {
    const mine = seen.get(id);
    expect(mine?.phases).toEqual(new Set(PHASES));
    const optional = ['rngVersion', 'conceded', 'fixed.deal', 'fixed.loot', 'seats.*.final', 'prompt.step'];
    const galecrest = ['ext.took.*', 'ext.ledger.*', 'ext.track.*', 'ext.sides.map', 'ext.tiles.map', 'seats.*.kept.*'];
    for (const p of [...optional, ...(id === 'galecrest' ? galecrest : [])]) expect(mine?.paths, p).toContain(p);
  });
});

describe('copyFaults finds what a copy gets wrong', () => {
  it('a missing field, a shared list, a changed value', () => {
    const g = playProbed(SETUPS[1], 'faults', () => {});
    const copy = cloneState(g);
    delete (copy.seats[0] as Partial<GameState['seats'][0]>).final;
    copy.seats[1].hand = g.seats[1].hand;
    copy.seats[2].doubloons++;
    expect(copyFaults(g, copy, SHARED)).toEqual([
      'seats.0.final: missing from the copy',
      "seats.1.hand: the original's own, shared by the copy",
      `seats.2.doubloons: ${g.seats[2].doubloons} copied as ${g.seats[2].doubloons + 1}`,
    ]);
  });
});

/** Freezes `v` and everything reachable from it: any write into it then throws (ES modules are strict). */
function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  return Object.freeze(v);
}

/** A seat's night abilities (Freed Prisoner aside: it acts at the end of the night), highest first. */
const nightRanks = (g: GameState, seat: number) =>
  g.seats[seat].den.filter((r) => r !== 20 && GALECREST_CARDS[r - 1].night).sort((a, b) => b - a);

describe('what copies share is never edited: play and look-ahead on deep-frozen states', () => {
  // Deep-frozen, a state throws at any write: apply() (which copies it first), the bots'
  // look-ahead (greedy and expert copy it too) and the Galecrest night trial (copies sharing
  // its bag, day loot and island) must read it only.
  it.each(SETUPS)('$name', (setup: Setup) => {
    const rnd = botRandom(setup.name);
    let moves = 0;
    const ed = editionOf(setup.opts.edition);
    playProbed(setup, `frozen ${setup.name}`, (live, at) => {
      if (at !== 'command' || live.finished) return;
      const g = deepFreeze(cloneState(live));
      const seat = firstAwaitedSeat(g);
      const kind = moves++ % 3 === 0 ? 'greedy' : 'random';
      expect(() => apply(g, botCommand(g, seat, kind, rnd))).not.toThrow();
      if (moves % 15 === 0)
        expect(() =>
          expertCommand(g, seat, rnd, { cardPlayouts: 6, promptPlayouts: 4, maxCommands: 500 }),
        ).not.toThrow();
      if (ed.id !== 'galecrest' || g.seats.filter((s) => s.den.includes(WIND_NYMPH)).length > 1) return;
      for (let s = 0; s < g.players; s++) {
        const ranks = nightRanks(g, s);
        if (ranks.length >= 2) expect(() => orderMattersByTrial(playCtx(g, null), s, ranks)).not.toThrow();
      }
    });
  });
});
