import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/sequencer.js';

/** Test files that drive Chromium: every file importing playwright-core or test/setup/browser.ts. */
const browserFiles = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f))
  .filter((f) => /from '(playwright-core|[./]*\/setup\/browser\.js)'/.test(readFileSync(f, 'utf8')));

/**
 * Left out of `npm run test:quick` (the `quick` projects: the engine, the golden games, the API on
 * the in-memory store, the store's contract, the handlers, scripts, layering and the docs' links)
 * into the `slow` one: whatever starts servers, browsers or processes and plays whole games
 * through them: the browser files, the reliability suite, the end-to-end files over HTTP, the
 * SDK against a local server, the web client, the CDK syntheses, the docs' marked examples and
 * the store's bounds. `npm test` runs every project.
 */
const SLOW = [
  ...browserFiles,
  'test/reliability/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/clients/**/*.test.ts',
  'test/web/**/*.test.ts',
  'test/infra/**/*.test.ts',
  'test/local/push.test.ts',
  'test/docs/readme.test.ts',
  'test/store/bounds.test.ts',
];

/**
 * The quick files that keep state in the test process between files (the Lambda handlers' caches
 * and the logger's Lambda context, environment variables): the `quick-isolated` project, each file
 * in a fresh process as usual.
 */
const ISOLATED = ['test/handlers/**/*.test.ts', 'test/api/http/telemetry.test.ts'];

/**
 * The `alone` project: files that flood a server with an attacker process niced below the test
 * workers, and check that it reached its rate; beside another test file's work it does not (and
 * the docs' flood figures assume an otherwise idle machine). They run one at a time, after the
 * other projects: a group of their own (`sequence.groupOrder`).
 */
const ALONE = ['test/reliability/flood.test.ts', 'test/reliability/push.test.ts'];

/** Options of every project. */
const common = {
  // The project runs on Node 20 by design (Lambda runs 22); the SDK's once-per-process notice
  // about its future Node 22 requirement would repeat in every test worker.
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Once per run, for every project (set here, not in the projects, which would each start
    // their own): one dynalite server for the store, API and end-to-end tests (each file makes
    // its own table), and a folder for what the files of a run build once and share
    // (test/setup/once.ts).
    globalSetup: ['test/setup/dynalite.ts', 'test/setup/run.ts'],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine.
    maxWorkers: 2,
    // The longest files first (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...common,
          name: 'quick',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SLOW, ...ISOLATED],
          // Each worker loads the modules once for all the files it runs, not once per file:
          // loading the app's modules in a fresh process per file was about a third of these
          // files' time (and three quarters of the quick loop's CPU, measured).
          isolate: false,
        },
      },
      { test: { ...common, name: 'quick-isolated', include: ISOLATED } },
      { test: { ...common, name: 'slow', include: SLOW, exclude: [...configDefaults.exclude, ...ALONE] } },
      { test: { ...common, name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
