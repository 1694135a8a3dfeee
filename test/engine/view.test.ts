// What each seat sees (view.ts), field by field: the one place hidden information is filtered.
import { describe, expect, it } from 'vitest';
import {
  apply,
  applyInPlace,
  awaitedSeats,
  botCommand,
  botRandom,
  createGame,
  playBotGame,
  summary,
  view,
  viewEvent,
  type GameState,
} from '../../functions/engine/index.js';
import { objectsOf, playProbed, SETUPS } from './states.js';

const LOOT0 = [
  ['chest', 'jewel', 'goods'],
  ['goods', 'goods', 'map'],
];
const NO_LOOT = { chest: 0, jewel: 0, goods: 0, map: 0, relic: 0, saber: 0, officer: 0 };

function classic(): GameState {
  return createGame({
    edition: 'classic',
    players: 3,
    seed: 'view example',
    deal: [[29, 2, 5, 16, 17, 20, 23, 27, 28]],
    loot: [LOOT0],
  });
}

describe('view of a classic game', () => {
  it('while cards are chosen: who has chosen (not what), the own hand in rank order, the day displays, nobody ranked yet', () => {
    const g = classic();
    applyInPlace(g, { seat: 0, play: 29 });
    const v = view(g, 1);
    expect(v).toMatchObject({
      edition: 'classic',
      players: 3,
      round: 1,
      day: 1,
      phase: 'choose',
      finished: false,
      island: [],
      ranking: [],
    });
    expect(v.awaiting).toEqual([1, 2]);
    expect(v.pending).toBeNull();
    expect(v.seats.map((s) => s.hasChosen)).toEqual([true, false, false]);
    expect(v.seats.map((s) => s.handSize)).toEqual([9, 9, 9]);
    expect(v.me).toEqual({ seat: 1, hand: [2, 5, 16, 17, 20, 23, 27, 28, 29], choice: null, prompt: null });
    expect(view(g, 0).me).toMatchObject({ seat: 0, choice: 29 });
    expect(v.days).toEqual(g.days);
    expect(v.days.slice(0, 2)).toEqual(LOOT0);
    expect(v.bagSize).toBe(50 - 18);
    expect([v.board, v.boardSide]).toEqual([{}, null]);
    // Own den, graveyard and (face-down) loot; the others' graveyards and loot are hidden.
    expect(v.seats[1]).toEqual({
      seat: 1,
      doubloons: 10,
      score: 0,
      handSize: 9,
      hasChosen: false,
      den: [],
      graveyard: [],
      graveyardSize: 0,
      loot: NO_LOOT,
      lootCount: 0,
      reputation: null,
    });
    for (const other of [0, 2]) expect(v.seats[other]).toMatchObject({ graveyard: null, loot: null, lootCount: 0 });
  });

  it('at a decision: the island left to right, the pending seat and kind for all, the options only for the seat that decides', () => {
    const g = classic();
    for (const [seat, play] of [
      [0, 29],
      [1, 28],
      [2, 2],
    ])
      applyInPlace(g, { seat, play });
    const p = g.prompt!;
    const v1 = view(g, 1);
    expect(v1.phase).toBe('dusk');
    expect(v1.island).toEqual([
      { seat: 2, rank: 2 },
      { seat: 1, rank: 28 },
      { seat: 0, rank: 29 },
    ]);
    expect(v1.awaiting).toEqual([0]);
    expect(v1.pending).toEqual({ seat: 0, kind: 'loot', promptId: p.id });
    expect(v1.me!.prompt).toBeNull();
    expect(view(g, 0).me!.prompt).toEqual({
      id: p.id,
      seat: 0,
      kind: 'loot',
      text: 'Take a booty token',
      options: [
        { id: 'chest', label: 'chest' },
        { id: 'jewel', label: 'jewel' },
        { id: 'goods', label: 'goods' },
      ],
    });
    expect(v1.seats.map((s) => s.handSize)).toEqual([8, 8, 8]);
    expect(v1.seats.map((s) => s.doubloons)).toEqual([13, 10, 10]); // the Captain's +3
  });

  it('a spectator, a negative seat and a seat past the last one see no hand and nothing hidden', () => {
    const g = classic();
    applyInPlace(g, { seat: 0, play: 29 });
    for (const viewer of [null, -1, 3]) {
      const v = view(g, viewer);
      expect(v.me).toBeNull();
      for (const s of v.seats) expect(s).toMatchObject({ graveyard: null, loot: null });
    }
    expect(view(g, 2).me?.seat).toBe(2);
  });

  it('lists dens in rank order and counts face-down loot for everyone', () => {
    const g = classic();
    for (const [seat, play] of [
      [0, 29],
      [1, 28],
      [2, 2],
    ])
      applyInPlace(g, { seat, play });
    applyInPlace(g, { seat: 0, answer: 'chest' });
    applyInPlace(g, { seat: 1, answer: 'jewel' });
    for (const [seat, play] of [
      [0, 5],
      [1, 27],
      [2, 16],
    ])
      applyInPlace(g, { seat, play });
    while (g.prompt) applyInPlace(g, { seat: g.prompt.seat, answer: g.prompt.options[0].id });
    expect(g.seats[0].den).toEqual([29, 5]);
    const v = view(g, 1);
    expect(v.seats[0]).toMatchObject({ den: [5, 29], lootCount: 1, loot: null });
    expect(view(g, 0).seats[0].loot).toEqual({ ...NO_LOOT, chest: 1 });
  });

  it('is a copy: changing it changes nothing in the game', () => {
    const g = classic();
    for (const [seat, play] of [
      [0, 29],
      [1, 28],
      [2, 2],
    ])
      applyInPlace(g, { seat, play });
    const before = JSON.stringify(g);
    const v = view(g, 0);
    v.days[0].push('relic');
    v.island[0].rank = 99;
    v.me!.hand.push(99);
    v.me!.prompt!.options[0].label = 'changed';
    v.seats[0].loot!.chest = 9;
    v.ranking.push(1);
    expect(JSON.stringify(g)).toBe(before);
  });

  it('once finished: the ranking, and every seat’s loot face up', () => {
    const { state } = playBotGame({ edition: 'classic', players: 3, seed: 'view end' }, ['random'], 7);
    const v = view(state, 1);
    expect(v.finished).toBe(true);
    expect(v.phase).toBe('finished');
    expect(v.ranking).toEqual(state.ranking);
    expect([...v.ranking].sort()).toEqual([0, 1, 2]);
    for (const s of v.seats) expect(s.loot).not.toBeNull();
    expect(v.awaiting).toEqual([]);
  });

  it('once finished, every seat’s graveyard face up (Galecrest keeps them hidden until then)', () => {
    const { state } = playBotGame({ edition: 'galecrest', players: 3, seed: 'view grave' }, ['random'], 7);
    const v = view(state, 1);
    expect(v.seats.map((s) => s.graveyard)).toEqual(state.seats.map((s) => [...s.graveyard].sort((a, b) => a - b)));
    expect(view(state, null).seats.every((s) => s.graveyard !== null)).toBe(true);
  });
});

