// npm run bench:lambda: the four Lambda bundles as `cdk synth` builds them (infra/bundles.ts: the
// same esbuild options), beside a reference bundle built the same way: a bare Apollo server behind
// @as-integrations/aws-lambda with a DynamoDB document client (scripts/bench/bare-lambda.ts).
// For each: size (minified, gzipped), ratio to the bare bundle, whether it contains Apollo (from
// esbuild's metafile), and its module initialisation: the import of the bundle in a fresh Node
// process with --enable-source-maps as deployed, repeated (rounds interleave the bundles, in a
// rotating order, so a busy moment hits all alike); the ratio to the bare bundle is taken within
// each round, then its median and spread ((max - min) / median) over the rounds.
// Prints a table, then one JSON object on the last line (read by scripts/bench.ts). `--quick`: 5 rounds instead of 11.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundleOptions, HANDLERS, packagesOf } from '../infra/bundles.js';

const quick = process.argv.includes('--quick');
const rounds = quick ? 5 : 11;
/** The API bundle's target: at most this times the bare bundle's size (issue 29). */
const API_TARGET_RATIO = 1.1;

const bundles = [
  { name: 'bare', entry: 'scripts/bench/bare-lambda.ts' },
  ...Object.entries(HANDLERS).map(([name, entry]) => ({ name, entry })),
];

/** Milliseconds to import the bundle (module evaluation included) in a new Node process, as deployed (source maps on). */
function importMs(file: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', code], {
    encoding: 'utf8',
    // As on Lambda: nothing configured that would make the import do more.
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', TABLE_NAME: 'bench' },
  });
  return Number(out);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / median(xs);
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

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
    });
    importMs(file); // warm the OS file cache once; not counted
  }
  const times = new Map<string, number[]>(built.map((b) => [b.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < built.length; i++) {
      const b = built[(i + r) % built.length];
      times.get(b.name)!.push(importMs(b.file));
    }
  }
  const bare = built[0];
  const bareTimes = times.get('bare')!;
  for (const b of built) {
    const t = times.get(b.name)!;
    const ratios = t.map((ms, r) => ms / bareTimes[r]);
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
    `Init = import of the bundle in a fresh node ${process.version} process with --enable-source-maps as deployed; ratios to the bare bundle ` +
    `within each round (median, spread over ${rounds} rounds). Lambda runs nodejs24.x on arm64; the app itself (Apollo, signing key) is built on the first request.`,
);
console.log(
  JSON.stringify({ node: process.version, apiTargetRatio: API_TARGET_RATIO, apiUnderTarget, handlers: rows }),
);
