// Mutation scores per file from the StrykerJS JSON report (npm run mutation writes it to
// reports/mutation/mutation.json): with every mutant, and without the string-literal mutants
// (card names, rules and prompt texts). Prints the table of docs/testing.md (Markdown).
// Usage: npm run mutation:scores [-- report.json ...] (several reports of scoped runs: a file's
// row comes from the last report that has it).
import { readFileSync } from 'node:fs';

interface Mutant {
  mutatorName: string;
  status: string;
}
const paths = process.argv.length > 2 ? process.argv.slice(2) : ['reports/mutation/mutation.json'];
const report: { files: Record<string, { mutants: Mutant[] }> } = { files: {} };
for (const path of paths) Object.assign(report.files, (JSON.parse(readFileSync(path, 'utf8')) as typeof report).files);

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function score(ms: Mutant[]): { detected: number; valid: number; text: string } {
  const detected = ms.filter((m) => DETECTED.has(m.status)).length;
  const valid = detected + ms.filter((m) => UNDETECTED.has(m.status)).length;
  return { detected, valid, text: valid ? `${((100 * detected) / valid).toFixed(1)}% (${detected}/${valid})` : 'n/a' };
}

console.log('| file | all mutants | without string literals | survivors (non-string) |');
console.log('| --- | ---: | ---: | ---: |');
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const all = score(mutants);
  const noStrings = mutants.filter((m) => m.mutatorName !== 'StringLiteral');
  const rest = score(noStrings);
  console.log(`| \`${file}\` | ${all.text} | ${rest.text} | ${rest.valid - rest.detected} |`);
}
