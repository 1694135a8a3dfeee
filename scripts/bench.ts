// npm run bench: one report of the figures the project measures, printed as tables and written
// to results/bench.json: engine games/s, the API under 1/10/100 concurrent games, the DynamoDB
// cost of a game, the AWS cost of a complete 4-player game (scripts/bench-cost.ts), the Lambda
// bundles. Each part runs in its own fresh Node process; the engine is bundled with esbuild
// first (as it ships to Lambda). `--quick`: a short run; `--engine`: the engine part alone
// (`--engine-ref <git ref>`: that commit's engine measured beside the working tree's, in the
// same process, interleaved; scripts/bench-engine.ts);
// `--cost`: the AWS cost part alone; `--api`: the API part alone (`--latency`: its latency
// windows only, `--profile`: the first stack's API process under `node --cpu-prof`);
// `--processes <n>`: fresh processes pooled by the engine part and fresh stacks (store and API
// processes) pooled by the API's latency part (default 3, `--quick` 2); `--out <file>`: the report there
// instead of results/bench.json (two runs compared by `npm run bench:compare`, scripts/bench-compare.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { latencyFigures, type LoadReport } from './bench-load.js';
import { type CostReport, costTable } from './bench-cost.js';
import { type EngineReport, pairRatios, poolProcesses, spread } from './bench-engine.js';

const quick = process.argv.includes('--quick');
const refAt = process.argv.indexOf('--engine-ref');
/** `--engine-ref <git ref>`: the engine part measures the engine of that commit (same method). */
const engineRef = refAt > 0 ? process.argv[refAt + 1] : undefined;
const processesAt = process.argv.indexOf('--processes');
/** `--processes <n>`: fresh engine processes, and fresh API stacks of the latency part, pooled (default 3, `--quick` 2). */
const processes = processesAt > 0 ? Number(process.argv[processesAt + 1]) : quick ? 2 : 3;
if (!Number.isInteger(processes) || processes < 1) throw new Error('--processes takes a whole number of 1 or more');
const rowsAt = process.argv.indexOf('--rows');
/** `--rows galecrest:4:random,classic:apply`: the engine part measures only these rows beside classic 4 players. */
const onlyRows = rowsAt > 0 ? process.argv[rowsAt + 1].split(',') : undefined;

/**
 * Bundles the engine bench with esbuild (as the engine ships to Lambda) into one program that
 * holds the working tree's engine, a second copy of it for the JSON-copy baseline and, with
 * `--engine-ref <ref>`, that commit's engine beside it (git archive of functions/engine), so all
 * are measured in the same process.
 */
async function engineBundle(ref?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'libertalia-bench-'));
  const out = join(dir, 'bench.mjs');
  const lines = [
    `import * as tree from ${JSON.stringify(resolve('functions/engine/index.ts'))};`,
    `import { engineBench } from ${JSON.stringify(resolve('scripts/bench-engine.ts'))};`,
  ];
  if (ref) {
    const tar = execFileSync('git', ['archive', '--format=tar', ref, 'functions/engine'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    lines.push(`import * as ref from ${JSON.stringify(join(dir, 'functions/engine/index.ts'))};`);
  }
  // The JSON-copy baseline runs on a second copy of the working tree's engine, as the
  // --engine-ref engine runs on its own: JSON.parse makes objects of other hidden classes than
  // the engine's own copies, and fed through the same code they made its property reads
  // polymorphic for every row of the process (docs/performance.md, Engine).
  cpSync(resolve('functions/engine'), join(dir, 'baseline/functions/engine'), { recursive: true });
  lines.push(`import * as baseline from ${JSON.stringify(join(dir, 'baseline/functions/engine/index.ts'))};`);
  lines.push(
    `const r = engineBench(tree, ${ref ? 'ref' : 'undefined'}, ${quick}, (s) => process.stderr.write(s + '\\n'), ${JSON.stringify(onlyRows)}, baseline);`,
    'process.stdout.write(JSON.stringify(r) + "\\n");',
  );
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, lines.join('\n'));
  // nodePaths: the archived engine resolves its dependencies (pure-rand) from this checkout.
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
    nodePaths: [resolve('node_modules')],
  });
  return out;
}

