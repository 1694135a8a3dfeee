// Game and round set-up: seats, the shuffled character deck, the loot bag, dealing.
import { newCtx } from './context.js';
import type { Ctx } from './edition.js';
import { editionOf, isEditionId } from './editions/index.js';
import { fail } from './errors.js';
import { daysThisRound, NO_CHOICE } from './kernel.js';
import { CURRENT_RNG_VERSION, drawRandom, RNG_VERSIONS, seedRng, shuffle } from './rng.js';
import { perEdition } from './tables.js';
import type { GameEvent, GameOptions, GameState, Loot, SeatState } from './types.js';

/**
 * Per edition: no loot (every kind at 0) and the full bag, copied for each new game (never
 * handed out themselves; loot is copied with Edition.copyLoot). Not frozen: a copy of a frozen
 * object gets a slower object layout.
 */
const templates = perEdition((ed) => {
  const loot: Record<Loot, number> = {};
  for (const k of ed.lootKinds) loot[k] = 0;
  const bag: Loot[] = [];
  for (const k of ed.lootKinds) for (let i = 0; i < (ed.bag[k] ?? 0); i++) bag.push(k);
  return { loot, bag };
});

function newSeat(noLoot: Record<Loot, number>): SeatState {
  return {
    hand: [],
    choice: NO_CHOICE,
    den: [],
    graveyard: [],
    out: [],
    doubloons: 0,
    score: 0,
    loot: noLoot,
    kept: [],
  };
}

/**
 * Creates a game ready for the first day's card choices. Throws EngineError on bad options.
 * The set-up events (round start, doubloons, first day) go to `events` when given.
 */
export function createGame(opts: GameOptions, events: GameEvent[] | null = null): GameState {
  if (!opts || !isEditionId(opts.edition)) fail('BAD_USER_INPUT', `unknown edition ${JSON.stringify(opts?.edition)}`);
  const ed = editionOf(opts.edition);
  const n = opts.players;
  if (!Number.isInteger(n) || n < ed.minPlayers || n > ed.maxPlayers) {
    fail('BAD_USER_INPUT', `${ed.id} takes ${ed.minPlayers}-${ed.maxPlayers} players, not ${n}`);
  }
  const seed = typeof opts.seed === 'string' ? opts.seed : String(opts.seed ?? '');
  const rngVersion = opts.rngVersion ?? CURRENT_RNG_VERSION;
  if (!RNG_VERSIONS.includes(rngVersion))
    fail('BAD_USER_INPUT', `unknown rngVersion ${JSON.stringify(opts.rngVersion)} (${RNG_VERSIONS.join(' or ')})`);
  const deck: number[] = [];
  for (let r = 1; r <= ed.ranks; r++) deck.push(r);
  const template = templates(ed);
  const seats: SeatState[] = [];
  for (let s = 0; s < n; s++) seats.push(newSeat(ed.copyLoot(template.loot)));
  const g: GameState = {
    v: 1,
    edition: ed.id,
    players: n,
    seed,
    rng: seedRng(seed, rngVersion),
    round: 1,
    day: 1,
    phase: 'choose',
    seats,
    deck,
    island: [],
    cursor: 0,
    days: [],
    bag: template.bag.slice(),
    queue: [],
    prompt: null,
    promptSeq: 0,
    commands: 0,
    finished: false,
    ranking: [],
    fixed: {},
    ext: {},
  };
  if (rngVersion !== 1) g.rngVersion = rngVersion; // version 1 states keep their old shape
  checkFixes(g, opts);
  shuffle(g, g.deck);
  ed.setup(g, opts);
  startRound(newCtx(g, events));
  return g;
}

function checkFixes(g: GameState, opts: GameOptions): void {
  const ed = editionOf(g.edition);
  if (opts.deal !== undefined) {
    if (!Array.isArray(opts.deal)) fail('BAD_USER_INPUT', 'deal is a list of rank lists, one per round');
    const seen = new Set<number>();
    opts.deal.forEach((ranks, i) => {
      if (!Array.isArray(ranks)) fail('BAD_USER_INPUT', `deal[${i}] is not a list of ranks`);
      for (const r of ranks) {
        if (!Number.isInteger(r) || r < 1 || r > ed.ranks) fail('BAD_USER_INPUT', `deal[${i}]: no character ${r}`);
        if (seen.has(r)) fail('BAD_USER_INPUT', `deal[${i}]: character ${r} is dealt twice`);
        seen.add(r);
      }
      if (ranks.length !== ed.dealPerRound[i]) {
        fail('BAD_USER_INPUT', `deal[${i}] has ${ranks.length} ranks; round ${i + 1} deals ${ed.dealPerRound[i]}`);
      }
    });
    g.fixed.deal = opts.deal.map((r) => [...r]);
  }
  if (opts.loot !== undefined) {
    if (!Array.isArray(opts.loot)) fail('BAD_USER_INPUT', 'loot is a list of rounds, each a list of days');
    const per = ed.lootPerDay(g.players);
    opts.loot.forEach((round, i) => {
      if (!Array.isArray(round)) fail('BAD_USER_INPUT', `loot[${i}] is not a list of days`);
      if (round.length > ed.daysPerRound[i]) fail('BAD_USER_INPUT', `loot[${i}] has more days than round ${i + 1}`);
      round.forEach((day, d) => {
        if (!Array.isArray(day) || day.length !== per)
          fail('BAD_USER_INPUT', `loot[${i}][${d}] must list ${per} tokens`);
        for (const k of day)
          if (!ed.lootKinds.includes(k)) fail('BAD_USER_INPUT', `loot[${i}][${d}]: unknown loot kind ${k}`);
      });
    });
    g.fixed.loot = opts.loot.map((r) => r.map((d) => [...d]));
  }
}

function dealRanks(g: GameState, count: number): number[] {
  const fixed = g.fixed.deal?.[g.round - 1];
  // The deck is replaced, never edited: copies share it (clone.ts).
  if (!fixed) {
    const dealt = g.deck.slice(0, count);
    g.deck = g.deck.slice(count);
    return dealt;
  }
  for (const r of fixed) if (!g.deck.includes(r)) fail('BAD_USER_INPUT', `deal: character ${r} was already dealt`);
  g.deck = g.deck.filter((r) => !fixed.includes(r));
  return [...fixed];
}

function drawDayLoot(g: GameState, per: number, day: number): Loot[] {
  const fixed = g.fixed.loot?.[g.round - 1]?.[day];
  const out: Loot[] = [];
  if (fixed) {
    for (const k of fixed) {
      const i = g.bag.indexOf(k);
      if (i < 0) fail('BAD_USER_INPUT', `loot: no ${k} left in the bag for round ${g.round} day ${day + 1}`);
      g.bag.splice(i, 1);
      out.push(k);
    }
    return out;
  }
  for (let i = 0; i < per; i++) {
    const k = drawRandom(g, g.bag);
    if (k !== undefined) out.push(k);
  }
  return out;
}

/** Deals the round's characters, lays out its loot and pays the round's doubloons. */
export function startRound(x: Ctx): void {
  const { g, ed } = x;
  g.day = 1;
  g.phase = 'choose';
  g.island = [];
  const ranks = dealRanks(g, ed.dealPerRound[g.round - 1]);
  for (const s of g.seats) for (let i = 0; i < ranks.length; i++) s.hand.push(ranks[i]);
  const per = ed.lootPerDay(g.players);
  g.days = [];
  for (let d = 0; d < daysThisRound(x); d++) g.days.push(drawDayLoot(g, per, d));
  x.log.roundStart(g, ranks);
  ed.startRound(x);
  x.log.dayStart(g);
}
