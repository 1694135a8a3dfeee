// npm run bench:ab -- <git ref> [--edition classic|galecrest] [--players 4] [--batches 20] [--per 500] [--apply] [--mixed]
//
// The engine of the working tree against the engine at <ref>, side by side in ONE process:
// batches of the same seeded games alternate between the two (A B, B A, A B...), and each
// side's CPU time is summed. On a shared machine the load changes from second to second; two
// separate runs then differ by more than most single changes, while alternating batches see
// the same load, so their ratio holds. `--apply`: the pure apply() (a state copy per command)
// instead of the in-place bulk loop. `--mixed`: both engines first play every edition and
// player count, as the one process of `npm run bench:engine` does. `--per`: games per batch
// (500; `--apply` 50): on a loaded machine, many small batches (e.g. `--per 40 --batches 1500`)
// read by the median of the pair ratios hold better than a few large ones. Both engines are bundled with esbuild, as the Lambdas are.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};

async function main() {
  const ref = process.argv[2];
  if (!ref || ref.startsWith('--'))
    throw new Error(
      'usage: npm run bench:ab -- <git ref> [--edition classic] [--players 4] [--batches 20] [--per 500] [--apply] [--mixed]',
    );
  const dir = mkdtempSync(join(tmpdir(), 'libertalia-ab-'));
  // The reference engine: `git archive` of functions/engine at <ref>, unpacked beside the bundle.
  const tar = execFileSync('git', ['archive', '--format=tar', ref, 'functions/engine'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  const entry = join(dir, 'entry.ts');
  const opts = {
    edition: arg('edition', 'classic'),
    players: Number(arg('players', '4')),
    batches: Number(arg('batches', '20')),
    pure: process.argv.includes('--apply'),
    mixed: process.argv.includes('--mixed'),
    per: Number(arg('per', '0')),
  };
  writeFileSync(
    entry,
    [
      `import * as A from ${JSON.stringify(join(dir, 'functions/engine/index.ts'))};`,
      `import * as B from ${JSON.stringify(resolve('functions/engine/index.ts'))};`,
      `import { alternate } from ${JSON.stringify(resolve('scripts/bench-ab-run.ts'))};`,
      `console.log(JSON.stringify(alternate(A, B, ${JSON.stringify(opts.edition)}, ${opts.players}, ${opts.batches}, ${opts.pure}, ${opts.mixed}, ${opts.per})));`,
    ].join('\n'),
  );
  const out = join(dir, 'ab.mjs');
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
  const r = JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' }));
  console.log(
    `${r.edition} ${r.players}p ${r.mode}${opts.mixed ? ' (mixed)' : ''}: ${ref} ${Math.round(r.refGamesPerSecond)} games/s, working tree ${Math.round(r.treeGamesPerSecond)} games/s, ` +
      `ratio ${r.ratio.toFixed(3)} (${r.games} games each, alternating batches in one process); fastest batch against fastest batch ${r.fastestRatio.toFixed(3)}`,
  );
  const rep = r.repetitions;
  const pct = (x: { min: number; median: number; max: number }) => (((x.max - x.min) / x.median) * 100).toFixed(1);
  console.log(
    `${rep.n} repetitions of ${rep.pairsEach} batch pairs: ratio min ${rep.min.toFixed(3)} / median ${rep.median.toFixed(3)} / max ${rep.max.toFixed(3)} (spread ${pct(rep)}%)`,
  );
  const q = r.pairs;
  console.log(
    `spread over ${q.n} batch pairs: min ${q.min.toFixed(3)} / quartile ${q.q1.toFixed(3)} / median ${q.median.toFixed(3)} / quartile ${q.q3.toFixed(3)} / max ${q.max.toFixed(3)} ` +
      `(${(((q.max - q.min) / q.median) * 100).toFixed(1)}%); ${cpus()[0]?.model ?? 'unknown cpu'}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
}

await main();
