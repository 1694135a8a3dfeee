// Bots answer any decision a seat owes: the daily card or a prompt. They see only what
// their seat may see (their own hand and prompt) and draw from their own random source,
// never the game's: a game replayed from its command log must not depend on them.
import { applyInPlace, cloneState, playCtx } from '../core.js';
import { editionOf } from '../editions/index.js';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { isAwaited, NO_CHOICE, push, run } from '../kernel.js';
import { SUNRISE } from '../phases.js';
import { hashSeed } from '../rng.js';
import { expertCommand } from './search.js';
import type { Command, GameState } from '../types.js';

export type BotKind = 'random' | 'greedy' | 'expert';
export const BOT_KINDS: readonly BotKind[] = ['random', 'greedy', 'expert'];

/** A random source returning a float in [0, 1). */
export type Random = () => number;

const pickIndex = (n: number, rnd: Random) => Math.floor(rnd() * n);

/** Uniformly random legal command for `seat`. */
export function randomCommand(g: GameState, seat: number, rnd: Random): Command {
  if (g.prompt && g.prompt.seat === seat) {
    const opts = g.prompt.options;
    return { seat, answer: opts[pickIndex(opts.length, rnd)].id, promptId: g.prompt.id };
  }
  const hand = g.seats[seat].hand;
  return { seat, play: hand[pickIndex(hand.length, rnd)] };
}

/** What a seat holds, as the greedy bot counts it: banked score, doubloons and loot. */
function worth(g: GameState, seat: number): number {
  const values = editionOf(g.edition).botLootValue;
  const me = g.seats[seat];
  let v = me.score + me.doubloons;
  for (const k in me.loot) v += (values[k] ?? 0) * me.loot[k];
  return v;
}

/** Everyone else's worth, to prefer options that hurt opponents (sabers, Gunner...). */
function othersWorth(g: GameState, seat: number): number {
  let v = 0;
  for (let s = 0; s < g.players; s++) if (s !== seat) v += worth(g, s);
  return v / Math.max(1, g.players - 1);
}

const margin = (g: GameState, seat: number) => worth(g, seat) - othersWorth(g, seat);

/**
 * The greedy bot's card: play each card alone on a private copy with no other character
 * (so no hidden choice is peeked at), run the day with first options, keep the best gain.
 */
function greedyCard(g: GameState, seat: number, rnd: Random): number {
  const hand = g.seats[seat].hand;
  let best = hand[0];
  let bestValue = -Infinity;
  for (const rank of hand) {
    const h = cloneState(g);
    h.seats.forEach((s, i) => {
      if (i !== seat) {
        s.choice = NO_CHOICE;
        s.hand = [];
      }
    });
    h.seats[seat].choice = rank;
    const x = playCtx(h, null);
    push(x, SUNRISE);
    run(x);
    for (let guard = 0; guard < 50 && h.prompt && h.prompt.seat === seat && h.day === g.day; guard++) {
      applyInPlace(h, { seat, answer: h.prompt.options[0].id }, null);
    }
    // Tiny random term: equal cards are not always played in rank order.
    const value = margin(h, seat) + rnd() * 0.01;
    if (value > bestValue) {
      bestValue = value;
      best = rank;
    }
  }
  return best;
}

/** The greedy bot's answer: the option that leaves it best off right after. */
function greedyAnswer(g: GameState, seat: number, rnd: Random): string {
  const p = g.prompt!;
  let best = p.options[0].id;
  let bestValue = -Infinity;
  for (const o of p.options) {
    const h = cloneState(g);
    applyInPlace(h, { seat, answer: o.id }, null);
    const value = margin(h, seat) + rnd() * 0.01;
    if (value > bestValue) {
      bestValue = value;
      best = o.id;
    }
  }
  return best;
}

export function greedyCommand(g: GameState, seat: number, rnd: Random): Command {
  if (g.prompt && g.prompt.seat === seat) return { seat, answer: greedyAnswer(g, seat, rnd), promptId: g.prompt.id };
  return { seat, play: greedyCard(g, seat, rnd) };
}

/** The command a bot of `kind` makes for `seat` now (the seat must be awaited). */
export function botCommand(g: GameState, seat: number, kind: BotKind, rnd: Random): Command {
  if (!isAwaited(g, seat)) throw new Error(`seat ${seat} has nothing to decide`);
  return awaitedBotCommand(g, seat, kind, rnd);
}

/** botCommand for a seat the caller knows is awaited (the bulk game loop: no second check). */
export function awaitedBotCommand(g: GameState, seat: number, kind: BotKind, rnd: Random): Command {
  if (kind === 'expert') return expertCommand(g, seat, rnd);
  return kind === 'greedy' ? greedyCommand(g, seat, rnd) : randomCommand(g, seat, rnd);
}

/**
 * A seeded source for bots (xoroshiro128+ from pure-rand), independent of the game's RNG.
 * A text seed (e.g. game id and progress) is hashed like a game seed.
 */
export function botRandom(seed: number | string): Random {
  const gen = xoroshiro128plus(typeof seed === 'string' ? hashSeed(seed) : seed);
  return () => (gen.next() >>> 0) / 4294967296;
}
