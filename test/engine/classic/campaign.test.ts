// Whole campaigns: end-of-campaign abilities and their order, booty scoring, leftover booty,
// campaign carry-over, and the final ranking with its tie-breaks.
import { describe, expect, it } from 'vitest';
import { applyInPlace, summary } from '../../../functions/engine/index.js';
import type { GameEvent, GameState } from '../../../functions/engine/index.js';
import { bootyValue } from '../../../functions/engine/editions/classic/booty.js';
import { assertPossible, coins, day, days, giveLoot, lootOf, ofType, pending, setup } from './helpers.js';

const two = (k: string) => [k, k];

/** The doubloon moves of the end of the campaign, as [seat, delta, reason]. */
function endMoves(events: GameEvent[]): [number, number, string][] {
  const from = events.findIndex((e) => e.type === 'phase' && e.data.phase === 'anchor');
  const to = events.findIndex((e, i) => i > from && e.type === 'roundStart');
  return events
    .slice(from, to < 0 ? undefined : to)
    .filter((e) => e.type === 'doubloons')
    .map((e) => [e.data.seat as number, e.data.delta as number, (e.data.reason ?? e.data.why) as string]);
}

describe('end of campaign', () => {
  it('resolves the end abilities highest rank first (so the Quartermaster pays before the Gambler earns), then sells the booty and banks', () => {
    const { g } = setup({
      players: 2,
      deal: [
        [6, 9, 16, 23, 24, 25, 26, 28, 29],
        [1, 2, 3, 4, 5, 7],
      ],
      loot: [[two('goods'), two('jewel'), two('relic'), two('chest'), two('goods'), two('map')]],
    });
    const ev = days(g, [
      [29, 16], // Captain +3
      [26, 25], // Quartermaster: +1 per token (1)
      [24, 28], // Gambler: -1 per token (2)
      [9, 23], // Carpenter: 12 -> 6
    ]);
    expect(coins(g)).toEqual([6, 10]);
    day(g, [6, 26], [], true); // Preacher: keep one token
    expect(pending(g)).toEqual({ seat: 0, kind: 'loot', options: ['chest', 'jewel', 'goods', 'relic'] });
    ev.push(...day(g, [], [[0, 'relic']]));
    expect(coins(g)).toEqual([6, 14]);
    ev.push(...day(g, [23, 29]));
    expect(endMoves(ev)).toEqual([
      [0, -3, 'Captain'], // 1 relic
      [1, -3, 'Captain'],
      [1, 6, 'First Mate'], // 6 characters in the den
      [0, -3, 'Quartermaster'], // owes 8, has only 3
      [1, -8, 'Quartermaster'],
      [1, 6, "Governor's Daughter"], // the only one in the dens
      [0, 8, 'Gambler'],
      [0, 1, 'Treasurer'], // 1 goods (the map and the relic do not count)
      [1, 4, 'Treasurer'], // 2 goods, 1 jewel, 1 chest
      [1, 5, 'Topman'], // 6 and 6 characters: a tie counts as fewest
      [0, 10, 'Carpenter'],
      [0, 5, 'Preacher'],
      [0, -2, 'booty'], // relic -3, goods 1, a single map 0
      [1, 7, 'booty'], // goods 2, jewel 3, chest 5, relic -3, map 0
    ]);
    const scored = ofType(ev, 'campaignScored').map((e) => [e.data.seat, e.data.value, e.data.banked, e.data.score]);
    expect(scored).toEqual([
      [0, -2, 22, 22],
      [1, 7, 34, 34],
    ]);
  });

  it('carries over: hand kept plus 6 new ranks, dens and graveyards cleared, 10 doubloons, score banked', () => {
    const { g } = setup({
      players: 2,
      deal: [
        [6, 9, 16, 23, 24, 25, 26, 28, 29],
        [1, 2, 3, 4, 5, 7],
      ],
      loot: [[two('goods'), two('jewel'), two('relic'), two('chest'), two('goods'), two('map')]],
    });
    days(g, [
      [29, 16],
      [26, 25],
      [24, 28],
      [9, 23],
    ]);
    day(g, [6, 26], [[0, 'relic']]);
    const ev = day(g, [23, 29]);
    const s = summary(g);
    expect([s.round, s.day, s.phase, s.finished]).toEqual([2, 1, 'choose', false]);
    expect(s.seats.map((x) => [x.doubloons, x.score, x.den, x.graveyard, lootOf(g, x.seat)])).toEqual([
      [10, 22, [], [], {}],
      [10, 34, [], [], {}],
    ]);
    expect(s.seats[0].hand).toEqual([1, 2, 3, 4, 5, 7, 16, 25, 28]);
    expect(s.seats[1].hand).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 24]);
    // The played characters are out of the game for good.
    expect([...g.seats[0].out].sort((a, b) => a - b)).toEqual([6, 9, 23, 24, 26, 29]);
    // Every token is back: bag + the new campaign's 6 days of 2 tokens = 50.
    expect(g.days.map((d) => d.length)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(g.bag.length).toBe(38);
    expect(ofType(ev, 'roundStart').map((e) => e.data.dealt)).toEqual([[1, 2, 3, 4, 5, 7]]);
  });

  it("Topman gets nothing when someone has fewer characters; two Governor's Daughters both pay 3", () => {
    const { g } = setup({
      players: 2,
      deal: [[2, 5, 12, 14, 16, 17, 20, 25, 28]],
      loot: [[two('goods'), two('goods'), two('jewel'), two('jewel'), two('goods'), two('goods')]],
    });
    const ev = days(g, [
      [16, 16],
      [2, 14], // seat 1's Brute is the highest: he discards himself
      [25, 25],
      [17, 17],
      [20, 20],
      [28, 28],
    ]);
    expect(endMoves(ev)).toEqual([
      [0, 6, 'First Mate'],
      [1, 5, 'First Mate'],
      [0, -3, "Governor's Daughter"],
      [1, -3, "Governor's Daughter"],
      [1, 5, 'Topman'], // seat 1: 5 characters, seat 0: 6
      [0, 10, 'booty'], // 4 goods, 2 jewels
      [1, 9, 'booty'], // 3 goods (the Brute took none), 2 jewels
    ]);
    expect(g.seats.map((s) => s.score)).toEqual([23, 26]);
  });
});

