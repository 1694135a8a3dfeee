// Today's places on the island (pure: no DOM, so node tests import it): the sunrise order
// from the log, which cards are still there, and where a card that came later sits.
import { parseIsland } from './replay';
import type { Game, GameEvent, IslandCard } from './types';

export interface Slot extends IslandCard {
  /** Still on the island; false: it has left its place today. */
  here: boolean;
}

const same = (a: IslandCard, b: IslandCard) => a.seat === b.seat && a.rank === b.rank;

/** Today's places: the sunrise order, with what is still there and what came in later. */
export function islandSlots(g: Game, events: GameEvent[]): Slot[] {
  const now = g.island.map((c) => ({ seat: c.seat, rank: c.rank, here: true }));
  if (g.status !== 'ACTIVE' || g.phase === 'CHOOSE') return now;
  let sun: GameEvent | undefined;
  for (let i = events.length - 1; i >= 0 && !sun; i--) {
    const d = events[i].data as Record<string, unknown>;
    if (events[i].type === 'sunrise' && Number(d.round) === g.round && Number(d.day) === g.day) sun = events[i];
  }
  if (!sun) return now;
  const out: Slot[] = parseIsland((sun.data as Record<string, unknown>).island).map((c) => ({ ...c, here: false }));
  for (const o of out) o.here = g.island.some((c) => same(o, c));
  let prev = -1;
  for (const c of g.island) {
    const i = out.findIndex((o) => same(o, c));
    if (i >= 0) {
      prev = i;
      continue;
    }
    // A card that came later (the Parrot's replacement): after the places of lower ranks that left.
    let at = prev + 1;
    while (at < out.length && !out[at].here && out[at].rank <= c.rank) at++;
    out.splice(at, 0, { seat: c.seat, rank: c.rank, here: true });
    prev = at;
  }
  return out;
}

/**
 * For each slot, its place in the order the cards left the island (0 first; 0 for those still
 * there), as the log has it: day abilities left to right, dusk picks right to left.
 */
export function leaveOrder(slots: Slot[], events: GameEvent[]): number[] {
  const left = new Map<string, number>();
  for (const e of events) {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'character' && d.from === 'island') left.set(`${d.seat}:${d.rank}`, e.seq);
  }
  const seqs = slots.map((c) => (c.here ? -1 : (left.get(`${c.seat}:${c.rank}`) ?? 0)));
  const gone = seqs.filter((q) => q >= 0).sort((a, b) => a - b);
  return seqs.map((q) => (q < 0 ? 0 : gone.indexOf(q)));
}
