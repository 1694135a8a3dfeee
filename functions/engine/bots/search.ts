// The expert bot: determinized Monte Carlo search over the seat's information set.
//
// Method (information-set Monte Carlo, one decision level): every iteration draws a
// determinization — a full game state consistent with what the seat's view shows, the hidden
// part re-dealt at random — picks one of the seat's legal moves by UCB1 over all the
// iterations so far, plays it on the determinization and plays the round out with a cheap
// policy for every seat (random card, the most valuable loot token, random otherwise). The
// result is read when the round ends (its scoring and banking included; the game's end in
// the last round): a win counts 1, otherwise the banked-score margin over the best other
// seat, squashed into 0..1. The move tried most often is played.
//
// Hidden information: the search never reads what the seat may not see. It first builds a
// *masked* state from the real one — other seats' hands, choices, graveyards and (classic)
// loot emptied to their public sizes, the deck, the bag, the RNG and the seed cleared — and
// samples every determinization from that masked state alone. Everyone is dealt the same
// ranks, so the cards another seat may hold in hand, graveyard or out of play are exactly
// the ranks this seat was dealt minus that seat's public ship/den and island cards; loot
// not in view (bag, face-down booty) is the edition's bag minus every token in view. The
// property "changing what the seat cannot see never changes its move" is tested.
//
// Budget: a fixed number of playouts per decision (not a clock, so a bot move replays
// identically when a commit is retried). See docs/correspondence.md, "Bots", for the CPU it takes.
import { applyInPlace, cloneState, firstAwaitedSeat } from '../core.js';
import { editionOf } from '../editions/index.js';
import { hasChosen, NO_CHOICE } from '../kernel.js';
import type { Command, GameState, MoveCommand, Loot } from '../types.js';

export type Random = () => number;

export interface SearchBudget {
  /** Playouts for the daily card choice. */
  cardPlayouts: number;
  /** Playouts for a prompt answer. */
  promptPlayouts: number;
  /** Stop early once the playouts have simulated this many commands (bounds the CPU time). */
  maxCommands: number;
}

/** The default budget (docs/correspondence.md, "Bots": the CPU time it takes and the strength it gives). */
export const EXPERT_BUDGET: SearchBudget = { cardPlayouts: 200, promptPlayouts: 80, maxCommands: 20_000 };

/** UCB1 exploration constant (rewards are in 0..1). */
const EXPLORE = 0.6;
/** Safety bound on one playout (a round takes a few hundred commands at most). */
const MAX_PLAYOUT_COMMANDS = 3000;

// ---- masking and determinization ----

function shuffleIn<T>(xs: T[], rnd: Random): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = xs[i];
    xs[i] = xs[j];
    xs[j] = t;
  }
  return xs;
}

/** Sizes of what each other seat hides, and whether it has chosen today. */
interface Hidden {
  hand: number;
  graveyard: number;
  chosen: boolean;
  loot: number;
}

interface Masked {
  g: GameState;
  seat: number;
  hidden: (Hidden | null)[];
  /** Ranks another seat may hold out of view (per seat). */
  cardPool: number[][];
  /** Loot tokens not in view (bag and face-down loot of others). */
  lootPool: Loot[];
  /** Ranks never dealt (the deck). */
  deckPool: number[];
}

/**
 * The state as `seat` knows it: every field another seat hides is emptied (its sizes kept
 * aside), the deck, bag, RNG and seed cleared. A function of view(g, seat) and the seat's own
 * data only.
 */
export function mask(g: GameState, seat: number): Masked {
  const ed = editionOf(g.edition);
  const m = cloneState(g);
  m.seed = '';
  m.rng = [0, 0, 0, 0];
  m.fixed = {};
  const me = m.seats[seat];
  const dealt = new Set<number>([...me.hand, ...me.den, ...me.graveyard, ...me.out]);
  for (const c of m.island) if (c.seat === seat) dealt.add(c.rank);
  const hidden: (Hidden | null)[] = [];
  const cardPool: number[][] = [];
  // Loot in view: the day displays, own loot, others' loot where face up.
  const seen: Record<Loot, number> = {};
  for (const k of ed.lootKinds) seen[k] = 0;
  for (const day of m.days) for (const k of day) seen[k]++;
  const lootHidden = ed.hiddenLoot && !m.finished;
  for (let s = 0; s < m.players; s++) {
    const o = m.seats[s];
    if (s === seat || !lootHidden) for (const k of ed.lootKinds) seen[k] += o.loot[k];
    if (s === seat) {
      hidden.push(null);
      cardPool.push([]);
      continue;
    }
    let loot = 0;
    for (const k of ed.lootKinds) loot += o.loot[k];
    hidden.push({
      hand: o.hand.length,
      graveyard: o.graveyard.length,
      chosen: hasChosen(o),
      loot: lootHidden ? loot : 0,
    });
    const pub = new Set<number>(o.den);
    for (const c of m.island) if (c.seat === s) pub.add(c.rank);
    const pool: number[] = [];
    for (const r of dealt) if (!pub.has(r)) pool.push(r);
    pool.sort((a, b) => a - b);
    cardPool.push(pool);
    o.hand = [];
    o.graveyard = [];
    o.out = [];
    o.choice = NO_CHOICE;
    if (lootHidden) for (const k of ed.lootKinds) o.loot[k] = 0;
  }
  const lootPool: Loot[] = [];
  for (const k of ed.lootKinds) for (let i = (ed.bag[k] ?? 0) - seen[k]; i > 0; i--) lootPool.push(k);
  const deckPool: number[] = [];
  for (let r = 1; r <= ed.ranks; r++) if (!dealt.has(r)) deckPool.push(r);
  m.deck = [];
  m.bag = [];
  return { g: m, seat, hidden, cardPool, lootPool, deckPool };
}

