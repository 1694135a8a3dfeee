// npm run bench:compare: two `npm run bench` reports side by side, each headline ratio held to 5%.
import { describe, expect, it } from 'vitest';
import { compare, headlines } from '../../scripts/bench-compare.js';
import type { LoadWindow } from '../../scripts/bench-load.js';

/** A window of the turns client where `{ __typename }` answers in 5 ms (p50) and 10 ms (p95). */
function window(games: number, moveP50: number, apiCpuMs = 200): LoadWindow {
  const q = (p50: number, p95: number) => ({ samples: 40, p50, p95, p99: p95, cpuAloneSamples: 10, cpuAloneMs: 1 });
  return {
    client: 'turns',
    concurrentGames: games,
    seconds: 2,
    requests: 120,
    moves: 10,
    gamesCompleted: 0,
    apiCpuMs,
    clientCpuMs: 50,
    byQuery: {
      '{ __typename }': q(5, 10),
      game: q(8, 16),
      playCard: q(moveP50, 2 * moveP50),
      answerPrompt: q(moveP50 + 1, 30),
    },
  };
}

function report(galecrest: number, moveP50: number, apiSize: number) {
  return {
    at: '2026-12-02T21:00:00Z',
    engine: {
      ratios: [
        { ratio: 'galecrest:4:random / classic:4:random (fastest slices)', median: galecrest + 0.2 },
        { ratio: 'galecrest:4:random / classic:4:random (summed)', median: galecrest },
      ],
    },
    api: { windows: [window(1, moveP50), window(1, moveP50 + 2, 300), window(1, moveP50 - 1, 250)] },
    lambda: {
      handlers: [
        { handler: 'api', sizeRatio: apiSize, initCpuRatio: 1.5 },
        { handler: 'bare', sizeRatio: 1, initCpuRatio: 1 },
      ],
    },
  };
}

describe('bench:compare', () => {
  it('takes the summed engine ratios, the moves against { __typename } and the bundles against the bare one', () => {
    const h = headlines(report(0.75, 12, 1.7));
    const of = (figure: string) => h.find((x) => x.figure === figure);
    expect(of('engine galecrest:4:random / classic:4:random (summed)')?.value).toBe(0.75);
    expect(h.some((x) => x.figure.includes('fastest slices'))).toBe(false);
    // Windows' playCard p50 12, 14 and 11 against 5: the median window ratio is 12 / 5.
    expect(of('API turns 1 game playCard x p50')?.value).toBeCloseTo(2.4);
    expect(of('API turns 1 game playCard x p95')?.value).toBeCloseTo(2.4);
    expect(of('API turns 1 CPU ms per move')).toEqual({
      figure: 'API turns 1 CPU ms per move',
      value: 25,
      absolute: true,
    });
    expect(of('bundle api size / bare')?.value).toBe(1.7);
    expect(of('bundle bare size / bare')).toBeUndefined();
  });

  it('holds each ratio of a second run within 5% of the first, and says which are not', () => {
    const rows = compare(headlines(report(0.75, 12, 1.7)), headlines(report(0.77, 13, 1.7)));
    const row = (figure: string) => rows.find((r) => r.figure === figure);
    expect(row('engine galecrest:4:random / classic:4:random (summed)')).toMatchObject({ within: true });
    expect(row('engine galecrest:4:random / classic:4:random (summed)')?.change).toBeCloseTo(0.02 / 0.75);
    // playCard 12 -> 13 ms against the same 5 ms: +8.3%.
    expect(row('API turns 1 game playCard x p50')).toMatchObject({ within: false });
    expect(row('API turns 1 game playCard x p50')?.change).toBeCloseTo(1 / 12);
    expect(row('bundle api size / bare')).toMatchObject({ change: 0, within: true });
  });

  it('takes the p95 over all the windows’ answers where the report kept them', () => {
    const r = report(0.75, 12, 1.7);
    // Three windows of 20 answers each: typename 1..20 ms, playCard twice that. A window's p95 is
    // its 20th (floor(0.95 * 20) = 19, 0-based); over 60 answers it is the 58th smallest.
    const ms = (k: number) => Array.from({ length: 20 }, (_, i) => k * (i + 1));
    for (const w of r.api.windows) {
      w.byQuery['{ __typename }'].ms = ms(1);
      w.byQuery.playCard.ms = ms(2);
    }
    const of = (figure: string) => headlines(r).find((x) => x.figure === figure);
    expect(of('API turns 1 game playCard x p95')?.value).toBeCloseTo(2);
    // answerPrompt kept no times: the median of the windows' ratios (30 / 10).
    expect(of('API turns 1 game answerPrompt x p95')?.value).toBeCloseTo(3);
  });

  it('pools the windows of every fresh stack of a report, whichever stack they came from', () => {
    const r = report(0.75, 12, 1.7);
    // Stack 2 ran slower (playCard 20 ms); the median window is still 12 / 5, over both stacks.
    r.api.windows = [
      { ...window(1, 12), process: 1 },
      { ...window(1, 11), process: 1 },
      { ...window(1, 20), process: 2 },
    ];
    const h = headlines(r);
    expect(h.find((x) => x.figure === 'API turns 1 game playCard x p50')?.value).toBeCloseTo(2.4);
    expect(h.filter((x) => x.figure.startsWith('API turns 1 game playCard'))).toHaveLength(2);
  });

  it('skips a part one report lacks', () => {
    const { api: _api, ...noApi } = report(0.75, 12, 1.7);
    const rows = compare(headlines(report(0.75, 12, 1.7)), headlines(noApi));
    expect(rows.map((r) => r.figure).filter((f) => f.startsWith('API'))).toEqual([]);
    expect(rows.length).toBe(3);
  });
});