function table(rows: Record<string, unknown>[], columns: string[]): string {
  const fmt = (v: unknown) =>
    v === undefined
      ? '-'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? String(v)
          : v.toFixed(v < 10 ? 3 : 0)
        : String(v);
  const cells = rows.map((r) => columns.map((c) => fmt(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (xs: string[]) => xs.map((x, i) => x.padStart(widths[i])).join('  ');
  return [line(columns), ...cells.map(line)].join('\n');
}

/** The machine a figure was measured on (absolute figures mean nothing without it). */
function machine() {
  const c = cpus();
  return {
    cpu: c[0]?.model ?? 'unknown',
    cores: c.length,
    node: process.version,
    loadAverage: loadavg().map((x) => Number(x.toFixed(1))),
  };
}

async function engine() {
  const file = await engineBundle(engineRef);
  const before = machine();
  // Fresh processes, one after the other: a figure is the code's only if it holds across them.
  const runs: EngineReport[] = [];
  for (let i = 0; i < processes; i++) {
    process.stderr.write(`engine: process ${i + 1}\n`);
    runs.push(
      JSON.parse(
        execFileSync(process.execPath, [file], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          maxBuffer: 64 * 1024 * 1024,
        }),
      ) as EngineReport,
    );
  }
  const report = poolProcesses(runs);
  const after = machine();
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const headline: Record<string, unknown>[] = [];
  const add = (what: string, xs: number[] | undefined, byProcess?: number[]) => {
    if (!xs) return;
    const s = spread(xs);
    const processes = byProcess?.map((x) => x.toFixed(x < 10 ? 3 : 1)).join(' ') ?? '';
    headline.push({ ratio: what, median: s.median, min: s.min, max: s.max, spread: pct(s.relSpread), processes });
  };
  for (const p of report.pairs) {
    const what = `${p.a.replace('tree/', '')} / ${p.b.replace('tree/', '').replace('ref/', `${engineRef}:`)}`;
    add(`${what} (fastest slices)`, p.fastest);
    add(`${what} (summed)`, p.ratios, p.byProcess);
  }
  report.headline = {
    galecrest4pVsClassic4p: pairRatios(report, 'tree/galecrest:4:random', 'tree/classic:4:random'),
    applyVsJsonClassic: pairRatios(report, 'tree/classic:apply', 'tree/classic:apply-json'),
  };
  console.log(
    `\nEngine: every row in each of ${report.processes} fresh processes (esbuild bundle, CPU time of one core), after ${report.warmSeconds} s of CPU of interleaved warm-up per row; ` +
      `each ratio over ${report.repetitions} repetitions per process of ${report.slicesPerRepetition} alternating slices of a fixed number of items per row (about ${report.sliceSeconds * 1000} ms on a 2.6 GHz Xeon)`,
  );
  console.log(
    'Ratios (a / b in each repetition, of the fastest slices and of the summed CPU times; min / median / max over the repetitions of every process; spread = (max - min) / median; processes: the median of each process)',
  );
  console.log(table(headline, ['ratio', 'median', 'min', 'max', 'spread', 'processes']));
  const rows = report.rows.map((r) => {
    const s = spread(r.perRound);
    return {
      row: r.name + (r.engine === 'ref' ? ` (${engineRef})` : ''),
      unit: r.unit,
      batch: r.batch,
      median: Math.round(s.median),
      min: Math.round(s.min),
      max: Math.round(s.max),
      spread: pct(s.relSpread),
    };
  });
  console.log(
    `Absolute figures, valid only for this machine: ${before.cpu}, ${before.cores} cores, Node ${before.node}, load average ${before.loadAverage.join(' ')} before, ${after.loadAverage.join(' ')} after`,
  );
  console.log(table(rows, ['row', 'unit', 'batch', 'median', 'min', 'max', 'spread']));
  return { machine: { before, after }, ratios: headline, ...report };
}

/** Runs a TypeScript part in its own Node process (tsx); its last stdout line is JSON. Progress goes to stderr. */
function partJson(script: string, args: string[]): any {
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, ...args, ...(quick ? ['--quick'] : [])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop() ?? 'null');
}

const ms = (x: number) => Number(x.toFixed(1));
/** Each process's figure, in the order run: `2.4 / 2.6 / 2.5`. */
const byProcess = (xs: number[], d = 1) => (xs.length > 1 ? xs.map((x) => x.toFixed(d)).join(' / ') : '-');
const ratio = (x: number) => Number(x.toFixed(1));

function api() {
  const r = partJson('scripts/bench-load.ts', [
    '--json',
    '--processes',
    String(processes),
    ...['--profile', '--latency'].filter((f) => process.argv.includes(f)),
  ]) as LoadReport;
  const { latency, cpu } = latencyFigures(r.windows);
  const m = r.machine;
  const rep = (x: { median: number; min: number; max: number; spread: number }, d = 1) =>
    `${x.median.toFixed(d)} (${x.min.toFixed(d)}-${x.max.toFixed(d)}, ${(x.spread * 100).toFixed(0)}%)`;
  console.log(
    `\nAPI: the local server in a process of its own on dynalite in another (DYNAMODB_ENDPOINT), bot clients in a third; ` +
      `${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${m.loadBefore.join(' ')} before, ${m.loadAfter.join(' ')} after`,
  );
  const stacks = r.processes ?? 1;
  console.log(
    `The levels ran in ${stacks} fresh stack${stacks > 1 ? 's' : ''} (store and API processes started anew, warmed up by one game and a window a level) one after the other, ` +
      `their windows pooled${r.latencySeconds ? ` (latency part ${r.latencySeconds} s)` : ''}; by process: the figure of each stack's windows alone, in the order run.`,
  );
  console.log(
    'Latency in ms under C concurrent 4-seat classic games; x: the ratio to `{ __typename }` of the same window (sent before each move, under the same load).',
  );
  console.log(
    "Each cell: median (min-max, spread) over the repetitions; x p95 all: the p95 of all the windows' answers over that of all their `{ __typename }` (the headline p95). cpu alone: the API process's CPU of one such request that ran alone (ms).",
  );
  console.log(
    'Clients: turns = a seat acts only when awaited, one after the other; racing = every awaited seat at once (card choices race on one version).',
  );
  console.log(
    table(
      latency.map((l) => ({
        client: l.client,
        games: l.concurrentGames,
        query: l.query,
        samples: l.samples,
        'p50 ms': rep(l.p50),
        'x p50': rep(l.xP50),
        'p95 ms': rep(l.p95),
        'x p95': rep(l.xP95),
        'x p95 all': l.pooledXP95?.toFixed(1) ?? '-',
        'x p50 by process': byProcess(l.byProcess.map((p) => p.xP50)),
        'x p95 all by process': byProcess(l.byProcess.map((p) => p.pooledXP95)),
        'cpu alone': l.cpuAloneMs.median.toFixed(2),
      })),
      [
        'client',
        'games',
        'query',
        'samples',
        'p50 ms',
        'x p50',
        'p95 ms',
        'x p95',
        'x p95 all',
        'x p50 by process',
        'x p95 all by process',
        'cpu alone',
      ],
    ),
  );
  console.log(
    "\nThe API process's CPU per move (all its CPU in a window, the move's `{ __typename }` and `game` and the work after the answer included, / moves answered); beside it the bench's own (the bot clients); by process: the median of each stack's windows",
  );
  console.log(
    table(
      cpu.map((c) => ({
        client: c.client,
        games: c.concurrentGames,
        windows: c.windows,
        'cpu ms per move': rep(c.cpuPerMoveMs, 2),
        'client cpu ms per move': rep(c.clientCpuPerMoveMs, 2),
        'moves/s': rep(c.movesPerSecond, 0),
        'cpu ms per move by process': byProcess(c.cpuPerMoveMsByProcess, 2),
      })),
      [
        'client',
        'games',
        'windows',
        'cpu ms per move',
        'cpu ms per move by process',
        'client cpu ms per move',
        'moves/s',
      ],
    ),
  );
  // The goals of issue 29, on the `turns` client: p50 the median over the windows, p95 over all
  // the windows' answers (x p95 all).
  const goal = (games: number, q: string, stat: 'xP50' | 'xP95', max: number) => {
    const l = latency.find((x) => x.client === 'turns' && x.concurrentGames === games && x.query === q);
    const v = !l ? NaN : stat === 'xP95' && Number.isFinite(l.pooledXP95) ? (l.pooledXP95 as number) : l[stat].median;
    return `${q} ${stat === 'xP50' ? 'p50' : 'p95'} ${v.toFixed(1)}x ${v <= max ? '<=' : '>'} ${max}x`;
  };
  console.log(
    '\ngoals (turns client; p50: median of the windows, p95: over all windows): 1 game: ' +
      ['playCard', 'answerPrompt'].flatMap((q) => [goal(1, q, 'xP50', 3), goal(1, q, 'xP95', 4)]).join(', ') +
      '; 10 games: ' +
      ['playCard', 'answerPrompt'].flatMap((q) => [goal(10, q, 'xP50', 5), goal(10, q, 'xP95', 5)]).join(', '),
  );
  if (r.profileDir)
    console.log(
      `API process CPU profile (node --cpu-prof${stacks > 1 ? `, the first of ${stacks} stacks only` : ''}): ${r.profileDir}`,
    );
  if (!r.costs) return r; // --latency: the latency part alone
  for (const c of r.costs ?? []) {
    const ed = c.edition.toLowerCase();
    console.log(`\nDynamoDB cost of a complete 4-player ${ed} game (mean of ${c.games}, played alone; ${c.source})`);
    console.log(
      table(
        [
          {
            what: 'write request units',
            perGame: ms(c.writeUnits),
            'x floor': ratio(c.writeUnitsVsMinimum),
            calls: ms(c.writeRequests),
            'calls x floor': ratio(c.writesVsMinimum),
            floor: ms(c.minimumWrites),
          },
          {
            what: 'read request units',
            perGame: ms(c.readUnits),
            'x floor': ratio(c.readUnitsVsMinimum),
            calls: ms(c.readRequests),
            'calls x floor': '-',
            floor: '-',
          },
        ],
        ['what', 'perGame', 'x floor', 'calls', 'calls x floor', 'floor'],
      ),
    );
    console.log(
      `floor = one write of at most 1 KB per player decision (${ms(c.decisionsPerGame)}) + one per advance (${ms(c.advancesPerGame)}) = ${ms(c.minimumWrites)}; ` +
        `write units ${Number(c.writeUnitsVsMinimum.toFixed(2))}x, write calls ${Number(c.writesVsMinimum.toFixed(2))}x, read units ${Number(c.readUnitsVsMinimum.toFixed(2))}x the floor`,
    );
    console.log(
      'by call: ' +
        Object.entries(c.byCommand)
          .map(([k, v]) => `${k.replace('Command', '')} ${ms(v.calls)} calls/${ms(v.units)} units`)
          .join(', '),
    );
    console.log(
      `on-demand price: $${c.usdPer1000Games.toFixed(4)} per 1,000 ${ed} games ` +
        `(${r.prices.region}, $${r.prices.usdPerMillionWRU}/M WRU, $${r.prices.usdPerMillionRRU}/M RRU, prices of ${r.prices.date})`,
    );
  }
  console.log(
    '\nDynamoDB calls on the request path (one 4-player game of each edition, one request at a time; notices are handed off in memory, their delivery is off the path)',
  );
  console.log(
    table(
      r.requestPath.map((p) => ({
        query: p.query + (p.requestId ? ' (requestId)' : ''),
        samples: p.samples,
        calls: Object.entries(p.shapes)
          .map(([k, v]) => `${k} (${v}%)`)
          .join(', '),
        'at most': `${p.maxReads} read${p.maxReads === 1 ? '' : 's'} + ${p.maxWrites} writes`,
      })),
      ['query', 'samples', 'calls', 'at most'],
    ),
  );
  return r;
}

function cost() {
  const r = partJson('scripts/bench-cost.ts', ['--json']) as CostReport;
  const m = r.measured as any;
  console.log(
    `\nAWS cost of a complete 4-player classic game (${r.prices.region} list prices of ${r.prices.date}; scripts/bench-cost.ts)`,
  );
  console.log(
    `measured on the local stack: ${m.commits} commits; with the view in the push ${m.requests.view.command.n} commands and ${m.requests.view.fetch?.n ?? 0} fetches, ` +
      `${m.push.view.out} push messages (largest ${m.push.view.maxBytes} bytes), ${m.dynamo.view.wru} WRU / ${m.dynamo.view.rru} RRU; with the version only ` +
      `${m.requests.version.fetch?.n ?? 0} fetches, ${m.dynamo.version.wru} WRU / ${m.dynamo.version.rru} RRU; ${m.notices.view} notices; a poll ${m.poll.readUnits} RRU; ` +
      `archiving ${m.archive.writeUnits / Math.max(1, m.archive.archived)} WRU a game; a sweep visit ${m.sweepVisit.readUnits} RRU`,
  );
  console.log(
    `modeled: live ${r.model.liveMinutes} min; ${r.model.correspondenceDays} days with each page open ${r.model.openHoursPerDay} h a day; polls every ${r.model.pollSeconds} s (or ${r.model.backoffPollSeconds} s)`,
  );
  console.log(costTable(r));
  return r;
}

function lambda() {
  const r = partJson('scripts/bench-lambda.ts', []);
  console.log(
    '\nLambda bundles (esbuild as cdk synth builds them) and cold module initialisation (fresh Node process), as ratios to a bare Apollo + Lambda integration + DynamoDB client bundle',
  );
  console.log(
    table(r.handlers, [
      'handler',
      'bundleKB',
      'gzipKB',
      'sizeRatio',
      'apollo',
      'initMsMedian',
      'initSpreadPct',
      'initRatio',
      'initRatioSpreadPct',
      'initCpuMsMedian',
      'initCpuRatio',
      'initCpuRatioSpreadPct',
      'rounds',
    ]),
  );
  return r;
}

const t0 = Date.now();
const report: Record<string, unknown> = {
  at: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  quick,
};
if (process.argv.includes('--cost')) report.cost = cost();
else if (process.argv.includes('--api')) report.api = api();
else {
  report.engine = await engine();
  // `--engine`: the engine figures alone (no local stack, no Lambda bundles).
  if (!process.argv.includes('--engine')) {
    report.api = api();
    report.cost = cost();
    report.lambda = lambda();
  }
}
report.seconds = Math.round((Date.now() - t0) / 1000);
// `--out <file>`: another report file, e.g. to compare two runs (npm run bench:compare -- a b).
const outAt = process.argv.indexOf('--out');
const outFile = outAt > 0 ? process.argv[outAt + 1] : join('results', 'bench.json');
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(report, null, 2));
console.log(`\nwritten: ${outFile} (${report.seconds} s)`);
