// A game's replay from its event log as the viewer reads it: what the table looked like after
// each event. Island, days' loot, dens/ships, loot and scores are rebuilt forward from the log;
// doubloons and reputation backward from the game now (the log records their changes, not the
// set-up). The viewer's own hand and loot come from their own events (the server adds a
// secret part, such as a chosen rank or a token drawn face down, for its own seat only), so a
// frame never holds another player's hidden cards or loot. `frameGame` turns a frame into a
// game the table's parts draw (scene, dens, reputation track).
import type { Game, GameEvent, IslandCard, Seat } from './types';
import { slides } from './day';

const removeOne = (xs: number[], x: number) => {
  const i = xs.indexOf(x);
  return i < 0 ? xs : [...xs.slice(0, i), ...xs.slice(i + 1)];
};

export interface FrameSeat {
  den: number[];
  doubloons: number;
  score: number;
  loot: number;
  /** Loot by kind where the viewer could see it then (their own; every seat's in Galecrest); else null. */
  lootKinds: Record<string, number> | null;
  /** Cards in hand (public). */
  handSize: number;
  reputation: number | null;
}

export interface Frame {
  seq: number;
  event: GameEvent;
  round: number;
  day: number;
  /** The game's phase then (CHOOSE, DAY, DUSK, NIGHT, ANCHOR; LOBBY before the deal). */
  phase: Game['phase'];
  /** The game had ended (gameEnd seen): everything is public from here on. */
  finished: boolean;
  island: IslandCard[];
  /** Each day of the round with the loot then on its space. */
  days: string[][];
  /** The viewer's own hand then, ranks ascending (null: a spectator has none). */
  hand: number[] | null;
  /** The viewer's secret choice of the day, until sunrise. */
  choice: number | null;
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

/** Removes one token of a kind from a day's space (as the engine takes it: the first one). */
function take(day: string[] | undefined, kind: string): void {
  const i = day ? day.indexOf(kind) : -1;
  if (i >= 0) day!.splice(i, 1);
}

/** Replaces one token of a kind on a space by another (the Watchman's swap, or its undoing). */
function swap(day: string[] | undefined, out: string, into: string): void {
  const i = day ? day.indexOf(out) : -1;
  if (i >= 0) day![i] = into;
}

/**
 * Each round's days as they were laid out at its start: every day's loot as its `dayStart`
 * shows it (days not reached yet: the game's own, for the round being played), with the
 * Watchman's swaps into a later day undone.
 */
function roundLayouts(events: GameEvent[], game: Game): Map<number, string[][]> {
  const out = new Map<number, string[][]>();
  const swaps: { round: number; day: number; today: string; tomorrow: string }[] = [];
  let round = 0;
  let day = 1;
  for (const ev of events) {
    const d = ev.data as Record<string, unknown>;
    if (ev.type === 'roundStart') {
      round = num(d.round);
      const days: string[][] = Array.from({ length: num(d.days) }, () => []);
      if (round === game.round && game.status === 'ACTIVE')
        game.days.forEach((k, i) => {
          if (i < days.length) days[i] = [...k];
        });
      out.set(round, days);
    } else if (ev.type === 'dayStart') {
      day = num(d.day);
      const days = out.get(round);
      if (days && Array.isArray(d.loot)) days[day - 1] = (d.loot as unknown[]).map(String);
    } else if (ev.type === 'lootSwapped')
      swaps.push({ round, day, today: String(d.today), tomorrow: String(d.tomorrow) });
  }
  // A swap put today's token into the next day and took `tomorrow` out of it: undone there.
  for (const w of swaps.reverse()) swap(out.get(w.round)?.[w.day], w.today, w.tomorrow);
  return out;
}

export function buildReplay(events: GameEvent[], game: Game): Frame[] {
  const n = game.seats.length;
  const viewer = game.me ? game.me.seat : null;
  // Classic keeps the others' loot face down until the end; Galecrest's is face up.
  const othersLootHidden = game.edition !== 'GALECREST';
  const layouts = roundLayouts(events, game);
  const frames: Frame[] = [];
  let round = 1;
  let day = 1;
  let phase: Game['phase'] = 'LOBBY';
  let finished = false;
  let island: IslandCard[] = [];
  let days: string[][] = [];
  let lastRemoved: { seat: number; index: number } | null = null;
  let hand: number[] = [];
  let choice: number | null = null;
  const dens: number[][] = Array.from({ length: n }, () => []);
  const score: number[] = Array(n).fill(0);
  const loot: number[] = Array(n).fill(0);
  const kinds: Record<string, number>[] = Array.from({ length: n }, () => ({}));
  const handSize: number[] = Array(n).fill(0);
  const addKind = (seat: number, kind: unknown, k: number) => {
    if (kind === undefined || !kinds[seat]) return;
    const key = String(kind);
    kinds[seat] = { ...kinds[seat], [key]: Math.max(0, (kinds[seat][key] ?? 0) + k) };
  };
  const today = () => days[day - 1];
  for (const ev of events) {
    const d = ev.data as Record<string, unknown>;
    const seat = num(d.seat);
    switch (ev.type) {
      case 'roundStart':
        round = num(d.round);
        day = 1;
        phase = 'CHOOSE';
        island = [];
        days = (layouts.get(round) ?? []).map((k) => [...k]);
        if (Array.isArray(d.dealt)) {
          const dealt = (d.dealt as unknown[]).map(num);
          handSize.forEach((_, s) => (handSize[s] += dealt.length));
          if (viewer !== null) hand = [...hand, ...dealt].sort((a, b) => a - b);
        }
        break;
      case 'dayStart':
        day = num(d.day);
        phase = 'CHOOSE';
        break;
      case 'cardChosen':
        if (seat === viewer && d.rank !== undefined) choice = num(d.rank);
        break;
      case 'sunrise':
        round = num(d.round ?? round);
        day = num(d.day ?? day);
        phase = 'DAY';
        island = parseIsland(d.island);
        choice = null;
        for (const c of Array.isArray(d.revealed) ? (d.revealed as IslandCard[]) : []) {
          if (c.seat in handSize) handSize[c.seat]--;
          if (c.seat === viewer) hand = removeOne(hand, num(c.rank));
        }
        break;
      case 'dayEnd':
        island = [];
        phase = 'CHOOSE';
        break;
      case 'phase':
        phase = String(d.phase).toUpperCase() as Game['phase'];
        // The Midshipman (no seat) leaves the island with the dusk, without an event of its own.
        if (d.phase === 'night') island = island.filter((c) => c.seat >= 0);
        break;
      case 'gameEnd':
        finished = true;
        phase = 'FINISHED';
        break;
      case 'character': {
        // The count moves for every seat; the rank is known unless it was a secret of another seat (Surgeon).
        if (seat in handSize) handSize[seat] += (d.to === 'hand' ? 1 : 0) - (d.from === 'hand' ? 1 : 0);
        if (d.rank === undefined) break;
        const rank = num(d.rank);
        if (seat === viewer && d.from === 'hand') hand = removeOne(hand, rank);
        if (seat === viewer && d.to === 'hand') hand = [...hand, rank].sort((a, b) => a - b);
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
        addKind(seat, d.kind, num(d.n ?? 1));
        if (d.why === 'day' && d.kind !== undefined) take(today(), String(d.kind));
        break;
      case 'lootReturned':
        if (seat in loot) loot[seat] = Math.max(0, loot[seat] - num(d.n ?? 1));
        addKind(seat, d.kind, -num(d.n ?? 1));
        break;
      case 'lootPassed': {
        const k = num(d.n ?? 1);
        const from = num(d.from);
        const to = num(d.to);
        if (from in loot) loot[from] = Math.max(0, loot[from] - k);
        if (to in loot) loot[to] += k;
        addKind(from, d.kind, -k);
        addKind(to, d.kind, k);
        break;
      }
      case 'lootRemoved':
        // Today's tokens sent back to the bag (the Midshipman, the Bodyguard).
        take(today(), String(d.kind));
        break;
      case 'lootSwapped':
        swap(today(), String(d.today), String(d.tomorrow));
        swap(days[day], String(d.tomorrow), String(d.today));
        break;
      case 'lootLeftover':
        if (today()) days[day - 1] = [];
        break;
      case 'campaignScored':
      case 'voyageBanked':
        if (seat in score) {
          score[seat] = num(d.score);
          loot[seat] = 0;
          kinds[seat] = {};
          // Classic: the den goes with the campaign; Galecrest's ship moves by its own events.
          if (ev.type === 'campaignScored') dens[seat] = [];
        }
        // What lay on the days' spaces goes back to the bag.
        days = days.map(() => []);
        break;
    }
    frames.push({
      seq: ev.seq,
      event: ev,
      round,
      day,
      phase,
      finished,
      island,
      days: days.map((k) => [...k]),
      hand: viewer === null ? null : hand,
      choice,
      seats: dens.map((den, s) => ({
        den,
        doubloons: 0,
        score: score[s],
        loot: loot[s],
        lootKinds: s === viewer || !othersLootHidden || finished ? kinds[s] : null,
        handSize: handSize[s],
        reputation: null,
      })),
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

/** The game as the table showed it at a frame: the drawing parts (scene, dens, track) take it as they take the live game. */
export function frameGame(f: Frame, g: Game): Game {
  const track = g.galecrest?.reputation;
  return {
    ...g,
    status: f.phase === 'LOBBY' ? 'LOBBY' : f.finished ? 'FINISHED' : 'ACTIVE',
    round: f.round,
    day: f.day,
    phase: f.phase,
    island: f.island,
    days: f.days as Game['days'],
    awaiting: [],
    pending: null,
    nextDeadline: null,
    galecrest: g.galecrest && {
      ...g.galecrest,
      reputation: (track ?? []).map((_, i) => {
        const k = f.seats.findIndex((s) => s.reputation === i);
        return k < 0 ? null : k;
      }),
    },
    seats: g.seats.map((s, i) => {
      const fs = f.seats[i];
      const kinds = fs.lootKinds;
      return {
        ...s,
        den: fs.den,
        doubloons: fs.doubloons,
        score: fs.score,
        reputation: fs.reputation,
        handSize: fs.handSize,
        hasChosen: false,
        awaited: false,
        deadline: null,
        lootCount: fs.loot,
        // After the end everything is public: the final game's loot and graveyards.
        loot: f.finished
          ? s.loot
          : kinds &&
            Object.entries(kinds)
              .filter(([, c]) => c > 0)
              .map(([kind, count]) => ({ kind: kind as NonNullable<Seat['loot']>[number]['kind'], count })),
        graveyard: f.finished ? s.graveyard : null,
      };
    }),
    me: g.me && { ...g.me, hand: f.hand ?? [], choice: f.choice, choiceDeadline: null, prompts: [] },
    ranking: f.finished ? g.ranking : [],
  };
}
