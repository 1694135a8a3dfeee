// A hand-written deep copy of the game state: the hot path of apply(), the bots' look-ahead
// and the search bot's simulations. The state stays plain JSON (it leaves the process as
// JSON, and only there); this copy just avoids the JSON round trip inside the process.
//
// What is shared rather than copied, because the engine never changes it after creating it:
// - steps (queue entries, prompt.step) and prompt objects with their options: a step or
//   prompt is replaced, never edited (`step()` makes a new one);
// - island cards ({seat, rank, key}): placed and removed, never edited;
// - `fixed` (scenario deal and loot, read only after set-up);
// - the deck, the ranking and each seat's `out` and `kept`: replaced when they change, never
//   edited (setup.ts dealRanks, phases.ts roundClose, classic scoreCampaign, Galecrest hook);
// - whatever an edition's `cloneExt` says it shares (Galecrest: the loot tiles in play).
// A field added to the state must be added here: test/engine/clone.test.ts fails otherwise. It
// compares every state of random bot games of both editions, at every phase and with every
// optional field filled, with its copy, field by field and as deep as they go, and fails on any
// field missing or different, and on any object the copy shares with the original that is not
// in the list above (its SHARED). It also plays and looks ahead (apply(), the bots, the Galecrest
// night trial) on deep-frozen states, so a shared part the engine edits fails at once.
// It takes the edition rather than looking it up, so that editions can copy states too
// (context.ts cloneState looks it up for the core).
import type { Edition } from './edition.js';
import type { GameState, SeatState } from './types.js';

function cloneSeat(s: SeatState, ed: Edition): SeatState {
  const c: SeatState = {
    hand: s.hand.slice(),
    choice: s.choice,
    den: s.den.slice(),
    graveyard: s.graveyard.slice(),
    out: s.out,
    doubloons: s.doubloons,
    score: s.score,
    loot: ed.copyLoot(s.loot),
    kept: s.kept,
  };
  if (s.final) c.final = { doubloons: s.final.doubloons, loot: s.final.loot };
  return c;
}

/** A generic deep copy of plain JSON data (for edition data without a hand-written copy). */
export function copyJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = copyJson((v as Record<string, unknown>)[k]);
  return out as T;
}

/**
 * A deep copy of the state (structurally equal to a JSON round trip of it). `seatsOnly`: a
 * cheaper copy for look-ahead that changes only seats, queue and edition data (Galecrest night
 * trials): the bag, day loot and island are shared with `g` too.
 */
export function cloneWith(ed: Edition, g: GameState, seatsOnly = false): GameState {
  const n = g.seats.length;
  const seats: SeatState[] = [];
  for (let i = 0; i < n; i++) seats.push(cloneSeat(g.seats[i], ed));
  let days = g.days;
  if (!seatsOnly) {
    days = new Array<string[]>(g.days.length);
    for (let i = 0; i < g.days.length; i++) days[i] = g.days[i].slice();
  }
  const out: GameState = {
    v: g.v,
    edition: g.edition,
    players: g.players,
    seed: g.seed,
    rng: g.rng.slice(),
    round: g.round,
    day: g.day,
    phase: g.phase,
    seats,
    deck: g.deck,
    island: seatsOnly ? g.island : g.island.slice(),
    cursor: g.cursor,
    days,
    bag: seatsOnly ? g.bag : g.bag.slice(),
    queue: g.queue.slice(),
    prompt: g.prompt,
    promptSeq: g.promptSeq,
    commands: g.commands,
    finished: g.finished,
    ranking: g.ranking,
    fixed: g.fixed,
    ext: ed.cloneExt ? ed.cloneExt(g.ext) : copyJson(g.ext),
  };
  if (g.rngVersion !== undefined) out.rngVersion = g.rngVersion; // last, as createGame puts it
  if (g.conceded !== undefined) out.conceded = g.conceded.slice(); // after it, as concede adds it
  return out;
}
