// Words for people, rendered by the server in one place (functions/api/view/words.ts): event text,
// prompt labels with the seat holders' names (never "seat N"), the loot legend, sunrise ties
// and the final ranking's tie-breaks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playBotGame } from '../../../functions/engine/index.js';
import { editionOf } from '../../../functions/engine/editions/index.js';
import type { GameRec } from '../../../functions/api/play/commit.js';
import { renderGame } from '../../../functions/api/view/render.js';
import {
  describeEvent,
  lootLegend,
  nameSeats,
  namesOf,
  optionLabel,
  sunriseWords,
  tieReasons,
} from '../../../functions/api/view/words.js';
import { testApp } from '../../setup/app.js';

const doc = {
  edition: 'classic' as const,
  seats: [{ name: 'Anne' }, { name: 'Mary' }, { name: 'Bot Kidd' }] as never[],
};

describe('words (unit)', () => {
  const names = namesOf(doc, 0);

  it('names seats: the caller is You, others by name, never a seat number', () => {
    expect(nameSeats('Brute (14) of seat 1', names)).toBe("Mary's Brute (14)");
    expect(nameSeats('Brute (14) of seat 0', names)).toBe('Your Brute (14)');
    expect(optionLabel('relic of seat 2', names)).toBe("Bot Kidd's relic");
    expect(optionLabel('officer', names)).toBe('Spanish officer');
    expect(describeEvent({ type: 'doubloons', data: { seat: 1, delta: 3, reason: 'Brute' } }, names)).toBe(
      'Mary gains 3 doubloons (Brute).',
    );
    expect(describeEvent({ type: 'lootGained', data: { seat: 0, kind: 'relic', n: 2 } }, names)).toBe(
      'You take 2 cursed relics.',
    );
    // The Cook takes two goods one by one: "a goods" is not English.
    expect(describeEvent({ type: 'lootGained', data: { seat: 1, kind: 'goods', n: 1 } }, names)).toBe(
      'Mary takes a goods token.',
    );
    expect(describeEvent({ type: 'lootGained', data: { seat: 1, kind: 'amulet', n: 1 } }, names)).toBe(
      'Mary takes an amulet.',
    );
    expect(describeEvent({ type: 'phase', data: { phase: 'anchor' } }, names)).toMatch(/^End of the campaign/);
    expect(
      describeEvent({ type: 'phase', data: { phase: 'night' } }, namesOf({ ...doc, edition: 'galecrest' }, 0)),
    ).toBe('Night: abilities in the ships.');
    expect(describeEvent({ type: 'prompt', data: { seat: 1, kind: 'may' } }, names)).toBe(
      'Mary has to decide whether to use an ability.',
    );
  });

  it('says which tokens a reputation move passed and where each slid (the Galecrest track)', () => {
    const g = namesOf({ ...doc, edition: 'galecrest' }, 0);
    const rep = (data: Record<string, unknown>) =>
      describeEvent({ type: 'reputation', data: { overflow: 0, reason: 'barrel', ...data } }, g);
    expect(rep({ seat: 0, from: 2, to: 3, passed: [{ seat: 1, to: 2 }] })).toBe(
      'Your reputation rises from space 3 to 4; you pass Mary, who slides back to space 3 (barrel).',
    );
    expect(
      rep({
        seat: 1,
        from: 3,
        to: 1,
        passed: [
          { seat: 0, to: 3 },
          { seat: 2, to: 2 },
        ],
      }),
    ).toBe(
      "Mary's reputation falls from space 4 to 2; they drop below You, who slide up to space 4 and Bot Kidd, who slides up to space 3 (barrel).",
    );
    // Nothing to move: the token stays, the overflow is said, never "from space 6 to 6".
    expect(rep({ seat: 1, from: 5, to: 5, overflow: 1, passed: [] })).toBe(
      "Mary's reputation stays on space 6, 1 over the top (barrel).",
    );
  });

  it('explains sunrise ties (classic: tie-break marks, the lower goes left)', () => {
    // Rank 1: red (seat 0) mark 2, yellow (seat 1) mark 1: yellow sits left.
    const text = sunriseWords(names, ['1:1', '0:1']);
    expect(text).toContain('Tie: Mary and You both played');
    expect(text).toContain('tie-break mark 1');
    expect(text).toContain('the lower mark goes left');
    expect(sunriseWords(namesOf({ ...doc, edition: 'galecrest' }, null), ['0:5', '1:5'])).toContain(
      'Mary has the higher reputation',
    );
  });

  it('says which tie-break decided equal final scores', () => {
    const f = (seat: number, score: number, handSize: number) => ({
      seat,
      score,
      handSize,
      finalLoot: 0,
      finalDoubloons: 0,
      reputation: null,
    });
    expect(tieReasons([f(1, 75, 3), f(0, 75, 2), f(2, 60, 0)], names)).toEqual([
      null,
      'Tied on 75 points with Mary; Mary ranks higher: more cards left in hand (3 cards to 2 cards).',
      null,
    ]);
  });

  it('renders the tie-break that decided a tie in a finished game (engine ranking, server words)', () => {
    const { state } = playBotGame({ edition: 'classic', players: 3, seed: 'tie' }, ['random'], 3);
    // Force a tie on points between the first two and let the engine rank again.
    const [a, b] = state.ranking;
    state.seats[b].score = state.seats[a].score;
    state.ranking = editionOf('classic').ranking(state);
    const doc = {
      edition: 'classic',
      board: null,
      creatorId: 'p0',
      seats: ['Anne', 'Mary', 'Jack'].map((name, i) => ({ playerId: `p${i}`, name, bot: null })),
      decisionTimeLimitHours: null,
      seed: 'tie',
      state,
      pending: {},
    };
    const rec = {
      id: 'g',
      version: 1,
      status: 'FINISHED',
      createdAt: '',
      updatedAt: '',
      doc,
      lastSeq: 1,
      outbox: [],
      requests: {},
    } as unknown as GameRec;
    const ranking = renderGame(rec, 'p0').ranking;
    expect(ranking[0].tieBreak).toBeNull();
    expect(ranking[1].score).toBe(ranking[0].score);
    expect(ranking[1].tieBreak).toMatch(
      /^Tied on \d+ points with (You|Anne|Mary|Jack); .* (rank|ranks) higher: (more cards left in hand|more booty tokens|more doubloons)|still equal on every tie-break/,
    );
    const g = renderGame(rec, 'p0');
    // The colour each seat is drawn in (Seat.colour) is the colour the tie words name.
    expect(g.seats.map((s) => s.colour)).toEqual(['RED', 'YELLOW', 'GREEN']);
    const tie = sunriseWords(namesOf(doc as never, 0), ['1:1', '0:1']);
    expect(tie).toContain(`Mary's ${g.seats[1].colour.toLowerCase()} card`);
    expect(tie).toContain(`your ${g.seats[0].colour.toLowerCase()} card`);
    expect(g.lootLegend().map((l) => l.kind)).toEqual(['chest', 'jewel', 'goods', 'map', 'relic', 'saber', 'officer']);
  });

  it('has a legend entry with worth or effect for every loot kind of each edition', () => {
    const classic = lootLegend('classic', {});
    expect(classic.map((l) => l.kind)).toEqual(['chest', 'jewel', 'goods', 'map', 'relic', 'saber', 'officer']);
    for (const l of classic) expect(l.worth !== '0' || l.effect !== '').toBe(true);
    const { state } = playBotGame({ edition: 'galecrest', players: 2, seed: 'legend' }, ['random'], 1);
    const galecrest = lootLegend(
      'galecrest',
      (editionOf('galecrest').publicInfo?.(state) ?? {}) as Record<string, unknown>,
    );
    expect(galecrest.map((l) => l.kind)).toEqual(['map', 'barrel', 'relic', 'saber', 'amulet', 'hook', 'chest']);
    for (const l of galecrest) {
      expect(l.side).toBe('calm');
      expect(l.worth !== '0' || l.effect !== '').toBe(true);
    }
    expect(galecrest.find((l) => l.kind === 'map')!.worth).toBe('2 together score 7, 3 together score 12');
  });
});

