// npm run bench: one report of the figures the project measures, printed as tables and written
// to results/bench.json: engine games/s, the API under 1/10/100 concurrent games, the DynamoDB
// cost of a game, the AWS cost of a complete 4-player game (scripts/bench-cost.ts), the Lambda
// bundles. Each part runs in its own fresh Node process; the engine is bundled with esbuild
// first (as it ships to Lambda). `--quick`: a short run; `--engine`: the engine part alone
// (`--engine-ref <git ref>`: of the engine at that commit, for a before/after by the same method);
// `--cost`: the AWS cost part alone.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { LoadReport } from './bench-load.js';
import { type CostReport, costTable } from './bench-cost.js';
import { ISSUE_TODAY, ISSUE_TODAY_APPLY_COMMANDS } from './bench-engine-figures.js';

const quick = process.argv.includes('--quick');
const refAt = process.argv.indexOf('--engine-ref');
/** `--engine-ref <git ref>`: the engine part measures the engine of that commit (same method). */
const engineRef = refAt > 0 ? process.argv[refAt + 1] : undefined;

async function bundle(entry: string, ref?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'libertalia-bench-'));
  const out = join(dir, 'bench.mjs');
  const plugins: Plugin[] = [];
  if (ref) {
    // The engine of <ref> (git archive), resolved in place of the working tree's.
    const tar = execFileSync('git', ['archive', '--format=tar', ref, 'functions/engine'], { maxBuffer: 64 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    const index = join(dir, 'functions/engine/index.ts');
    plugins.push({ name: 'engine-ref', setup: (b) => b.onResolve({ filter: /functions\/engine\/index\.js$/ }, () => ({ path: index })) });
  }
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: out, logLevel: 'warning', plugins, nodePaths: [resolve('node_modules')] });
  return out;
}

