// npm run bench:engine pools several fresh processes: a figure is the median over all of them.
import { describe, expect, it } from 'vitest';
import * as Engine from '../../functions/engine/index.js';
import { type EngineReport, pairRatios, poolProcesses, spread, workloads } from '../../scripts/bench-engine.js';

/** One process's report: a Galecrest 4 / classic 4 pair with the given repetitions. */
function processReport(ratios: number[], classicRates: number[]): EngineReport {
  return {
    repetitions: ratios.length,
    warmSeconds: 2,
    sliceSeconds: 0.03,
    slicesPerRepetition: 16,
    rows: [
      { name: 'classic:4:random', engine: 'tree', perRound: classicRates, unit: 'games/s', batch: 160 },
      {
        name: 'galecrest:4:random',
        engine: 'tree',
        perRound: classicRates.map((r, i) => r * ratios[i]),
        unit: 'games/s',
        batch: 160,
      },
    ],
    pairs: [{ a: 'tree/galecrest:4:random', b: 'tree/classic:4:random', ratios, fastest: ratios.map((x) => x + 0.01) }],
  };
}

describe('pooling the engine bench of several processes', () => {
  const slow = processReport([0.79, 0.8, 0.84], [6000, 6100, 5900]);
  const fast = processReport([0.86, 0.9, 0.94], [8000, 8100, 7900]);
  const third = processReport([0.85, 0.87, 0.88], [7000, 7000, 7000]);
  const pooled = poolProcesses([slow, fast, third]);

  it('a process whose JIT ran slower moves the median less than it moves its own', () => {
    expect(pooled.processes).toBe(3);
    expect(pairRatios(pooled, 'tree/galecrest:4:random', 'tree/classic:4:random')).toHaveLength(9);
    expect(spread(pooled.pairs[0].ratios).median).toBe(0.86);
    expect(spread(slow.pairs[0].ratios).median).toBe(0.8);
  });

  it('keeps the median of each process beside the pooled figure', () => {
    expect(pooled.pairs[0].byProcess).toEqual([0.8, 0.9, 0.87]);
    expect(pooled.pairs[0].fastest).toHaveLength(9);
  });

  it('pools each row’s rates in the order the processes ran', () => {
    expect(pooled.rows[0].perRound).toEqual([6000, 6100, 5900, 8000, 8100, 7900, 7000, 7000, 7000]);
    expect(pooled.rows[1].perRound[3]).toBeCloseTo(8000 * 0.86);
  });

  it('the reverse pair reads as the inverse', () => {
    expect(pairRatios(pooled, 'tree/classic:4:random', 'tree/galecrest:4:random')?.[0]).toBeCloseTo(1 / 0.79);
  });
});

describe('the JSON-copy baseline runs on an engine of its own', () => {
  /** The engine with every call counted, so a test can tell which copy a row ran on. */
  function counted(): { engine: typeof Engine; calls: () => number } {
    let calls = 0;
    const engine = new Proxy(Engine, {
      get(target, key) {
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? (...args: unknown[]) => (calls++, v(...args)) : v;
      },
    });
    return { engine, calls: () => calls };
  }

  it('the apply() rows copy states on the tree, the JSON rows on the baseline', () => {
    const tree = counted();
    const baseline = counted();
    const rows = workloads(tree.engine, undefined, baseline.engine);
    const json = rows.find((w) => w.name === 'classic:apply-json')!;
    expect(json.run(0, 1)).toBeGreaterThan(50);
    expect(tree.calls()).toBe(0);
    expect(baseline.calls()).toBeGreaterThan(50);
    const before = baseline.calls();
    const apply = rows.find((w) => w.name === 'classic:apply')!;
    expect(apply.run(0, 1)).toBeGreaterThan(50);
    expect(tree.calls()).toBeGreaterThan(50);
    expect(baseline.calls()).toBe(before);
  });
});
