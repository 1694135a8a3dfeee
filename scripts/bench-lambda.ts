// npm run bench:lambda: the Lambda bundles as `cdk synth` builds them (esbuild, minified, ESM,
// node22, AWS SDK included), their sizes, and the module initialisation time of each bundle
// measured in a fresh Node process per run (with and without --enable-source-maps). Prints a table, then one JSON object on the last line
// (read by scripts/bench.ts). `--quick`: fewer runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BUNDLE_ALIASES, BUNDLE_MAIN_FIELDS, BUNDLE_TARGET, ESM_REQUIRE_BANNER, PROJECT_ROOT } from '../infra/function.js';

const quick = process.argv.includes('--quick');
const runs = quick ? 3 : 9;
const API_TARGET_BYTES = 1.5 * 1024 * 1024;

const handlers = [
  { name: 'api', entry: 'functions/handlers/api.ts' },
  { name: 'sweep', entry: 'functions/handlers/sweep.ts' },
];

/** Same options as infra/function.ts hands to NodejsFunction. */
async function bundle(entry: string, outdir: string): Promise<string> {
  const outfile = join(outdir, 'index.mjs');
  await build({
    entryPoints: [join(PROJECT_ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_TARGET,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: BUNDLE_MAIN_FIELDS,
    banner: { js: ESM_REQUIRE_BANNER },
    alias: BUNDLE_ALIASES,
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Milliseconds to import the bundle (module evaluation included) in a new Node process, with
 * `--enable-source-maps` as the functions run (NODE_OPTIONS) or without it, to show its cost.
 */
function importMs(file: string, sourceMaps = true): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const flags = sourceMaps ? ['--enable-source-maps'] : [];
  const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', code], {
    encoding: 'utf8',
    // As on Lambda: nothing configured that would make the import do more.
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '' },
  });
  return Number(out);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'libertalia-bench-lambda-'));
const rows: Record<string, number | string | boolean>[] = [];
try {
  for (const h of handlers) {
    const file = await bundle(h.entry, join(dir, h.name));
    const bytes = statSync(file).size;
    const gzipBytes = gzipSync(readFileSync(file)).length;
    importMs(file); // warm the OS file cache once; not counted
    const times: number[] = [];
    const timesNoMaps: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Interleaved, so that a busy moment of the machine hits both alike.
      times.push(importMs(file));
      timesNoMaps.push(importMs(file, false));
    }
    rows.push({
      handler: h.name,
      bundleKB: Math.round(bytes / 1024),
      gzipKB: Math.round(gzipBytes / 1024),
      mapKB: Math.round(statSync(`${file}.map`).size / 1024),
      initMsMedian: Number(median(times).toFixed(1)),
      initMsMin: Number(Math.min(...times).toFixed(1)),
      initMsNoMapsMedian: Number(median(timesNoMaps).toFixed(1)),
      runs,
      ...(h.name === 'api' ? { underTarget: bytes < API_TARGET_BYTES } : {}),
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const cols = ['handler', 'bundleKB', 'gzipKB', 'mapKB', 'initMsMedian', 'initMsMin', 'initMsNoMapsMedian', 'runs'];
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
const line = (xs: string[]) => xs.map((x, i) => x.padStart(widths[i])).join('  ');
console.log(line(cols));
for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
const api = rows.find((r) => r.handler === 'api')!;
console.log(
  `API bundle ${api.bundleKB} KB minified: ${api.underTarget ? 'under' : 'OVER'} the 1.5 MB target. ` +
    `Init = import of the bundle in a fresh node ${process.version} process with --enable-source-maps as deployed ` +
    `(NoMaps: without it). Lambda runs Node 22 on arm64; the app itself (Apollo, signing key) is built on the first request.`,
);
console.log(JSON.stringify({ node: process.version, apiTargetKB: API_TARGET_BYTES / 1024, handlers: rows }));
