// npm run golden:update — replays every golden game (test/golden/golden.ts) and rewrites
// test/golden/games.json. Run it only when a rule change is intended; the diff of games.json
// (one line per game) shows the reviewer which games changed.
import { readFileSync, writeFileSync } from 'node:fs';
import { computeAll, GOLDEN_FILE } from '../test/golden/golden.js';

const started = Date.now();
const next = computeAll();
let before: Record<string, string> = {};
try {
  before = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Record<string, string>;
} catch {
  // no file yet
}
const changed = Object.keys(next).filter((k) => before[k] !== next[k]);
const gone = Object.keys(before).filter((k) => !(k in next));
writeFileSync(GOLDEN_FILE, `${JSON.stringify(next, null, 1)}\n`);
console.log(
  `golden games: ${Object.keys(next).length} replayed in ${Date.now() - started} ms; ${changed.length} changed or new, ${gone.length} removed`,
);
for (const k of changed.slice(0, 20)) console.log(`  ${k}: ${before[k] ?? '(new)'} -> ${next[k]}`);
