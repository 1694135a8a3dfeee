// npm run bench:lambda: the four Lambda bundles as `cdk synth` builds them (infra/bundles.ts: the
// same esbuild options), beside a reference bundle built the same way: a bare Apollo server behind
// @as-integrations/aws-lambda with a DynamoDB document client (scripts/bench/bare-lambda.ts).
// For each: size (minified, gzipped), ratio to the bare bundle, whether it contains Apollo (from
// esbuild's metafile), and its module initialisation: the import of the bundle in a fresh Node
// process with --enable-source-maps as deployed, repeated (rounds interleave the bundles, in a
// rotating order, so a busy moment hits all alike); the ratio to the bare bundle is taken within
// each round, then its median and spread ((max - min) / median) over the rounds. Beside the wall
// time, the CPU time of the import (the child's user + system, all its threads): a loaded machine
// stretches the wall time while the CPU time moves much less.
// Module init runs on the Node major Lambda runs (infra/function.ts LAMBDA_RUNTIME): this process's
// Node if it is that major, else the `node` package of that major from the npm registry
// (`npx -y node@24`: its binary comes from the registry too, and stays in npm's cache);
// `--node <path>` names a binary, `--node current` keeps this process's Node. If none can be had,
// init runs on this Node and the output says so.
// `--breakdown`: only the sizes, the API bundle's bytes by package and own folder beside the bare
// bundle's (esbuild's metafile), largest difference first; no init rounds.
// Prints a table, then one JSON object on the last line (read by scripts/bench.ts). `--quick`: 7 rounds instead of 21.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundleOptions, HANDLERS, packagesOf, sourcesOf } from '../infra/bundles.js';
import { LAMBDA_RUNTIME } from '../infra/function.js';

const quick = process.argv.includes('--quick');
const breakdown = process.argv.includes('--breakdown');
// 21: with 11, the median of the init CPU ratios of one bundle moved 13% between two runs on a
// quiet machine (3 December 2026; single rounds spread 12-70%).
const rounds = quick ? 7 : 21;
/** The API bundle's target: at most this times the bare bundle's size (issue 29). */
const API_TARGET_RATIO = 1.1;

const lambdaMajor = /^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME.name)?.[1];
const majorOf = (version: string) => version.replace(/^v/, '').split('.')[0];

