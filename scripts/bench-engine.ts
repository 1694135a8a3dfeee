// Engine throughput, by a method that holds still on a loaded machine (docs/performance.md):
// every workload (a row: edition, players, bot; apply() and its JSON-copy baseline; the
// reference engine's rows with `--engine-ref`) runs in ONE process, interleaved batch by batch.
// 1. Warm-up: round-robin over all rows until each has had warmSeconds of CPU, so every row
//    is measured by code that has seen every workload (the order of rows cannot matter).
// 2. Pairs: each headline figure is the ratio of two rows (Galecrest 4 players / classic 4
//    players, apply() / its JSON copy, working tree / reference engine). A pair is measured in
//    repetitions; a repetition alternates short slices (a fixed number of items, about 30 ms of
//    CPU) of its two rows, a b, b a, a b..., so both see the same load, and gives one ratio.
//    scripts/bench.ts runs this in several fresh processes (the JIT decides differently in
//    each) and pools their repetitions (poolProcesses): at least 5 in all. The report
//    prints each ratio's min / median / max over the repetitions. On a loaded machine the
//    load moves within a second: only ratios of closely interleaved slices hold still. Each
//    repetition gives two ratios: of the summed times (the headline), and of the fastest slices
//    (the least disturbed by other processes; printed beside it).
// 3. Absolute figures (a row's rate in every repetition it took part in) come with the machine.
// Run through scripts/bench.ts, which generates the entry that hands this the engine(s).
import type * as EngineModule from '../functions/engine/index.js';

type Engine = typeof EngineModule;
type EditionId = 'classic' | 'galecrest';