function table(rows: Record<string, unknown>[], columns: string[]): string {
  const fmt = (v: unknown) => (v === undefined ? '-' : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 0)) : String(v));
  const cells = rows.map((r) => columns.map((c) => fmt(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (xs: string[]) => xs.map((x, i) => x.padStart(widths[i])).join('  ');
  return [line(columns), ...cells.map(line)].join('\n');
}

async function engine() {
  const file = await bundle('scripts/bench-engine.ts', engineRef);
  if (engineRef) console.log(`\nEngine of ${engineRef} (--engine-ref)`);
  const run = (args: string[]) =>
    JSON.parse(execFileSync(process.execPath, [file, ...args, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  // Each row in its own fresh process: in one process a row's figure depended on the rows before
  // it (the same 4-player classic games measured first after the warm-up ran at about half the
  // speed they reached after the 2-player row). `oneProcess`: the same row when every row runs
  // in one process, both editions warmed first (as in a Lambda serving both editions).
  const rows: Record<string, number | string>[] = [];
  for (const name of run(['--list']) as string[]) {
    process.stderr.write(`engine: ${name}...\n`);
    rows.push(...(run(['--row', name]) as Record<string, number | string>[]));
  }
  const shared = run([]) as Record<string, number | string>[];
  rows.forEach((r, i) => {
    const s = shared[i];
    if (s && s.edition === r.edition && s.players === r.players && s.bot === r.bot) r.oneProcess = String(r.edition).includes(' apply()') ? s.commandsPerSecond : s.gamesPerSecond;
  });
  const base = rows.find((r) => r.edition === 'classic' && r.players === 4 && r.bot === 'random')!;
  for (const r of rows) r.vsClassic4p = (r.gamesPerSecond as number) / (base.gamesPerSecond as number);
  for (const r of rows) {
    const before = rows.find((b) => b.edition === `${r.edition} JSON copy (before)`);
    if (before) r.applyVsJson = (r.commandsPerSecond as number) / (before.commandsPerSecond as number);
    // Ratio to issue 14's "today": games/s for random-bot rows, commands/s for apply().
    const today = ISSUE_TODAY[r.edition as string]?.[r.players as number];
    if (r.bot === 'random' && today) r.xIssue = (r.gamesPerSecond as number) / today;
    if (String(r.edition).endsWith(' apply()')) r.xIssue = (r.commandsPerSecond as number) / ISSUE_TODAY_APPLY_COMMANDS;
  }
  console.log('\nEngine (complete bot games, CPU time of one core, esbuild bundle, each row in a fresh process)');
  console.log(table(rows, ['edition', 'players', 'bot', 'games', 'commands', 'gamesPerSecond', 'commandsPerSecond', 'vsClassic4p', 'applyVsJson', 'xIssue', 'oneProcess']));
  console.log(
    `xIssue: against issue 14's "today" (games/s ${JSON.stringify(ISSUE_TODAY)}; apply() ${ISSUE_TODAY_APPLY_COMMANDS.toLocaleString('en')} commands/s). ` +
      'Goals: classic 4 players >= 20,000 games/s; apply() >= 5x. ' +
      'oneProcess: the same row with every row measured in one process after warming both editions (games/s; commands/s for apply()).',
  );
  return rows;
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
const ratio = (x: number) => Number(x.toFixed(1));

function api() {
  const r = partJson('scripts/bench-load.ts', ['--json']) as LoadReport;
  console.log('\nAPI on the local stack: latency in ms under C concurrent 4-seat games played by bot clients over HTTP');
  console.log('(x trivial: the same percentile of `{ __typename }` measured in the same run, under the same load)');
  console.log(
    table(
      r.latency.map((l) => ({
        games: l.concurrentGames,
        query: l.query,
        samples: l.samples,
        p50: ms(l.p50),
        p95: ms(l.p95),
        p99: ms(l.p99),
        'x p50': ratio(l.xTrivialP50),
        'x p95': ratio(l.xTrivialP95),
        'x p99': ratio(l.xTrivialP99),
      })),
      ['games', 'query', 'samples', 'p50', 'p95', 'p99', 'x p50', 'x p95', 'x p99'],
    ),
  );
  console.log('\nThroughput (4-seat classic games, every seat a bot client through the API)');
  console.log(
    table(
      r.levels.map((l) => ({
        games: l.concurrentGames,
        mode: l.mode === 'complete' ? 'whole games' : `${Math.round(l.seconds)} s window`,
        completed: l.gamesCompleted,
        seconds: Number(l.seconds.toFixed(1)),
        requestsPerSecond: Math.round(l.requestsPerSecond),
        gamesPerMinute: Number(l.gamesPerMinute.toFixed(1)) + (l.mode === 'window' ? ' (projected)' : ''),
      })),
      ['games', 'mode', 'completed', 'seconds', 'requestsPerSecond', 'gamesPerMinute'],
    ),
  );
  for (const c of r.costs) {
    const ed = c.edition.toLowerCase();
    console.log(`\nDynamoDB cost of a complete 4-player ${ed} game (mean of ${c.games}, played alone; ${c.source})`);
    console.log(
      table(
        [
          { what: 'write request units', perGame: ms(c.writeUnits), 'x floor': ratio(c.writeUnitsVsMinimum), calls: ms(c.writeRequests), 'calls x floor': ratio(c.writesVsMinimum), floor: ms(c.minimumWrites) },
          { what: 'read request units', perGame: ms(c.readUnits), 'x floor': ratio(c.readUnitsVsMinimum), calls: ms(c.readRequests), 'calls x floor': '-', floor: '-' },
        ],
        ['what', 'perGame', 'x floor', 'calls', 'calls x floor', 'floor'],
      ),
    );
    console.log(
      `floor = one write of at most 1 KB per player decision (${ms(c.decisionsPerGame)}) + one per advance (${ms(c.advancesPerGame)}) = ${ms(c.minimumWrites)}; ` +
        `write units ${Number(c.writeUnitsVsMinimum.toFixed(2))}x, write calls ${Number(c.writesVsMinimum.toFixed(2))}x, read units ${Number(c.readUnitsVsMinimum.toFixed(2))}x the floor`,
    );
    console.log('by call: ' + Object.entries(c.byCommand).map(([k, v]) => `${k.replace('Command', '')} ${ms(v.calls)} calls/${ms(v.units)} units`).join(', '));
    console.log(
      `on-demand price: $${c.usdPer1000Games.toFixed(4)} per 1,000 ${ed} games ` +
        `(${r.prices.region}, $${r.prices.usdPerMillionWRU}/M WRU, $${r.prices.usdPerMillionRRU}/M RRU, prices of ${r.prices.date})`,
    );
  }
  console.log('\nDynamoDB calls on the request path (one 4-player game of each edition, one request at a time; notices are handed off in memory, their delivery is off the path)');
  console.log(
    table(
      r.requestPath.map((p) => ({
        query: p.query + (p.requestId ? ' (requestId)' : ''),
        samples: p.samples,
        calls: Object.entries(p.shapes).map(([k, v]) => `${k} (${v}%)`).join(', '),
        'at most': `${p.maxReads} read${p.maxReads === 1 ? '' : 's'} + ${p.maxWrites} writes`,
      })),
      ['query', 'samples', 'calls', 'at most'],
    ),
  );
  const one = r.latency.filter((l) => l.concurrentGames === 1);
  const play = one.find((l) => l.query === 'playCard');
  const trivial = one.find((l) => l.query === '{ __typename }');
  if (play && trivial) console.log(`\nplayCard p50 ${ms(play.p50)} ms = ${ratio(play.xTrivialP50)}x { __typename } p50 ${ms(trivial.p50)} ms (1 game, same run)`);
  return r;
}

function cost() {
  const r = partJson('scripts/bench-cost.ts', ['--json']) as CostReport;
  const m = r.measured as any;
  console.log(`\nAWS cost of a complete 4-player classic game (${r.prices.region} list prices of ${r.prices.date}; scripts/bench-cost.ts)`);
  console.log(`measured on the local stack: ${m.commits} commits; with the view in the push ${m.requests.view.command.n} commands and ${m.requests.view.fetch?.n ?? 0} fetches, ` +
    `${m.push.view.out} push messages (largest ${m.push.view.maxBytes} bytes), ${m.dynamo.view.wru} WRU / ${m.dynamo.view.rru} RRU; with the version only ` +
    `${m.requests.version.fetch?.n ?? 0} fetches, ${m.dynamo.version.wru} WRU / ${m.dynamo.version.rru} RRU; ${m.notices.view} notices; a poll ${m.poll.readUnits} RRU; ` +
    `archiving ${m.archive.writeUnits / Math.max(1, m.archive.archived)} WRU a game; a sweep visit ${m.sweepVisit.readUnits} RRU`);
  console.log(`modeled: live ${r.model.liveMinutes} min; ${r.model.correspondenceDays} days with each page open ${r.model.openHoursPerDay} h a day; polls every ${r.model.pollSeconds} s (or ${r.model.backoffPollSeconds} s)`);
  console.log(costTable(r));
  return r;
}

function lambda() {
  const r = partJson('scripts/bench-lambda.ts', []);
  console.log('\nLambda bundles (esbuild as cdk synth builds them) and cold module initialisation (fresh Node process)');
  console.log(table(r.handlers, ['handler', 'bundleKB', 'gzipKB', 'mapKB', 'initMsMedian', 'initMsMin', 'initMsNoMapsMedian', 'runs']));
  return r;
}

const t0 = Date.now();
const report: Record<string, unknown> = { at: new Date().toISOString(), node: process.version, cpus: cpus().length, quick };
if (process.argv.includes('--cost')) report.cost = cost();
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
mkdirSync('results', { recursive: true });
writeFileSync(join('results', 'bench.json'), JSON.stringify(report, null, 2));
console.log(`\nwritten: results/bench.json (${report.seconds} s)`);
