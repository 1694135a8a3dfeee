// Two players: the neutral Midshipman (rank 20.5) joins the island every day. It has no
// owner: it never gains anything and can never be discarded (effects aimed at it do
// nothing). At its dusk turn the player who does NOT own the character directly to its
// left returns one of today's tokens to the bag before that character picks.
import { cardName, kindOptions, placeOnIsland, takeFromDay } from '../../actions.js';
import { ask } from '../../kernel.js';
import type { Ctx, Effect } from '../../edition.js';

export const MIDSHIPMAN_RANK = 20.5;

/** Sunrise: the Midshipman takes its place between 20 and 21. */
export function placeMidshipman(x: Ctx): void {
  if (x.g.players === 2) placeOnIsland(x, -1, MIDSHIPMAN_RANK);
}

/** Dusk turn of the Midshipman; step.n is the seat removing a token once asked. */
export const midshipman: Effect = (x, s, answer) => {
  const g = x.g;
  const today = g.days[g.day - 1];
  if (answer === undefined) {
    const i = g.island.findIndex((c) => c.seat < 0);
    const left = i > 0 ? g.island[i - 1] : undefined;
    if (!left || today.length === 0) return;
    const remover = 1 - left.seat;
    // Say why this player and what it decides: the token returned is one the next character cannot take.
    const owner = `seat ${left.seat} owns ${cardName(x, left.rank)} (${left.rank}), directly left of it`;
    const text = `Midshipman: ${owner}, so you return one of today’s loot tokens to the bag before that character picks (what you return, it cannot take)`;
    ask(x, { ...s, n: remover }, remover, 'remove', text, kindOptions(x, today));
    return;
  }
  takeFromDay(g, answer);
  g.bag.push(answer);
  x.log.lootRemoved(s.n!, answer, 'Midshipman');
};