export interface Row {
  name: string;
  engine: 'tree' | 'ref';
  /** games/s (or commands/s for apply rows) in each repetition of every pair it is in. */
  perRound: number[];
  unit: 'games/s' | 'commands/s';
  batch: number;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export interface Workload {
  name: string;
  engine: 'tree' | 'ref';
  unit: Row['unit'];
  /** Runs `n` items starting at item `first`; returns the games (or commands) done. */
  run(first: number, n: number): number;
  /** Items per slice: fixed (ITEMS), so every run on every machine measures the same games. */
  batch: number;
}

/**
 * Items per slice, about 30 ms of CPU on a 2.6 GHz Xeon core. Fixed rather than sized by a
 * measured rate: a size taken from the warm-up changed from run to run (5 or 6 games of JSON
 * copies, 143 or 153 Galecrest games), so two runs measured different games.
 */
const ITEMS = { 2: 300, 4: 160, 6: 110, greedy: 8, apply: 64, applyJson: 6 } as const;

const boardOf = (e: EditionId) => (e === 'galecrest' ? 'calm' : undefined);

function games(
  E: Engine,
  tag: 'tree' | 'ref',
  edition: EditionId,
  players: number,
  bot: 'random' | 'greedy',
): Workload {
  return {
    name: `${edition}:${players}:${bot}`,
    engine: tag,
    unit: 'games/s',
    batch: bot === 'greedy' ? ITEMS.greedy : ITEMS[players as 2 | 4 | 6],
    run(first, n) {
      for (let i = first; i < first + n; i++)
        E.playBotGame({ edition, players, seed: `bench${i}`, board: boardOf(edition) }, [bot], i + 1);
      return n;
    },
  };
}

/** The pure apply(): a state copy per command; `json`: the JSON round trip as the copy (the baseline). */
function pure(E: Engine, tag: 'tree' | 'ref', edition: EditionId, json: boolean): Workload {
  return {
    name: `${edition}:${json ? 'apply-json' : 'apply'}`,
    engine: tag,
    unit: 'commands/s',
    batch: json ? ITEMS.applyJson : ITEMS.apply,
    run(first, n) {
      let commands = 0;
      for (let i = first; i < first + n; i++) {
        const rnd = E.botRandom(i + 1);
        let g = E.createGame({ edition, players: 4, seed: `pure${i}`, board: boardOf(edition) });
        while (!g.finished) {
          const cmd = E.botCommand(g, E.awaitedSeats(g)[0], 'random', rnd);
          if (json) {
            const h = JSON.parse(JSON.stringify(g)) as typeof g;
            E.applyInPlace(h, cmd, []);
            g = h;
          } else g = E.apply(g, cmd).state;
          commands++;
        }
      }
      return commands;
    },
  };
}

/** Every row of the bench; the JSON-copy rows run on `baseline`, every other row of the tree on `tree`. */
export function workloads(tree: Engine, ref: Engine | undefined, baseline: Engine): Workload[] {
  const out: Workload[] = [];
  for (const e of ['classic', 'galecrest'] as EditionId[]) {
    for (const p of [2, 4, 6]) out.push(games(tree, 'tree', e, p, 'random'));
    out.push(games(tree, 'tree', e, 4, 'greedy'));
    out.push(pure(tree, 'tree', e, false), pure(baseline, 'tree', e, true));
    if (ref) out.push(games(ref, 'ref', e, 4, 'random'));
  }
  return out;
}

export interface Pair {
  /** Row names (`<engine>/<name>`): a is divided by b. */
  a: string;
  b: string;
  /** a's rate / b's rate in each repetition (CPU time summed over its slices). */
  ratios: number[];
  /** The median of `ratios` in each process, in the order the processes ran. */
  byProcess?: number[];
  /**
   * a's fastest slice / b's fastest slice in each repetition. Every slice of a row runs the same
   * items, and other processes can only add time to a slice (cache and core sharing), never
   * remove it: the fastest slice is the one least disturbed. Printed beside the summed ratio;
   * measured under heavy load it spread more than the summed one, which stays the headline.
   */
  fastest: number[];
}

export interface EngineReport {
  /** Fresh processes run (scripts/bench.ts); rows and pairs pool their repetitions. */
  processes?: number;
  /** Repetitions per process. */
  repetitions: number;
  warmSeconds: number;
  sliceSeconds: number;
  slicesPerRepetition: number;
  rows: Row[];
  pairs: Pair[];
  /** Filled by scripts/bench.ts: the figures the issue asks for, per repetition. */
  headline?: Record<string, number[] | undefined>;
}

const key = (w: Workload) => `${w.engine}/${w.name}`;

/**
 * The pairs measured: every games row against classic 4 players (the unit of the report),
 * apply() against its JSON-copy baseline, the reference engine's rows against the tree's.
 */
function pairsOf(ws: Workload[]): [Workload, Workload][] {
  const find = (k: string) => ws.find((w) => key(w) === k);
  const unit = find('tree/classic:4:random')!;
  const out: [Workload, Workload][] = [];
  for (const w of ws) {
    if (w === unit || w.engine === 'ref') continue;
    if (w.name.endsWith(':apply')) out.push([w, find(`tree/${w.name}-json`)!]);
    else if (w.unit === 'games/s') out.push([w, unit]);
  }
  for (const w of ws) if (w.engine === 'ref') out.push([find(`tree/${w.name}`)!, w]);
  return out;
}

/**
 * The whole method; `quick` shortens warm-up and repetitions, never their number below 5.
 * A repetition of a pair alternates short slices of its two rows (a b, b a, a b...), so both see
 * the same load from second to second; its ratio is a's rate over b's in that repetition.
 */
export function engineBench(
  tree: Engine,
  ref: Engine | undefined,
  quick: boolean,
  log: (s: string) => void,
  /** `--rows a,b`: only these rows (names as printed, e.g. galecrest:4:random) beside classic 4 players. */
  only?: string[],
  /** The engine the JSON-copy baseline runs on: a second instance of the tree's (see scripts/bench.ts). */
  baseline: Engine = tree,
): EngineReport {
  const warmSeconds = quick ? 1 : 2;
  const sliceSeconds = 0.03;
  const slicesPerRepetition = quick ? 12 : 16;
  // Per process: scripts/bench.ts runs several processes and pools their repetitions.
  const repetitions = quick ? 3 : 5;
  const ws = workloads(tree, ref, baseline).filter(
    (w) => !only || w.name === 'classic:4:random' || only.some((o) => w.name === o || w.name === `${o}-json`),
  );
  // Warm-up, round-robin: each row's time is counted until it reaches warmSeconds (its rate
  // only sizes its warm-up steps; a slice is a fixed number of items, ITEMS).
  const spent = ws.map(() => 0);
  const items = ws.map(() => 0);
  let next = 1e6;
  log(`engine: warming ${ws.length} rows, ${warmSeconds} s of CPU each, interleaved...`);
  while (spent.some((x) => x < warmSeconds)) {
    ws.forEach((w, i) => {
      if (spent[i] >= warmSeconds) return;
      const n = Math.max(1, Math.round((items[i] / Math.max(spent[i], 1e-3)) * 0.05));
      const t0 = cpu();
      w.run(next, n);
      next += n;
      spent[i] += cpu() - t0;
      items[i] += n;
    });
  }
  const rates = new Map<Workload, number[]>(ws.map((w) => [w, []]));
  const pairs: Pair[] = [];
  for (const [a, b] of pairsOf(ws)) {
    log(`engine: ${key(a)} against ${key(b)}...`);
    const ratios: number[] = [];
    const fastest: number[] = [];
    for (let r = 0; r < repetitions; r++) {
      const done = new Map([
        [a, 0],
        [b, 0],
      ]);
      const time = new Map([
        [a, 0],
        [b, 0],
      ]);
      const best = new Map([
        [a, 0],
        [b, 0],
      ]);
      for (let k = 0; k < slicesPerRepetition; k++) {
        for (const w of k % 2 ? [b, a] : [a, b]) {
          const t0 = cpu();
          // The same items in every slice: every slice measures the same games.
          const n = w.run(0, w.batch);
          const t = cpu() - t0;
          done.set(w, done.get(w)! + n);
          time.set(w, time.get(w)! + t);
          best.set(w, Math.max(best.get(w)!, n / Math.max(t, 1e-6)));
        }
      }
      const ra = done.get(a)! / time.get(a)!;
      const rb = done.get(b)! / time.get(b)!;
      rates.get(a)!.push(ra);
      rates.get(b)!.push(rb);
      ratios.push(ra / rb);
      fastest.push(best.get(a)! / best.get(b)!);
    }
    pairs.push({ a: key(a), b: key(b), ratios, fastest });
  }
  return {
    repetitions,
    warmSeconds,
    sliceSeconds,
    slicesPerRepetition,
    rows: ws.map((w) => ({ name: w.name, engine: w.engine, perRound: rates.get(w)!, unit: w.unit, batch: w.batch })),
    pairs,
  };
}

/**
 * Pools the reports of several fresh processes of the same bench: each row's rates and each
 * pair's ratios are concatenated, and each pair keeps the median of every process. The JIT
 * makes different choices in different processes (3 December 2026: one process's 7
 * repetitions of Galecrest 4 / classic 4 all lay below the next process's 7), so one
 * process's figures are not the code's; the median over several processes is.
 */
export function poolProcesses(reports: EngineReport[]): EngineReport {
  const [first] = reports;
  const rows = first.rows.map((r, i) => ({ ...r, perRound: reports.flatMap((x) => x.rows[i].perRound) }));
  const pairs = first.pairs.map((p, i) => ({
    ...p,
    ratios: reports.flatMap((x) => x.pairs[i].ratios),
    fastest: reports.flatMap((x) => x.pairs[i].fastest),
    byProcess: reports.map((x) => spread(x.pairs[i].ratios).median),
  }));
  return { ...first, processes: reports.length, rows, pairs };
}

/** min / median / max and (max - min) / median of a list. */
export function spread(xs: number[]): { min: number; median: number; max: number; relSpread: number } {
  const s = xs.slice().sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { min: s[0], median, max: s[s.length - 1], relSpread: (s[s.length - 1] - s[0]) / median };
}

/**
 * The repetitions' ratios of a measured pair (a / b; b / a if only the reverse was measured):
 * `ratios` (the default, the headline) those of the summed times, `fastest` those of the
 * fastest slices (at a load average of 23 on 2 cores they spread more: docs/performance.md).
 */
export function pairRatios(
  report: EngineReport,
  a: string,
  b: string,
  kind: 'fastest' | 'ratios' = 'ratios',
): number[] | undefined {
  const p = report.pairs.find((x) => x.a === a && x.b === b);
  if (p) return p[kind];
  const q = report.pairs.find((x) => x.a === b && x.b === a);
  return q?.[kind].map((v) => 1 / v);
}