describe('words through the API', () => {
  let t: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('plays a classic game with bots: prompts name players, events carry text, the legend and tie-breaks are served', async () => {
    const anne = await t.signUp('Anne Bonny');
    const created = await t.gql(
      'mutation { createGame(input: { edition: CLASSIC, seats: 4, bots: 3, seed: "words" }) { id } }',
      {},
      anne.token,
    );
    const id = created.data.createGame.id;
    await t.gql('mutation ($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, anne.token);
    const labels: string[] = [];
    for (let i = 0; i < 400; i++) {
      const r = await t.gql(
        'query ($g: ID!) { game(id: $g) { status me { hand prompts { id text options { id label } } } } }',
        { g: id },
        anne.token,
      );
      const g = r.data.game;
      if (g.status === 'FINISHED') break;
      const p = g.me.prompts[0];
      if (p) {
        labels.push(p.text, ...p.options.map((o: { label: string }) => o.label));
        await t.gql(
          'mutation ($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }',
          { g: id, p: p.id, o: p.options[0].id },
          anne.token,
        );
      } else
        await t.gql(
          'mutation ($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }',
          { g: id, r: g.me.hand[0] },
          anne.token,
        );
    }
    expect(labels.length).toBeGreaterThan(0);
    for (const l of labels) expect(l).not.toMatch(/\bseat \d/i);
    const fin = await t.gql(
      'query ($g: ID!) { game(id: $g) { status lootLegend { kind name tokens worth effect } ranking { seat tieBreak } } }',
      { g: id },
      anne.token,
    );
    expect(fin.data.game.status).toBe('FINISHED');
    expect(fin.data.game.lootLegend).toHaveLength(7);
    const ev = await t.gql(
      'query ($g: ID!) { events(gameId: $g, limit: 100) { events { type text } } }',
      { g: id },
      anne.token,
    );
    for (const e of ev.data.events.events) {
      expect(e.text.length).toBeGreaterThan(3);
      expect(e.text).not.toMatch(/\bseat \d/i);
    }
    expect(ev.data.events.events.find((e: { type: string }) => e.type === 'sunrise').text).toMatch(/^Sunrise: /);
    const chars = await t.gql(
      '{ characters(edition: CLASSIC) { rank tieBreaks } g: characters(edition: GALECREST) { tieBreaks } }',
    );
    expect(chars.data.characters[0].tieBreaks).toEqual([2, 1, 4, 3, 5, 6]);
    expect(chars.data.g[0].tieBreaks).toBeNull();
  }, 120_000);
});