/** One full state consistent with the masked one, the hidden part drawn from `rnd`. */
export function determinize(m: Masked, rnd: Random): GameState {
  const ed = editionOf(m.g.edition);
  const d = cloneState(m.g);
  d.rng = [(rnd() * 4294967296) | 0, (rnd() * 4294967296) | 0, (rnd() * 4294967296) | 0, (rnd() * 4294967296) | 1];
  const loot = shuffleIn(m.lootPool.slice(), rnd);
  for (let s = 0; s < d.players; s++) {
    const h = m.hidden[s];
    if (!h) continue;
    const o = d.seats[s];
    const pool = shuffleIn(m.cardPool[s].slice(), rnd);
    o.hand = pool.slice(0, h.hand);
    o.graveyard = pool.slice(h.hand, h.hand + h.graveyard);
    o.out = pool.slice(h.hand + h.graveyard);
    if (h.chosen && o.hand.length > 0) o.choice = o.hand[Math.floor(rnd() * o.hand.length)];
    for (let i = 0; i < h.loot && loot.length > 0; i++) o.loot[loot.pop()!]++;
  }
  d.bag = loot;
  d.deck = shuffleIn(m.deckPool.slice(), rnd);
  void ed;
  return d;
}

// ---- playouts ----

/** The cheap policy every seat follows in a playout. */
function policy(g: GameState, seat: number, rnd: Random, values: Readonly<Record<Loot, number>>): Command {
  const p = g.prompt;
  if (p && p.seat === seat) {
    const opts = p.options;
    if ((p.kind === 'loot' || p.kind === 'remove') && rnd() < 0.85) {
      let best = 0;
      let bestV = -Infinity;
      for (let i = 0; i < opts.length; i++) {
        const v = (values[opts[i].id] ?? 0) + rnd() * 0.5;
        if (v > bestV) {
          bestV = v;
          best = i;
        }
      }
      // Remove (Midshipman): take away what the other player would want most.
      return { seat, answer: opts[best].id };
    }
    return { seat, answer: opts[Math.floor(rnd() * opts.length)].id };
  }
  const hand = g.seats[seat].hand;
  return { seat, play: hand[Math.floor(rnd() * hand.length)] };
}

/** Plays the round out (or the game); returns the commands it took (the result is in g). */
function playout(g: GameState, rnd: Random, values: Readonly<Record<Loot, number>>): number {
  const round = g.round;
  let n = 0;
  for (; n < MAX_PLAYOUT_COMMANDS && !g.finished && g.round === round; n++) {
    const s = firstAwaitedSeat(g);
    applyInPlace(g, policy(g, s, rnd, values), null);
  }
  return n;
}

function reward(g: GameState, seat: number): number {
  let best = -Infinity;
  for (let s = 0; s < g.players; s++) if (s !== seat && g.seats[s].score > best) best = g.seats[s].score;
  const margin = g.seats[seat].score - best;
  const squashed = 1 / (1 + Math.exp(-margin / 8));
  if (g.finished) return (g.ranking[0] === seat ? 0.8 : 0) + 0.2 * squashed;
  return squashed;
}

// ---- the decision ----

/** The seat's legal moves now, as commands (distinct cards; every prompt option). */
function moves(g: GameState, seat: number): MoveCommand[] {
  const p = g.prompt;
  if (p && p.seat === seat) return p.options.map((o) => ({ seat, answer: o.id, promptId: p.id }));
  const out: MoveCommand[] = [];
  for (const r of [...new Set(g.seats[seat].hand)].sort((a, b) => a - b)) out.push({ seat, play: r });
  return out;
}

export interface SearchStats {
  playouts: number;
  visits: number[];
  means: number[];
}

/** The expert bot's command for `seat` (which must be awaited). */
export function expertCommand(
  g: GameState,
  seat: number,
  rnd: Random,
  budget: SearchBudget = EXPERT_BUDGET,
  stats?: SearchStats,
): Command {
  const options = moves(g, seat);
  if (options.length === 1) return options[0];
  const values = editionOf(g.edition).botLootValue;
  const m = mask(g, seat);
  const n = g.prompt ? budget.promptPlayouts : budget.cardPlayouts;
  const visits = new Array<number>(options.length).fill(0);
  const sums = new Array<number>(options.length).fill(0);
  let commands = 0;
  let it = 0;
  for (; it < n && commands < budget.maxCommands; it++) {
    let arm = -1;
    if (it < options.length) arm = it;
    else {
      let bestU = -Infinity;
      const logN = Math.log(it);
      for (let i = 0; i < options.length; i++) {
        const u = sums[i] / visits[i] + EXPLORE * Math.sqrt(logN / visits[i]);
        if (u > bestU) {
          bestU = u;
          arm = i;
        }
      }
    }
    const d = determinize(m, rnd);
    const cmd = options[arm];
    // The prompt id belongs to the real game: the determinization's is the same.
    applyInPlace(d, 'play' in cmd ? { seat, play: cmd.play } : { seat, answer: cmd.answer }, null);
    commands += 1 + playout(d, rnd, values);
    sums[arm] += reward(d, seat);
    visits[arm]++;
  }
  let best = 0;
  for (let i = 1; i < options.length; i++) {
    if (visits[i] > visits[best] || (visits[i] === visits[best] && sums[i] > sums[best])) best = i;
  }
  if (stats) {
    stats.playouts += it;
    stats.visits = visits;
    stats.means = sums.map((s, i) => s / Math.max(1, visits[i]));
  }
  return options[best];
}