describe('booty', () => {
  it('is worth chest 5, jewel 3, goods 1, each full set of 3 maps 12, relic -3, saber and officer 0', () => {
    const none = { chest: 0, jewel: 0, goods: 0, map: 0, relic: 0, saber: 0, officer: 0 };
    expect(bootyValue({ ...none, chest: 1 })).toBe(5);
    expect(bootyValue({ ...none, jewel: 1 })).toBe(3);
    expect(bootyValue({ ...none, goods: 1 })).toBe(1);
    expect(bootyValue({ ...none, map: 2 })).toBe(0);
    expect(bootyValue({ ...none, map: 3 })).toBe(12);
    expect(bootyValue({ ...none, map: 5 })).toBe(12);
    expect(bootyValue({ ...none, map: 6 })).toBe(24);
    expect(bootyValue({ ...none, relic: 2 })).toBe(-6);
    expect(bootyValue({ ...none, saber: 3, officer: 3 })).toBe(0);
  });

  it('is scored at the end of a played campaign; relics cannot push doubloons below 0; leftovers stay on their day', () => {
    const { g } = setup({
      players: 2,
      deal: [[2, 4, 5, 16, 17, 18, 20, 23, 28]],
      loot: [
        [['chest', 'jewel'], two('map'), ['map', 'relic'], ['map', 'relic'], ['map', 'relic'], ['relic', 'saber']],
      ],
    });
    const ev: GameEvent[] = [];
    ev.push(...day(g, [18, 2], [[0, 'chest']])); // the Cook takes the chest and then the jewel
    ev.push(...day(g, [20, 5])); // the Cabin Boy takes nothing: one map stays on day 2
    expect(g.days[1]).toEqual(['map']);
    ev.push(...day(g, [17, 20], [[1, 'relic']]));
    expect(g.days[1]).toEqual(['map']); // still there, not offered on day 3
    ev.push(...day(g, [23, 17], [[0, 'map']]));
    ev.push(...day(g, [28, 18], [[0, 'map']]));
    expect([lootOf(g, 0), lootOf(g, 1)]).toEqual([{ chest: 1, jewel: 1, map: 4 }, { relic: 3 }]);
    // Day 6: seat 1's First Mate picks first and enters the den at once, so seat 0's saber,
    // taken later in the same dusk, can already hit him.
    day(g, [2, 28], [[1, 'relic']], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'character', options: ['1:2', '1:5', '1:17', '1:18', '1:20', '1:28'] });
    ev.push(...day(g, [], [[0, '1:28']]));
    expect(ofType(ev, 'campaignScored').map((e) => [e.data.seat, e.data.value, e.data.banked])).toEqual([
      [0, 20, 39], // 5 + 3 + 12 (4 maps: one set) + saber 0; 10 + Armorer 1 + First Mate 6 + Treasurer 2
      [1, -12, 0], // 4 relics against 10 doubloons
    ]);
    expect(g.seats.map((s) => s.score)).toEqual([39, 0]);
  });
});

/**
 * A symmetric 2-player game (both seats play the same rank every day, every day lays out two
 * tokens of one kind) stopped at the last decision of the game: the Waitresses' night prompt
 * on the last day. Both seats are then equal on every criterion.
 */
