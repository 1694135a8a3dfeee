// Executable docs: the README's shell walkthrough runs against a fresh local server (blocks
// marked `<!-- readme-test: run -->`, in order, in one bash with `set -euo pipefail`), and every
// GraphQL document in the README (```graphql blocks, `{"query": ...}` bodies, and the documents
// the shell blocks send) validates against the schema. A broken example fails `npm test`.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/api/schema.generated.js';
import { startServer } from '../setup/http.js';

export const README = join(import.meta.dirname, '..', '..', 'README.md');
const MARK = '<!-- readme-test: run -->';

/** Fenced blocks: language, code, and whether the marker line precedes the fence. */
export function blocks(md: string): { lang: string; code: string; run: boolean; line: number }[] {
  const out: { lang: string; code: string; run: boolean; line: number }[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    out.push({ lang: open[1], code: body.join('\n'), run: lines[start - 1]?.trim() === MARK, line: start + 1 });
  }
  return out;
}

/** Problems of one GraphQL document against the schema ([] when it validates). */
function problems(doc: string): string[] {
  try {
    return validate(schema, parse(doc)).map((e) => e.message);
  } catch (e) {
    return [(e as Error).message];
  }
}

const schema = buildSchema(typeDefs);
const md = readFileSync(README, 'utf8');

/** The script of the marked blocks, in README order. */
export function walkthrough(text: string): string {
  const run = blocks(text).filter((b) => b.run);
  return ['set -euo pipefail', ...run.map((b) => `# ---- README line ${b.line}\n${b.code}`)].join('\n');
}

describe('README examples', () => {
  it('marks the curl walkthrough to run, and every GraphQL block and JSON query validates against the schema', () => {
    const all = blocks(md);
    expect(all.filter((b) => b.run).length).toBeGreaterThanOrEqual(4);
    const docs = [
      ...all.filter((b) => b.lang === 'graphql').map((b) => ({ where: `README line ${b.line}`, doc: b.code })),
      ...[...md.matchAll(/"query":\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => ({ where: 'a {"query": ...} body', doc: JSON.parse(`"${m[1]}"`) as string })),
    ];
    expect(docs.length).toBeGreaterThan(1);
    for (const { where, doc } of docs) expect(problems(doc), where).toEqual([]);
  });

  describe('the walkthrough against a local server', () => {
    let s: Awaited<ReturnType<typeof startServer>>;
    beforeAll(async () => {
      s = await startServer();
    });
    afterAll(() => s.close());

    it('runs to the end of a game without an error, every document it sends valid', async () => {
      // Every document the shell sends goes through a traced gql(): validated here too.
      const trace = walkthrough(md).replace(/^gql\(\) \{/m, 'gql() { printf "%s\\0" "$2" >> "$TRACE";');
      const dir = mkdtempSync(join(tmpdir(), 'readme-'));
      const traceFile = join(dir, 'sent');
      writeFileSync(traceFile, '');
      const { stdout } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        execFile('bash', ['-c', trace], { env: { ...process.env, API: s.url, TRACE: traceFile }, timeout: 240_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
          err ? reject(new Error(`the README walkthrough failed: ${err.message}\n--- stdout\n${stdout.slice(-2000)}\n--- stderr\n${stderr.slice(-4000)}`)) : resolve({ stdout, stderr }),
        );
      });
      expect(stdout).not.toContain('"errors"');
      expect(stdout).toContain('"status":"FINISHED"');
      const sent = readFileSync(traceFile, 'utf8').split('\0').filter(Boolean);
      expect(sent.length).toBeGreaterThan(20);
      for (const doc of new Set(sent)) expect(problems(doc), doc).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    }, 300_000);
  });
});