/** The Node binary the imports run on: see the header. */
function initNode(): { path: string; version: string; note?: string } {
  const arg = process.argv.indexOf('--node');
  const asked = arg >= 0 ? process.argv[arg + 1] : undefined;
  const current = { path: process.execPath, version: process.version };
  if (asked === 'current' || (!asked && majorOf(process.version) === lambdaMajor)) return current;
  if (asked) {
    const version = execFileSync(asked, ['--version'], { encoding: 'utf8' }).trim();
    return { path: asked, version };
  }
  try {
    const out = execFileSync('npx', ['-y', `node@${lambdaMajor}`, '-p', 'process.execPath + " " + process.version'], {
      encoding: 'utf8',
      timeout: 180_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const [path, version] = out.split(' ');
    return { path, version };
  } catch {
    return { ...current, note: `node@${lambdaMajor} could not be fetched from the npm registry` };
  }
}

const node = initNode();

const bundles = [
  { name: 'bare', entry: 'scripts/bench/bare-lambda.ts' },
  ...Object.entries(HANDLERS).map(([name, entry]) => ({ name, entry })),
];

/** Milliseconds (wall, CPU) to import the bundle (module evaluation included) in a new Node process, as deployed (source maps on). */
function importMs(file: string): { wall: number; cpu: number } {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const u = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  const out = execFileSync(node.path, ['--enable-source-maps', '--input-type=module', '-e', code], {
    encoding: 'utf8',
    // As on Lambda: nothing configured that would make the import do more.
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', TABLE_NAME: 'bench' },
  });
  return JSON.parse(out) as { wall: number; cpu: number };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / median(xs);
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** The API bundle's bytes by source beside the bare bundle's, largest difference first (`--breakdown`). */
function printBreakdown(
  bare: { bytes: number; sources: Map<string, number> },
  api: { bytes: number; sources: Map<string, number> },
) {
  const keys = [...new Set([...api.sources.keys(), ...bare.sources.keys()])];
  const rows = keys
    .map((k) => ({ k, api: api.sources.get(k) ?? 0, bare: bare.sources.get(k) ?? 0 }))
    .map((r) => ({ ...r, over: r.api - r.bare }))
    .sort((a, b) => b.over - a.over || b.api - a.api);
  const own = rows.filter((r) => r.k.startsWith('functions/'));
  const sum = (rs: typeof rows) => rs.reduce((a, r) => a + r.over, 0);
  console.log(`${'bytes over bare'.padStart(15)}  ${'api'.padStart(9)}  ${'bare'.padStart(9)}  source`);
  for (const r of rows.filter((x) => Math.abs(x.over) >= 1024))
    console.log(`${String(r.over).padStart(15)}  ${String(r.api).padStart(9)}  ${String(r.bare).padStart(9)}  ${r.k}`);
  const small = rows.filter((x) => Math.abs(x.over) < 1024);
  console.log(
    `${String(sum(small)).padStart(15)}  ${''.padStart(9)}  ${''.padStart(9)}  ${small.length} sources under 1 KB each (minified names lengthen in a larger bundle too)`,
  );
  console.log(
    `API ${api.bytes} bytes, bare ${bare.bytes} (${(api.bytes / bare.bytes).toFixed(3)}x; ${API_TARGET_RATIO}x is ${Math.floor(bare.bytes * API_TARGET_RATIO)}): ` +
      `${api.bytes - bare.bytes} over, ${sum(own)} of them the project's own code (functions/), ${api.bytes - bare.bytes - sum(own)} packages and esbuild's glue.`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'libertalia-bench-lambda-'));
const rows: Record<string, number | string | boolean>[] = [];
try {
  const built = [];
  for (const b of bundles) {
    const file = join(dir, b.name, 'index.mjs');
    const { metafile } = await build({ ...bundleOptions(b.entry, file), metafile: true });
    const inputs = Object.values(metafile!.outputs).find((o) => o.entryPoint)!.inputs;
    const bytes = statSync(file).size;
    built.push({
      ...b,
      file,
      bytes,
      gzipBytes: gzipSync(readFileSync(file)).length,
      apollo: [...packagesOf(inputs).keys()].some((p) => p.startsWith('@apollo/')),
      sources: sourcesOf(inputs),
    });
    if (!breakdown) importMs(file); // warm the OS file cache once; not counted
  }
  if (breakdown) {
    printBreakdown(built[0], built.find((b) => b.name === 'api')!);
    rmSync(dir, { recursive: true, force: true }); // process.exit skips the finally below
    process.exit(0);
  }
  const times = new Map<string, number[]>(built.map((b) => [b.name, []]));
  const cpuTimes = new Map<string, number[]>(built.map((b) => [b.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < built.length; i++) {
      const b = built[(i + r) % built.length];
      const { wall, cpu } = importMs(b.file);
      times.get(b.name)!.push(wall);
      cpuTimes.get(b.name)!.push(cpu);
    }
  }
  const bare = built[0];
  const bareTimes = times.get('bare')!;
  const bareCpu = cpuTimes.get('bare')!;
  for (const b of built) {
    const t = times.get(b.name)!;
    const ratios = t.map((ms, r) => ms / bareTimes[r]);
    const cpu = cpuTimes.get(b.name)!;
    const cpuRatios = cpu.map((ms, r) => ms / bareCpu[r]);
    rows.push({
      handler: b.name,
      bundleKB: Math.round(b.bytes / 1024),
      gzipKB: Math.round(b.gzipBytes / 1024),
      sizeRatio: round(b.bytes / bare.bytes),
      apollo: b.apollo,
      initMsMedian: round(median(t), 1),
      initSpreadPct: round(100 * spread(t), 1),
      initRatio: round(median(ratios)),
      initRatioSpreadPct: round(100 * spread(ratios), 1),
      initCpuMsMedian: round(median(cpu), 1),
      initCpuRatio: round(median(cpuRatios)),
      initCpuRatioSpreadPct: round(100 * spread(cpuRatios), 1),
      rounds,
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const cols = [
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
];
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
const line = (xs: string[]) => xs.map((x, i) => x.padStart(widths[i])).join('  ');
console.log(line(cols));
for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
const api = rows.find((r) => r.handler === 'api')!;
const apiUnderTarget = (api.sizeRatio as number) <= API_TARGET_RATIO;
console.log(
  `API bundle ${api.sizeRatio}x the bare Apollo + Lambda integration + DynamoDB client bundle: ${apiUnderTarget ? 'within' : 'OVER'} the ${API_TARGET_RATIO}x target. ` +
    `Init = import of the bundle in a fresh node ${node.version} process (${process.arch}) with --enable-source-maps as deployed, wall and CPU time; ratios to the bare bundle ` +
    `within each round (median, spread over ${rounds} rounds). Lambda runs ${LAMBDA_RUNTIME.name} on arm64; the app itself (Apollo, signing key) is built on the first request.` +
    (node.note ? ` NOT Lambda's Node: ${node.note}.` : ''),
);
console.log(
  JSON.stringify({
    node: node.version,
    lambdaRuntime: LAMBDA_RUNTIME.name,
    initOnLambdaNode: majorOf(node.version) === lambdaMajor,
    apiTargetRatio: API_TARGET_RATIO,
    apiUnderTarget,
    handlers: rows,
  }),
);
