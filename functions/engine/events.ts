// The event log's vocabulary: one method per kind of event, each building its own payload.
// Rule code calls `x.log.<event>(...facts)` with no test around it: the context holds the sink
// chosen once per command (sinkInto), and the sink of a command nobody reads (bulk simulation,
// set-up without a log, a bot's look-ahead, a night trial) has empty methods, so nothing is
// built. One method per event rather than one `emit(type, data)`: each call site then calls one
// method of one or two sinks, which the compiler inlines (the nobody's sink to nothing), where a
// shared emit calling a builder passed to it made a call it could not inline for every event.
import type { EventSink } from './edition.js';
import type { GameEvent, GameState, Loot, Phase, Place, Prompt, PromptKind, SeatState } from './types.js';
import { charId } from './types.js';

/** Nobody listens: every event is dropped where it is made. */
class NoEvents implements EventSink {
  prompt(): void {}
  cardChosen(): void {}
  answered(): void {}
  conceded(): void {}
  doubloons(): void {}
  character(): void {}
  loot(): void {}
  lootPassed(): void {}
  roundStart(): void {}
  dayStart(): void {}
  sunrise(): void {}
  phase(): void {}
  lootLeftover(): void {}
  dayEnd(): void {}
  gameEnd(): void {}
  campaignScored(): void {}
  copied(): void {}
  lootRemoved(): void {}
  lootSwapped(): void {}
  reputation(): void {}
  anchorAbility(): void {}
  anchorLoot(): void {}
  kept(): void {}
  voyageBanked(): void {}
}

/** The sink of a command whose events are read: each event built and appended to the list. */
class EventList implements EventSink {
  constructor(private readonly list: GameEvent[]) {}

  private add(type: string, data: Record<string, unknown>): void {
    this.list.push({ type, data });
  }

  /** `secret`: the part only `seat` sees (merged over `data` by view.ts viewEvent). */
  private addSecret(type: string, data: Record<string, unknown>, seat: number, secret: Record<string, unknown>): void {
    this.list.push({ type, data, secret: { seat, data: secret } });
  }

  // ---- commands and prompts ----

  prompt(seat: number, kind: PromptKind, promptId: string): void {
    this.add('prompt', { seat, kind, promptId });
  }
  cardChosen(seat: number, changed: boolean, rank: number): void {
    this.addSecret('cardChosen', { seat, changed }, seat, { rank });
  }
  answered(seat: number, p: Prompt, answer: string): void {
    this.addSecret('answered', { seat, promptId: p.id, kind: p.kind }, seat, { answer });
  }
  conceded(seat: number): void {
    this.add('conceded', { seat });
  }

  // ---- the shared actions ----

  doubloons(seat: number, delta: number, reason: string): void {
    this.add('doubloons', { seat, delta, reason });
  }
  character(seat: number, rank: number, from: Place, to: Place, reason: string, secret = false): void {
    if (secret) this.addSecret('character', { seat, from, to, reason }, seat, { rank });
    else this.add('character', { seat, rank, from, to, reason });
  }
  loot(type: 'lootGained' | 'lootReturned', seat: number, kind: Loot, n: number, why: string, open: boolean): void {
    if (open) this.add(type, { seat, kind, n, why });
    else this.addSecret(type, { seat, n, why }, seat, { kind });
  }
  lootPassed(from: number, to: number, kind: Loot, n: number, reason: string): void {
    this.add('lootPassed', { from, to, kind, n, reason });
  }

  // ---- the flow ----

  roundStart(g: GameState, dealt: readonly number[]): void {
    this.add('roundStart', { round: g.round, days: g.days.length, dealt: [...dealt].sort((a, b) => a - b) });
  }
  dayStart(g: GameState): void {
    this.add('dayStart', { round: g.round, day: g.day, loot: [...g.days[g.day - 1]] });
  }
  /**
   * The cards revealed (by seat: each seat that chose has its one card on the island; seat -1 is
   * the Midshipman, nobody's choice) and the island they make, left to right.
   */
  sunrise(g: GameState): void {
    const revealed: { seat: number; rank: number }[] = [];
    for (let s = 0; s < g.players; s++) {
      for (const c of g.island) if (c.seat === s) revealed.push({ seat: s, rank: c.rank });
    }
    const island = g.island.map((c) => charId(c.seat, c.rank));
    this.add('sunrise', { round: g.round, day: g.day, revealed, island });
  }
  phase(phase: Phase): void {
    this.add('phase', { phase });
  }
  lootLeftover(day: number, kinds: readonly Loot[]): void {
    this.add('lootLeftover', { day, kinds: kinds.slice() });
  }
  dayEnd(round: number, day: number): void {
    this.add('dayEnd', { round, day });
  }
  gameEnd(g: GameState): void {
    this.add('gameEnd', { ranking: [...g.ranking], scores: g.seats.map((s) => s.score), seed: g.seed });
  }

  // ---- classic ----

  campaignScored(seat: number, me: SeatState, value: number): void {
    this.add('campaignScored', { seat, booty: { ...me.loot }, value, banked: me.doubloons, score: me.score });
  }

  // ---- Galecrest ----

  copied(seat: number, rank: number, copied: number): void {
    this.add('copied', { seat, rank, copied });
  }
  lootRemoved(seat: number, kind: Loot, reason: string): void {
    this.add('lootRemoved', { seat, kind, reason });
  }
  lootSwapped(seat: number, today: Loot, tomorrow: Loot, reason: string): void {
    this.add('lootSwapped', { seat, today, tomorrow, reason });
  }
  /**
   * A token moved from `from` to `to` on the track (as it is after the move), with the players'
   * tokens it passed, so the event says every token that moved: each slid one space back towards
   * `from` and now stands between `from` (included) and `to` (excluded), nearest `from` first.
   * Unused colours slide too but belong to nobody.
   */
  reputation(
    track: readonly (number | null)[],
    seat: number,
    from: number,
    to: number,
    overflow: number,
    reason: string,
  ): void {
    const passed: { seat: number; to: number }[] = [];
    const step = to > from ? 1 : -1;
    for (let i = from; i !== to; i += step) {
      const s = track[i];
      if (s !== null && s !== undefined) passed.push({ seat: s, to: i });
    }
    this.add('reputation', { seat, from, to, overflow, reason, passed });
  }
  anchorAbility(seat: number, rank: number, value: number): void {
    this.add('anchorAbility', { seat, rank, value });
  }
  anchorLoot(seat: number, kind: Loot, count: number, value: number): void {
    this.add('anchorLoot', { seat, kind, count, value });
  }
  kept(seat: number, rank: number): void {
    this.add('kept', { seat, rank });
  }
  /** The score banked on the dial (`dialMax` at most) and the wealth above it. */
  voyageBanked(seat: number, banked: number, score: number, dialMax: number): void {
    const dial = Math.min(dialMax, score);
    this.add('voyageBanked', { seat, banked, score, dial, beyondDial: Math.max(0, score - dialMax) });
  }
}

/** The one sink of every context nobody listens to. */
export const NO_EVENTS: EventSink = new NoEvents();

/** The sink for one command (or one set-up), chosen once: the list's, or nobody's for null. */
export function sinkInto(events: GameEvent[] | null): EventSink {
  return events === null ? NO_EVENTS : new EventList(events);
}
