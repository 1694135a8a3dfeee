// A day as a story, read from the event log (the server's words): sunrise, day abilities,
// each dusk pick with what it gave, night, the end-of-round scoring if the day closed a round,
// and the doubloons / reputation / loot each seat won or lost. Also the "since your last
// visit" digest: the days played and the changes per seat after a given event.
import type { GameEvent } from './types';

export type StepKind = 'sunrise' | 'day' | 'dusk' | 'night' | 'scoring';

export interface DayStep {
  kind: StepKind;
  /** Lines in words; a dusk line groups one character's pick and what it gave. */
  lines: string[];
}

export interface SeatDelta {
  doubloons: number;
  reputation: number;
  /** Loot taken, by kind ('face down' when hidden). */
  loot: Record<string, number>;
}

export interface DayStory {
  round: number;
  day: number;
  /** seq of the sunrise and of the story's last event. */
  from: number;
  to: number;
  steps: DayStep[];
  deltas: Record<number, SeatDelta>;
  /** The day ran to its end (dayEnd seen). */
  complete: boolean;
}

const QUIET = new Set(['prompt', 'answered', 'cardChosen', 'timeout']);

function delta(d: Record<number, SeatDelta>, seat: number): SeatDelta {
  return (d[seat] ??= { doubloons: 0, reputation: 0, loot: {} });
}

/** The tokens a reputation move passed, each with the space it slid to. */
export function slides(d: Record<string, unknown>): { seat: number; to: number }[] {
  return Array.isArray(d.passed) ? (d.passed as { seat: number; to: number }[]) : [];
}

/** Adds an event's changes to per-seat deltas. */
export function addDelta(deltas: Record<number, SeatDelta>, e: GameEvent): void {
  const d = e.data as Record<string, unknown>;
  const seat = Number(d.seat);
  if (e.type === 'doubloons') delta(deltas, seat).doubloons += Number(d.delta);
  else if (e.type === 'reputation') {
    delta(deltas, seat).reputation += Number(d.to) - Number(d.from);
    // The tokens passed slid one space back: their players' reputation changed too.
    for (const p of slides(d)) delta(deltas, p.seat).reputation += Math.sign(Number(d.from) - Number(d.to));
  } else if (e.type === 'lootGained') {
    const k = d.kind ? String(d.kind) : 'face down';
    const s = delta(deltas, seat);
    s.loot[k] = (s.loot[k] ?? 0) + Number(d.n ?? 1);
  }
}

/** Every day in the log from its sunrise, in order (the last one may be running). */
export function dayStories(events: GameEvent[]): DayStory[] {
  const out: DayStory[] = [];
  let cur: DayStory | null = null;
  let step: DayStep | null = null;
  let group: string[] = [];
  const flush = () => {
    if (step && group.length) step.lines.push(group.join(' '));
    group = [];
  };
  const open = (kind: StepKind) => {
    flush();
    step = { kind, lines: [] };
    cur!.steps.push(step);
  };
  for (const e of events) {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'sunrise') {
      cur = {
        round: Number(d.round),
        day: Number(d.day),
        from: e.seq,
        to: e.seq,
        steps: [],
        deltas: {},
        complete: false,
      };
      out.push(cur);
      step = { kind: 'sunrise', lines: [e.text] };
      cur.steps.push(step);
      open('day');
      continue;
    }
    if (!cur) continue;
    if (e.type === 'dayStart' || e.type === 'roundStart' || e.type === 'gameEnd') {
      if (cur.complete) {
        flush();
        cur = null;
        step = null;
        continue;
      }
    }
    cur.to = e.seq;
    addDelta(cur.deltas, e);
    if (e.type === 'phase') {
      const p = String(d.phase);
      open(p === 'dusk' ? 'dusk' : p === 'night' ? 'night' : 'scoring');
      continue;
    }
    if (e.type === 'dayEnd') {
      flush();
      cur.complete = true;
      continue;
    }
    if (QUIET.has(e.type)) continue;
    if (step && (step as DayStep).kind === 'dusk') {
      group.push(e.text);
      // A character's dusk ends when it reaches the den / ship (or is discarded by an officer).
      // The neutral Midshipman's dusk is its one token sent back to the bag.
      if (e.type === 'character' && (d.to === 'den' || (d.from === 'island' && d.to === 'graveyard'))) flush();
      else if (e.type === 'lootRemoved' && d.reason === 'Midshipman') flush();
    } else step?.lines.push(e.text);
  }
  flush();
  return out;
}

export interface Digest {
  days: { round: number; day: number }[];
  deltas: Record<number, SeatDelta>;
  events: number;
}

/** What happened after event `after`: days played and the changes per seat. */
export function digest(events: GameEvent[], after: number): Digest {
  const later = events.filter((e) => e.seq > after);
  const deltas: Record<number, SeatDelta> = {};
  for (const e of later) addDelta(deltas, e);
  const days = later
    .filter((e) => e.type === 'dayEnd')
    .map((e) => ({ round: Number(e.data.round), day: Number(e.data.day) }));
  return { days, deltas, events: later.length };
}

/** A loot token a player took, for the table to show it travelling to their den or ship. */
export interface LootFlight {
  seq: number;
  seat: number;
  /** The kind, when the caller may know it (a token drawn face down from the bag has none). */
  kind?: string;
  /** The day (1-based) whose space it left; null when it came out of the bag. */
  day: number | null;
}

/** The tokens taken after event `after`, in the order they were taken (dusk: right to left). */
export function lootFlights(events: GameEvent[], after: number): LootFlight[] {
  const out: LootFlight[] = [];
  let day: number | null = null;
  for (const e of events) {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'sunrise') day = Number(d.day);
    if (e.seq <= after || e.type !== 'lootGained') continue;
    const n = Math.max(1, Number(d.n ?? 1));
    for (let i = 0; i < n; i++)
      out.push({
        seq: e.seq,
        seat: Number(d.seat),
        kind: typeof d.kind === 'string' ? d.kind : undefined,
        day: d.why === 'day' ? day : null,
      });
  }
  return out;
}