function lastNight(): GameState {
  const { g } = setup({
    players: 2,
    deal: [
      [2, 4, 7, 9, 10, 12, 13, 16, 17],
      [19, 20, 23, 24, 25, 26],
      [8, 11, 27, 28, 29, 30],
    ],
    loot: [
      [two('goods'), two('jewel'), two('chest'), two('goods'), two('jewel'), two('goods')],
      [two('goods'), two('jewel'), two('chest'), two('goods'), two('jewel'), two('goods')],
      [two('goods'), two('jewel'), two('chest'), two('goods'), two('jewel'), two('map')],
    ],
  });
  for (const r of [4, 2, 7, 9, 10, 12, 13, 16, 17, 19, 20, 23, 24, 25, 26, 27, 28]) day(g, [r, r]);
  day(g, [8, 8], [], true);
  expect([g.round, g.day, g.phase, pending(g)?.seat]).toEqual([3, 6, 'night', 0]);
  return g;
}

function finish(g: GameState): GameEvent[] {
  assertPossible(g);
  const ev: GameEvent[] = [];
  applyInPlace(g, { seat: 0, answer: 'no' }, ev);
  applyInPlace(g, { seat: 1, answer: 'no' }, ev);
  expect(summary(g).finished).toBe(true);
  return ev;
}

describe('end of the game', () => {
  it('comes after 3 campaigns; a tie on every criterion is shared and keeps seat order', () => {
    const g = lastNight();
    const ev = finish(g);
    const s = summary(g);
    expect([s.round, s.phase]).toEqual([3, 'finished']);
    expect(s.seats[0].score).toBe(s.seats[1].score);
    expect(s.seats[0].hand).toEqual([11, 29, 30]);
    expect(s.ranking).toEqual([0, 1]);
    expect(ofType(ev, 'gameEnd')[0].data).toMatchObject({
      ranking: [0, 1],
      scores: [s.seats[0].score, s.seats[0].score],
    });
    const before = JSON.stringify(g);
    expect(() => applyInPlace(g, { seat: 0, play: 11 })).toThrow(expect.objectContaining({ code: 'WRONG_PHASE' }));
    expect(JSON.stringify(g)).toBe(before);
  });

  it('ranks by score first', () => {
    const g = lastNight();
    g.seats[1].score += 1; // set-up: one more banked doubloon from an earlier campaign
    g.seats[0].hand.push(g.seats[0].out.pop()!); // ...which beats one more card kept in hand
    finish(g);
    expect(g.ranking).toEqual([1, 0]);
  });

  it('then by the most cards in hand', () => {
    const g = lastNight();
    g.seats[1].hand.push(g.seats[1].out.pop()!); // set-up: seat 1 kept one more character
    giveLoot(g, 0, { officer: 1 }); // ...which beats more loot tokens
    finish(g);
    expect(g.ranking).toEqual([1, 0]);
  });

  it('then by the most loot tokens', () => {
    const g = lastNight();
    giveLoot(g, 1, { officer: 1 }); // set-up: a worthless token more
    g.seats[0].doubloons++; // ...which beats more doubloons (score evened out below)
    g.seats[1].score++;
    finish(g);
    expect(g.seats[0].score).toBe(g.seats[1].score);
    expect(g.ranking).toEqual([1, 0]);
  });

  it('then by the most doubloons of the last campaign', () => {
    const g = lastNight();
    g.seats[1].doubloons++; // set-up: seat 1 ends with one doubloon more...
    g.seats[0].score++; // ...and seat 0 banked one more before: equal scores
    finish(g);
    expect(g.seats[0].score).toBe(g.seats[1].score);
    expect(g.ranking).toEqual([1, 0]);
  });
});

describe('a whole scripted game', () => {
  it('replays to the identical state when the state goes through JSON between every two commands', () => {
    const opts = {
      edition: 'classic' as const,
      players: 2,
      seed: 'json',
      deal: [
        [2, 4, 7, 9, 10, 12, 13, 16, 17],
        [19, 20, 23, 24, 25, 26],
        [8, 11, 27, 28, 29, 30],
      ],
    };
    const commands: { seat: number; play?: number; answer?: string }[] = [];
    for (const r of [4, 2, 7, 9, 10, 12, 13, 16, 17, 19, 20, 23, 24, 25, 26, 27, 28, 8])
      commands.push({ seat: 0, play: r }, { seat: 1, play: r });
    // Seeded loot: answer whatever is asked with its first option, recording the answers.
    const direct = setup({ ...opts }).g;
    const played: typeof commands = [];
    for (const c of commands) {
      applyInPlace(direct, c as never);
      played.push(c);
      while (direct.prompt) {
        const a = { seat: direct.prompt.seat, answer: direct.prompt.options[0].id };
        applyInPlace(direct, a);
        played.push(a);
      }
    }
    expect(direct.finished).toBe(true);
    let g = setup({ ...opts }).g;
    for (const c of played) {
      g = JSON.parse(JSON.stringify(g)) as GameState;
      applyInPlace(g, c as never);
    }
    expect(JSON.stringify(g)).toBe(JSON.stringify(direct));
    expect(g.ranking.length).toBe(2);
  });
});
