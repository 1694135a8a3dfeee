// Executable docs: on each page (README.md and every docs/*.md), the shell blocks marked
// `<!-- readme-test: run -->` run against a fresh local server (in page order, in one bash with
// `set -euo pipefail`, so a page's later blocks use what its earlier ones set), and every GraphQL
// document the marked blocks send validates against the schema. A broken example fails
// `npm test`. (The pages' links, paths and other GraphQL documents: pages.test.ts.)
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../setup/http.js';
import { blocks, continues, docPages, problems, readPage, walkthrough } from './pages.js';

const pages = docPages().map((page) => ({ page, md: readPage(page) }));
const runnable = pages.filter((p) => blocks(p.md).some((b) => b.run));
/** Shell sessions: a page that continues no other, then the pages that continue it. */
const chains = runnable
  .filter((p) => continues(p.md) === null)
  .map((first) => ({ page: first.page, pages: [first, ...runnable.filter((p) => continues(p.md) === first.page)] }));

describe('the marked examples against a local server', () => {
  let s: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('the README, the API walkthrough and the correspondence examples are marked to run', () => {
    expect(runnable.map((p) => p.page)).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/accounts.md',
        'docs/api.md',
        'docs/correspondence.md',
        'docs/security.md',
      ]),
    );
    // A page that continues another continues one that runs (else its blocks would never run).
    for (const p of runnable)
      if (continues(p.md))
        expect(
          chains.map((c) => c.page),
          p.page,
        ).toContain(continues(p.md));
    expect(blocks(readPage('docs/api.md')).filter((b) => b.run).length).toBeGreaterThanOrEqual(4);
  });

  /** Runs the pages' marked blocks in one shell; every document its gql() sends is traced and validated. */
  async function run(page: string, chain: { page: string; md: string }[]): Promise<{ stdout: string; sent: number }> {
    const script = chain
      .map((p) => walkthrough(p.page, p.md))
      .join('\n')
      .replace(/^gql\(\) \{/m, 'gql() { printf "%s\\0" "$2" >> "$TRACE";');
    const dir = mkdtempSync(join(tmpdir(), 'docs-run-'));
    try {
      const traceFile = join(dir, 'sent');
      writeFileSync(traceFile, '');
      const { stdout } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        execFile(
          'bash',
          ['-c', script],
          { env: { ...process.env, API: s.url, TRACE: traceFile }, timeout: 240_000, maxBuffer: 16 << 20 },
          (err, stdout, stderr) =>
            err
              ? reject(
                  new Error(
                    `the examples of ${page} failed: ${err.message}\n--- stdout\n${stdout.slice(-2000)}\n--- stderr\n${stderr.slice(-4000)}`,
                  ),
                )
              : resolve({ stdout, stderr }),
        );
      });
      const sent = readFileSync(traceFile, 'utf8').split('\0').filter(Boolean);
      for (const doc of new Set(sent)) expect(problems(doc), doc).toEqual([]);
      return { stdout, sent: sent.length };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it.each(chains)(
    '$page (and the pages that continue it): the marked blocks run without an error',
    async ({ page, pages: chain }) => {
      const { stdout, sent } = await run(page, chain);
      expect(stdout).not.toContain('"errors"');
      if (page === 'README.md') expect(stdout).toContain('"signUp"');
      if (page === 'docs/api.md') {
        // The walkthrough plays a whole game: many moves, each document traced and validated.
        expect(stdout).toContain('"status":"FINISHED"');
        expect(sent).toBeGreaterThan(20);
        // docs/correspondence.md continued it: a webhook came and went, lobbies filled with bots and the rematch started.
        expect(stdout).toContain('"deleteWebhook":true');
        expect(stdout).toContain('"startGame":{"status":"ACTIVE"');
        // docs/accounts.md continued it too: a site's client-credentials token acted for its user.
        expect(stdout).toContain('"kind":"SITE_USER"');
        // docs/security.md continued it: npm run verify checked the finished game against its seed commitment.
        expect(stdout).toContain('verified: game');
      }
    },
    300_000,
  );
});
