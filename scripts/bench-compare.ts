// npm run bench:compare -- <a.json> <b.json>: the headline figures of two `npm run bench` reports
// side by side (`npm run bench -- --out <file>` writes one elsewhere than results/bench.json),
// with the relative difference of each (b - a) / a and whether it holds within 5% (issue 29:
// "running it twice on the same machine gives figures within 5% of each other"). Headlines are
// ratios measured within one process (engine rows against classic 4 players, the API's moves
// against `{ __typename }`, bundles against the bare one); the API's CPU per move is absolute
// (milliseconds of this machine), printed apart. A part missing from either report is skipped.
import { readFileSync } from 'node:fs';
import { type LoadReport, latencyFigures } from './bench-load.js';

export const REPEAT_TOLERANCE = 0.05;

/** One headline figure of a report: its name and the median of its repetitions. */
export interface Headline {
  figure: string;
  value: number;
  /** A machine-dependent figure (ms), not a ratio: shown, never held to the tolerance. */
  absolute?: boolean;
}

/** The headline figures of one `npm run bench` report (results/bench.json). */
export function headlines(report: any): Headline[] {
  const out: Headline[] = [];
  for (const r of report.engine?.ratios ?? [])
    if (String(r.ratio).endsWith('(summed)')) out.push({ figure: `engine ${r.ratio}`, value: r.median });
  if (report.api?.windows) {
    const { latency, cpu } = latencyFigures((report.api as LoadReport).windows);
    for (const l of latency)
      if (l.client === 'turns' && (l.query === 'playCard' || l.query === 'answerPrompt')) {
        const at = `API ${l.client} ${l.concurrentGames} game${l.concurrentGames > 1 ? 's' : ''} ${l.query}`;
        // The p95 over all windows where the report has it (pooledXP95), else the windows' median.
        const p95 = Number.isFinite(l.pooledXP95) ? (l.pooledXP95 as number) : l.xP95.median;
        out.push({ figure: `${at} x p50`, value: l.xP50.median }, { figure: `${at} x p95`, value: p95 });
      }
    for (const c of cpu)
      out.push({
        figure: `API ${c.client} ${c.concurrentGames} CPU ms per move`,
        value: c.cpuPerMoveMs.median,
        absolute: true,
      });
  }
  for (const h of report.lambda?.handlers ?? []) {
    if (h.handler === 'bare') continue;
    out.push({ figure: `bundle ${h.handler} size / bare`, value: h.sizeRatio });
    if (Number.isFinite(h.initCpuRatio))
      out.push({ figure: `bundle ${h.handler} init CPU / bare`, value: h.initCpuRatio });
  }
  return out;
}

export interface Comparison extends Headline {
  other: number;
  /** (other - value) / value */
  change: number;
  within: boolean;
}

/** Pairs the figures both reports hold. */
export function compare(a: Headline[], b: Headline[]): Comparison[] {
  const byName = new Map(b.map((h) => [h.figure, h.value]));
  return a
    .filter((h) => byName.has(h.figure))
    .map((h) => {
      const other = byName.get(h.figure) as number;
      const change = (other - h.value) / h.value;
      return { ...h, other, change, within: Math.abs(change) <= REPEAT_TOLERANCE };
    });
}

function main() {
  const [fa, fb] = process.argv.slice(2).filter((x) => !x.startsWith('--'));
  if (!fa || !fb) throw new Error('usage: npm run bench:compare -- <a.json> <b.json>');
  const [ra, rb] = [fa, fb].map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const rows = compare(headlines(ra), headlines(rb));
  const width = Math.max(...rows.map((r) => r.figure.length));
  console.log(`a: ${fa} (${ra.at}), b: ${fb} (${rb.at})`);
  for (const r of rows) {
    const verdict = r.absolute ? '(absolute)' : r.within ? 'within 5%' : 'OUTSIDE 5%';
    const change = `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)}%`;
    console.log(
      `${r.figure.padEnd(width)}  ${r.value.toFixed(3).padStart(8)}  ${r.other.toFixed(3).padStart(8)}  ${change.padStart(7)}  ${verdict}`,
    );
  }
  const held = rows.filter((r) => !r.absolute);
  console.log(`${held.filter((r) => r.within).length} of ${held.length} ratios within 5%`);
}

if (process.argv[1]?.endsWith('bench-compare.ts')) main();