describe('view of a Galecrest game', () => {
  it('shows every seat’s loot and reputation, the board and its side; graveyards stay face down to the others', () => {
    const g = createGame({
      edition: 'galecrest',
      players: 3,
      seed: 'view gc',
      board: 'calm',
      reputation: [0, 1, 2, null, null, null],
      deal: [[3, 17, 32, 35, 4, 21]],
    });
    const v = view(g, 0);
    expect(v.seats.map((s) => s.reputation)).toEqual([0, 1, 2]);
    expect(v.seats.map((s) => s.doubloons)).toEqual([12, 11, 10]);
    expect(v.boardSide).toBe('calm');
    expect(v.board).toMatchObject({ reputation: [0, 1, 2, null, null, null], board: 'calm', dial: [0, 0, 0] });
    for (const s of v.seats)
      expect(s.loot).toEqual({ map: 0, barrel: 0, relic: 0, saber: 0, amulet: 0, hook: 0, chest: 0 });
    expect(v.seats.map((s) => s.graveyard)).toEqual([[], null, null]);
  });
});

describe('summary (the full-information scenario result)', () => {
  it('has every seat’s hand, den, graveyard and loot in rank order, and the ranking', () => {
    const g = classic();
    for (const [seat, play] of [
      [0, 29],
      [1, 28],
      [2, 2],
    ])
      applyInPlace(g, { seat, play });
    const s = summary(g);
    expect(s).toMatchObject({ round: 1, day: 1, phase: 'dusk', finished: false, ranking: [] });
    expect(s.seats[1]).toEqual({
      seat: 1,
      doubloons: 10,
      score: 0,
      hand: [2, 5, 16, 17, 20, 23, 27, 29],
      den: [],
      graveyard: [],
      loot: NO_LOOT,
      reputation: null,
    });
  });
});

describe('viewEvent', () => {
  it('merges the secret part for its own seat only', () => {
    const e = { type: 'cardChosen', data: { seat: 1, changed: false }, secret: { seat: 1, data: { rank: 7 } } };
    expect(viewEvent(e, 1)).toEqual({ type: 'cardChosen', data: { seat: 1, changed: false, rank: 7 } });
    for (const viewer of [0, 2, null])
      expect(viewEvent(e, viewer)).toEqual({ type: 'cardChosen', data: { seat: 1, changed: false } });
    expect(viewEvent({ type: 'phase', data: { phase: 'dusk' } }, 0)).toEqual({
      type: 'phase',
      data: { phase: 'dusk' },
    });
  });
});

describe('views, summaries and events are copies', () => {
  // What view.ts and the event log hand out must hold nothing of the state itself: a caller
  // that edits an answer (or keeps it while the game goes on) would change the game. Every
  // object and array reachable from them, checked against the state's, at every decision of
  // random games of both editions (states.ts fills every field the state can hold).
  it.each(SETUPS)('$name', (setup) => {
    playProbed(setup, `copies ${setup.name}`, (g, at) => {
      if (at !== 'command') return;
      const own = objectsOf(g);
      const shared = (answer: unknown) =>
        [...objectsOf(answer)].filter((o) => own.has(o)).map((o) => JSON.stringify(o));
      for (const viewer of [null, ...g.seats.keys()]) expect(shared(view(g, viewer)), `view(${viewer})`).toEqual([]);
      expect(shared(summary(g)), 'summary').toEqual([]);
      if (g.finished) return;
      const seat = awaitedSeats(g)[0];
      const { state, events } = apply(g, botCommand(g, seat, 'random', botRandom(g.commands)));
      const next = objectsOf(state);
      expect([...objectsOf(events)].filter((o) => next.has(o) || own.has(o)).map((o) => JSON.stringify(o))).toEqual([]);
    });
  });
});
