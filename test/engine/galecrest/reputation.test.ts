// The reputation track: set-up, sliding, both ends, the payout at each voyage, tie-breaks.
import { describe, expect, it } from 'vitest';
import { createGame, playBotGame, summary, view } from '../../../functions/engine/index.js';
import { editionOf } from '../../../functions/engine/editions/index.js';
import { REPUTATION_DOUBLOONS } from '../../../functions/engine/editions/galecrest/reputation.js';
import { coins, day, giveLoot, lastDay, ofType, rep, setup, same, track } from './helpers.js';

const amulets = [[same('amulet')]];

describe('Reputation track', () => {
  it('holds all six tokens; random placement from the seed, unused colours fill the gaps', () => {
    for (const players of [3, 4, 5, 6]) {
      const t = (createGame({ edition: 'galecrest', players, seed: `t${players}` }).ext as { track: unknown[] }).track;
      expect(t).toHaveLength(6);
      expect(t.filter((s) => s !== null).sort()).toEqual(Array.from({ length: players }, (_, i) => i));
    }
  });

  it('with 2 players puts them on the 3rd and 4th spaces', () => {
    const t = (createGame({ edition: 'galecrest', players: 2, seed: 'two' }).ext as { track: unknown[] }).track;
    expect([t[0], t[1], t[4], t[5]]).toEqual([null, null, null, null]);
    expect([t[2], t[3]].sort()).toEqual([0, 1]);
  });

  it('pays the doubloons printed under each space at the start of every voyage (12 .. 7)', () => {
    expect(REPUTATION_DOUBLOONS).toEqual([12, 11, 10, 9, 8, 7]);
    const g = createGame({ edition: 'galecrest', players: 6, seed: 'pay', reputation: [5, 4, 3, 2, 1, 0] });
    expect(coins(g)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(summary(g).seats.map((s) => s.reputation)).toEqual([5, 4, 3, 2, 1, 0]);
  });

  it('a scenario track is checked', () => {
    const bad = (reputation: (number | null)[]) => () =>
      createGame({ edition: 'galecrest', players: 3, seed: 'x', reputation });
    expect(bad([0, 1, 2])).toThrow(/6 track spaces/);
    expect(bad([0, 1, 1, null, null, null])).toThrow(/seat 1 is on the track twice/);
    expect(bad([0, 1, null, null, null, null])).toThrow(/every seat/);
    expect(bad([0, 1, 2, 3, null, null])).toThrow(/no seat 3/);
  });

  it('gaining slides the tokens passed one space down (Aristocrat +2)', () => {
    const { g } = setup({ deal: [[34, 32, 35, 4, 21, 22]], loot: amulets, reputation: [0, null, 1, null, 2, null] });
    const ev = day(g, [34, 32, 35]);
    expect(track(g)).toEqual([null, 1, 0, null, 2, null]);
    // The event names the tokens passed: seat 1 slid from space 2 back to space 1.
    expect(ofType(ev, 'reputation').map((e) => e.data)).toEqual([
      expect.objectContaining({ seat: 0, from: 0, to: 2, passed: [{ seat: 1, to: 1 }] }),
    ]);
  });

  it('every token that moved is in the events: replaying them from the set-up gives the track', () => {
    for (const seed of ['slide-a', 'slide-b', 'slide-c']) {
      const opts = { edition: 'galecrest' as const, players: 4, seed };
      const start = (createGame(opts).ext as { track: (number | null)[] }).track;
      const at = [0, 1, 2, 3].map((s) => start.indexOf(s));
      const { state: g } = playBotGame(opts, ['random'], 7, (_g, _c, events) => {
        for (const e of events.filter((x) => x.type === 'reputation')) {
          const d = e.data as { seat: number; from: number; to: number; passed: { seat: number; to: number }[] };
          expect(at[d.seat]).toBe(d.from);
          for (const p of d.passed) {
            expect(at[p.seat] + Math.sign(d.from - d.to)).toBe(p.to);
            at[p.seat] = p.to;
          }
          at[d.seat] = d.to;
        }
      });
      expect(at).toEqual([0, 1, 2, 3].map((s) => rep(g)[s]));
    }
  });

  it('at the top, each step that cannot be gained is +1 doubloon', () => {
    const { g } = setup({ deal: [[34, 32, 35, 4, 21, 22]], loot: amulets, reputation: [null, null, null, 1, 2, 0] });
    const ev = day(g, [34, 32, 35]);
    expect(track(g)).toEqual([null, null, null, 1, 2, 0]);
    expect(
      ofType(ev, 'doubloons')
        .filter((e) => e.data.reason === 'reputation overflow')
        .map((e) => e.data.delta),
    ).toEqual([2]);
    expect(coins(g)[0]).toBe(9);
  });

  it('at the bottom, each step that cannot be lost costs 1 doubloon (never below 0)', () => {
    const { g } = setup({ deal: [[23, 32, 35, 4, 21, 22]], loot: amulets });
    g.seats[0].doubloons = 1;
    giveLoot(g, 1, { chest: 1 });
    day(g, [23, 32, 35]);
    expect(coins(g)[0]).toBe(0);
    expect(rep(g)[0]).toBe(0);
  });

  it('the new position pays at the next voyage (the Captain climbs to 7 doubloons)', () => {
    const { g } = setup({
      deal: [[39, 32, 35, 4, 21, 22]],
      loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    });
    lastDay(g);
    day(g, [39, 32, 35]);
    expect(g.round).toBe(2);
    expect(coins(g)).toEqual([7, 12, 11]);
  });

  it('identical ranks: the higher reputation sits to the right (the Infantry of seat 1 is rightmost)', () => {
    const { g } = setup({ deal: [[29, 32, 35, 4, 21, 22]], loot: amulets, reputation: [null, 0, null, 1, 2, null] });
    const ev = day(g, [29, 29, 4]);
    expect(ofType(ev, 'sunrise')[0].data.island).toEqual(['2:4', '0:29', '1:29']);
    expect(coins(g)).toEqual([11, 9 + 5, 8]);
  });

  it('breaks the final tie: equal scores rank the higher reputation first', () => {
    const g = createGame({ edition: 'galecrest', players: 3, seed: 'tie', reputation: [2, null, 0, null, 1, null] });
    g.seats.forEach((s) => (s.score = 50));
    expect(editionOf('galecrest').ranking(g)).toEqual([1, 0, 2]);
  });
});

describe('Galecrest games', () => {
  it('three voyages of 4, 5 and 6 days, 6 characters dealt each, one token per player a day (3 with 2 players)', () => {
    for (const players of [2, 4]) {
      const starts: Record<string, unknown>[] = [];
      playBotGame({ edition: 'galecrest', players, seed: 'shape', board: 'calm' }, ['random'], 1, (_g, _c, ev) => {
        for (const e of ev) if (e.type === 'roundStart') starts.push(e.data);
      });
      const g = createGame({ edition: 'galecrest', players, seed: 'shape' });
      expect(g.days.map((d) => d.length)).toEqual(same(String(players === 2 ? 3 : players), 4).map(Number));
      expect(g.bag.length + g.days.flat().length).toBe(48);
      expect(g.seats[0].hand).toHaveLength(6);
      // Voyages 2 and 3 (the first starts inside createGame).
      expect(starts.map((s) => [s.days, (s.dealt as number[]).length])).toEqual([
        [5, 6],
        [6, 6],
      ]);
    }
  });

  it('random and greedy bots finish games for 2-6 players; the dial stops at 99', () => {
    for (let n = 2; n <= 6; n++) {
      for (const bot of ['random', 'greedy'] as const) {
        const { state } = playBotGame({ edition: 'galecrest', players: n, seed: `bots ${n}`, board: 'calm' }, [bot], n);
        expect(state.finished).toBe(true);
        expect(state.ranking).toHaveLength(n);
        const dial = view(state, null).board.dial as number[];
        state.seats.forEach((s, i) => expect(dial[i]).toBe(Math.min(99, s.score)));
      }
    }
  });

  it('wealth above the dial’s 99 still counts in the score', () => {
    const { g } = setup({
      deal: [[32, 35, 4, 21, 22, 24]],
      loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    });
    lastDay(g);
    g.seats[0].score = 95;
    day(g, [32, 35, 35]);
    expect(g.seats[0].score).toBe(95 + 12 + 3 + 1);
    expect((view(g, 1).board.dial as number[])[0]).toBe(99);
  });
});
