// npm run bench: one report of the figures the project measures. Each part runs in its own
// fresh Node process; the engine is bundled with esbuild first (as it ships to Lambda).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const quick = process.argv.includes('--quick');

async function bundle(entry: string): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'libertalia-bench-')), 'bench.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: out, logLevel: 'warning' });
  return out;
}

function table(rows: Record<string, unknown>[], columns: string[]): string {
  const fmt = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 0)) : String(v));
  const cells = rows.map((r) => columns.map((c) => fmt(r[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (xs: string[]) => xs.map((x, i) => x.padStart(widths[i])).join('  ');
  return [line(columns), ...cells.map(line)].join('\n');
}

async function engine() {
  const file = await bundle('scripts/bench-engine.ts');
  const out = execFileSync(process.execPath, [file, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const rows = JSON.parse(out) as Record<string, number | string>[];
  const base = rows.find((r) => r.edition === 'classic' && r.players === 4 && r.bot === 'random')!;
  for (const r of rows) r.vsClassic4p = (r.gamesPerSecond as number) / (base.gamesPerSecond as number);
  console.log('\nEngine (complete bot games, CPU time of one core, esbuild bundle)');
  console.log(table(rows, ['edition', 'players', 'bot', 'games', 'commands', 'gamesPerSecond', 'commandsPerSecond', 'vsClassic4p']));
  return rows;
}

/** Other parts of the report, each an npm script printing a JSON object on its last line. */
function part(script: string, title: string) {
  if (!existsSync(`scripts/${script.replace('bench:', 'bench-')}.ts`)) return null;
  console.log(`\n${title}`);
  const out = execFileSync('npm', ['run', '-s', script, ...(quick ? ['--', '--quick'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(out);
  const last = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last);
  } catch {
    return { output: out };
  }
}

const report: Record<string, unknown> = { at: new Date().toISOString(), node: process.version, quick };
report.engine = await engine();
report.api = part('bench:api', 'API on the local stack');
report.lambda = part('bench:lambda', 'Lambda bundles');
mkdirSync('results', { recursive: true });
writeFileSync(join('results', 'bench.json'), JSON.stringify(report, null, 2));
console.log('\nwritten: results/bench.json');
