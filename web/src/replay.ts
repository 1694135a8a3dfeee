// A finished game's replay from its event log: what the table looked like after each event.
// Island, dens/ships, loot counts and scores are rebuilt forward from the log; doubloons and
// reputation backward from the final game (the log records their changes, not the set-up).
import type { Game, GameEvent, IslandCard } from './types';
import { slides } from './day';

export interface FrameSeat {
  den: number[];
  doubloons: number;
  score: number;
  loot: number;
  reputation: number | null;
}

export interface Frame {
  seq: number;
  event: GameEvent;
  round: number;
  day: number;
  island: IslandCard[];
  seats: FrameSeat[];
}

const num = (v: unknown) => Number(v);

export function parseIsland(v: unknown): IslandCard[] {
  if (!Array.isArray(v)) return [];
  return v.map((c) => {
    if (typeof c === 'string') {
      const [s, r] = c.split(':');
      return { seat: num(s), rank: num(r) };
    }
    const o = c as IslandCard;
    return { seat: o.seat, rank: o.rank };
  });
}

export function buildReplay(events: GameEvent[], game: Game): Frame[] {
  const n = game.seats.length;
  const frames: Frame[] = [];
  let round = 1;
  let day = 1;
  let island: IslandCard[] = [];
  let lastRemoved: { seat: number; index: number } | null = null;
  const dens: number[][] = Array.from({ length: n }, () => []);
  const score: number[] = Array(n).fill(0);
  const loot: number[] = Array(n).fill(0);
  for (const ev of events) {
    const d = ev.data as Record<string, unknown>;
    const seat = num(d.seat);
    switch (ev.type) {
      case 'roundStart':
        round = num(d.round);
        day = 1;
        island = [];
        break;
      case 'dayStart':
        day = num(d.day);
        break;
      case 'sunrise':
        round = num(d.round ?? round);
        day = num(d.day ?? day);
        island = parseIsland(d.island);
        break;
      case 'dayEnd':
        island = [];
        break;
      case 'phase':
        // The Midshipman (no seat) leaves the island with the dusk, without an event of its own.
        if (d.phase === 'night') island = island.filter((c) => c.seat >= 0);
        break;
      case 'character': {
        if (d.rank === undefined) break;
        const rank = num(d.rank);
        if (d.from === 'island') {
          const i = island.findIndex((c) => c.seat === seat && c.rank === rank);
          if (i >= 0) {
            island = island.filter((_, k) => k !== i);
            lastRemoved = { seat, index: i };
          }
        }
        if (d.from === 'den' && dens[seat]) dens[seat] = dens[seat].filter((r) => r !== rank);
        if (d.to === 'den' && dens[seat]) dens[seat] = [...dens[seat], rank].sort((a, b) => a - b);
        if (d.to === 'island') {
          const at = lastRemoved && lastRemoved.seat === seat ? lastRemoved.index : island.length;
          island = [...island.slice(0, at), { seat, rank }, ...island.slice(at)];
          lastRemoved = null;
        }
        break;
      }
      case 'lootGained':
        if (seat in loot) loot[seat] += num(d.n ?? 1);
        break;
      case 'lootReturned':
        if (seat in loot) loot[seat] = Math.max(0, loot[seat] - num(d.n ?? 1));
        break;
      case 'lootPassed': {
        const k = num(d.n ?? 1);
        const from = num(d.from);
        const to = num(d.to);
        if (from in loot) loot[from] = Math.max(0, loot[from] - k);
        if (to in loot) loot[to] += k;
        break;
      }
      case 'campaignScored':
        if (seat in score) {
          score[seat] = num(d.score);
          loot[seat] = 0;
          dens[seat] = [];
        }
        break;
      case 'voyageBanked':
        if (seat in score) {
          score[seat] = num(d.score);
          loot[seat] = 0;
        }
        break;
    }
    frames.push({
      seq: ev.seq,
      event: ev,
      round,
      day,
      island,
      seats: dens.map((den, s) => ({ den, doubloons: 0, score: score[s], loot: loot[s], reputation: null })),
    });
  }
  // Backward: the final values, undone event by event.
  const coins = game.seats.map((s) => s.doubloons);
  const rep = game.seats.map((s) => s.reputation);
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    f.seats.forEach((s, k) => {
      s.doubloons = coins[k];
      s.reputation = rep[k];
    });
    const d = f.event.data as Record<string, unknown>;
    const seat = num(d.seat);
    if (!(seat in coins)) continue;
    if (f.event.type === 'doubloons') coins[seat] -= num(d.delta);
    else if (f.event.type === 'campaignScored' || f.event.type === 'voyageBanked') coins[seat] = num(d.banked);
    else if (f.event.type === 'reputation') {
      rep[seat] = num(d.from);
      // Undo the slides: each token passed goes back one space towards the mover's `to`.
      for (const p of slides(d)) rep[p.seat] = p.to + Math.sign(num(d.to) - num(d.from));
    }
  }
  return frames;
}
