// npm run bench -- --api --latency runs its levels in several fresh stacks and pools their windows.
import { describe, expect, it } from 'vitest';
import { type LoadWindow, latencyFigures, windowShares, windowsByProcess } from '../../scripts/bench-load.js';

/**
 * A turns window of one game in stack `process`: `{ __typename }` answers 1..20 ms, playCard
 * `k` times that (its p50 ratio is k: the 11th answer of each), answerPrompt kept no times.
 */
function window(process: number | undefined, k: number, apiCpuMs: number): LoadWindow {
  const ms = (f: number) => Array.from({ length: 20 }, (_, i) => f * (i + 1));
  const q = (f: number, keep = true) => ({
    samples: 20,
    p50: f * 11,
    p95: f * 20,
    p99: f * 20,
    ...(keep ? { ms: ms(f) } : {}),
    cpuAloneSamples: 5,
    cpuAloneMs: 1,
  });
  return {
    client: 'turns',
    concurrentGames: 1,
    ...(process === undefined ? {} : { process }),
    seconds: 2,
    requests: 60,
    moves: 10,
    gamesCompleted: 0,
    apiCpuMs,
    clientCpuMs: 40,
    byQuery: { '{ __typename }': q(1), game: q(2), playCard: q(k), answerPrompt: q(3, false) },
  };
}

describe('windows shared among fresh stacks', () => {
  it('splits the windows of a level as evenly as it goes, the first stacks taking the rest', () => {
    expect(windowShares(9, 3)).toEqual([3, 3, 3]);
    expect(windowShares(5, 2)).toEqual([3, 2]);
    expect(windowShares(9, 1)).toEqual([9]);
    expect(windowShares(9, 4)).toEqual([3, 2, 2, 2]);
  });

  it('gives every stack at least one window', () => {
    expect(windowShares(5, 7)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });
});

describe('pooling the windows of several stacks', () => {
  // Stack 2's API process ran slower: its playCard ratios 3.0-3.2 against stack 1's 2.0-2.2.
  const windows = [
    window(1, 2, 150),
    window(1, 2.1, 160),
    window(1, 2.2, 170),
    window(2, 3, 200),
    window(2, 3.1, 210),
    window(2, 3.2, 220),
    window(3, 2.5, 180),
    window(3, 2.6, 180),
    window(3, 2.4, 180),
  ];
  const { latency, cpu } = latencyFigures(windows);
  const playCard = latency.find((l) => l.query === 'playCard')!;

  it('groups the windows by stack in the order the stacks ran', () => {
    const groups = windowsByProcess([windows[3], windows[0], windows[6], windows[1]]);
    expect(groups.map(([p, ws]) => [p, ws.length])).toEqual([
      [1, 2],
      [2, 1],
      [3, 1],
    ]);
  });

  it('takes the headline figures over every stack’s windows', () => {
    expect(playCard.windows).toBe(9);
    // The median of the 9 windows' ratios, whichever stack they came from.
    expect(playCard.xP50.median).toBeCloseTo(2.5);
    // 180 answers each: p95 the 172nd smallest (floor(0.95 * 180) = 171, 0-based); typename's is 20 ms.
    expect(playCard.pooledXP95).toBeCloseTo(
      [...windows.flatMap((w) => w.byQuery.playCard.ms!)].sort((a, b) => a - b)[171] / 20,
    );
  });

  it('keeps each stack’s figures beside them', () => {
    expect(playCard.byProcess.map((p) => p.process)).toEqual([1, 2, 3]);
    expect(playCard.byProcess.map((p) => p.windows)).toEqual([3, 3, 3]);
    expect(playCard.byProcess[0].xP50).toBeCloseTo(2.1);
    expect(playCard.byProcess[1].xP50).toBeCloseTo(3.1);
    expect(playCard.byProcess[2].xP50).toBeCloseTo(2.5);
    // One stack's 60 answers: p95 the 58th smallest, the 3rd largest: playCard 64, 62, 60.8; typename 20.
    expect(playCard.byProcess[1].pooledXP95).toBeCloseTo(60.8 / 20);
    expect(cpu[0].cpuPerMoveMsByProcess).toEqual([16, 21, 18]);
    expect(cpu[0].cpuPerMoveMs.median).toBe(18);
  });

  it('reads a report of one process (windows without `process`) as one stack', () => {
    const one = latencyFigures([window(undefined, 2, 150), window(undefined, 3, 150)]);
    const l = one.latency.find((x) => x.query === 'playCard')!;
    expect(l.byProcess).toEqual([{ process: 1, windows: 2, xP50: 2.5, pooledXP95: l.pooledXP95 }]);
    // answerPrompt kept no times: no pooled p95, in the stack as over all.
    expect(one.latency.find((x) => x.query === 'answerPrompt')!.byProcess[0].pooledXP95).toBeNaN();
  });
});
