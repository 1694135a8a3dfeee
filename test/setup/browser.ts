// The stage of the browser tests (test/e2e, test/web): the web client built with Vite, the local
// server on a fresh table of the run's dynalite (no rate limits: the tests click at machine
// speed; the hostile tests cover the limits), one headless Chromium for the whole file and a new
// context per page, the page errors the file collects, and GraphQL against that server (games
// are set up and driven through it; the browser is used for what a test is about). Under CI a
// missing Chromium fails the tests instead of skipping them.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { type LocalServer, startLocal } from '../../functions/local/server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/**
 * `UPDATE_SCREENSHOTS=1` refreshes the pictures of docs/ (docs/screenshots/). A plain run takes
 * none: a picture asserts nothing, and a full-page one costs about as much CPU as a move.
 */
const SHOTS = process.env.UPDATE_SCREENSHOTS ? resolve('docs/screenshots') : null;

/** `describe` where Chromium is installed, and always under CI. */
export const describeInChromium = describe.skipIf(!HAVE_CHROMIUM && !process.env.CI);

export interface Stage {
  /** Set by the stage's beforeAll. */
  local: LocalServer;
  browser: Browser;
  /** Console and page errors of every page opened, to assert empty. */
  errors: string[];
  /** GraphQL against the local server, the answer as sent ({ data, errors }). */
  post(query: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** GraphQL that must succeed: its data. */
  ok(query: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** A new guest (`signUp`) of that name. */
  guest(name: string): Promise<Who>;
  /** A game created by `creator` (`input` as createGame takes it), joined by `join`, started unless `start` is false (a string: startGame's extra arguments). */
  game(
    creator: Who,
    input: Record<string, unknown>,
    opts?: { join?: Who[]; start?: string | boolean },
  ): Promise<string>;
  /** A page in a new context (1366x768 en-GB unless told), its errors collected. */
  page(options?: PageOptions): Promise<Page>;
  /** A new context signed in as `who` (its session in localStorage), on the game's table at rest. */
  openTable(who: Who, gameId: string, options?: TableOptions): Promise<Page>;
  /** axe-core on the page as it is now (all rules, or those named): no violation. */
  axeClean(page: Page, where: string, rules?: string[]): Promise<void>;
  /** Whether pictures are taken (UPDATE_SCREENSHOTS=1). */
  picturing: boolean;
  /** A picture for docs/screenshots when they are being refreshed (UPDATE_SCREENSHOTS=1). */
  picture(what: Page | Locator, file: string, fullPage?: boolean): Promise<void>;
}

/** A signed-in guest as the client keeps it in localStorage. */
export interface Who {
  playerId: string;
  name: string;
  token: string;
}

export interface PageOptions {
  /** Chromium context options (viewport, reducedMotion...); a 1366x768 en-GB context by default. */
  context?: BrowserContextOptions;
  /** The page's default timeout, 15 s by default. */
  timeout?: number;
  /** A script run in the context before any page script (e.g. a session in localStorage). */
  init?: string;
}

export interface TableOptions extends PageOptions {
  /** The client's query string: `?step=150` (the day's steps shown quickly) by default. */
  search?: string;
}

/** Registers the stage's beforeAll/afterAll in the calling describe. */
export function browserStage(): Stage {
  const contexts: BrowserContext[] = [];
  // `local` and `browser` are set by the beforeAll below.
  const stage = {
    errors: [] as string[],
    picturing: SHOTS !== null,
    async post(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
      const res = await fetch(`${stage.local.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return res.json();
    },
    async ok(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
      const r = await stage.post(query, variables, token);
      expect(r.errors).toBeUndefined();
      return r.data;
    },
    async guest(name: string): Promise<Who> {
      const r = await stage.post('mutation ($n: String!) { signUp(name: $n) { playerId name token } }', { n: name });
      if (!r.data?.signUp) throw new Error(`signUp ${name}: ${JSON.stringify(r.errors)}`);
      return r.data.signUp;
    },
    async game(
      creator: Who,
      input: Record<string, unknown>,
      opts: { join?: Who[]; start?: string | boolean } = {},
    ): Promise<string> {
      const { createGame } = await stage.ok(
        'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
        { i: input },
        creator.token,
      );
      const g = createGame.id as string;
      for (const who of opts.join ?? [])
        await stage.ok('mutation ($g: ID!) { joinGame(gameId: $g) { id } }', { g }, who.token);
      if (opts.start === false) return g;
      const extra = typeof opts.start === 'string' ? `, ${opts.start}` : '';
      await stage.ok(`mutation ($g: ID!) { startGame(gameId: $g${extra}) { id } }`, { g }, creator.token);
      return g;
    },
    async page(options: PageOptions = {}): Promise<Page> {
      const context = await stage.browser.newContext({
        viewport: { width: 1366, height: 768 },
        locale: 'en-GB',
        ...options.context,
      });
      contexts.push(context);
      if (options.init) await context.addInitScript(options.init);
      const page = await context.newPage();
      page.setDefaultTimeout(options.timeout ?? 15_000);
      page.on('console', (m) => {
        if (m.type() === 'error') stage.errors.push(`${m.text()} @ ${m.location().url}`);
      });
      page.on('pageerror', (e) => stage.errors.push(e.message));
      return page;
    },
    async openTable(who: Who, gameId: string, options: TableOptions = {}): Promise<Page> {
      const session = `localStorage.setItem('libertalia.session', ${JSON.stringify(JSON.stringify(who))})`;
      const page = await stage.page({ ...options, init: session });
      await page.goto(`${stage.local.url}/${options.search ?? '?step=150'}#/game/${gameId}`);
      await page.waitForSelector('[data-testid=table][aria-busy=false]');
      return page;
    },
    async axeClean(page: Page, where: string, rules?: string[]): Promise<void> {
      if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ path: AXE });
      // Only violations are collected in full: the same findings, without the work of listing every pass.
      const only = `{ resultTypes: ['violations']${rules ? `, runOnly: { type: 'rule', values: ${JSON.stringify(rules)} }` : ''} }`;
      const found = await page.evaluate(
        `axe.run(document, ${only}).then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' ') + ' — ' + n.failureSummary)))`,
      );
      expect(found, `axe on ${where}`).toEqual([]);
    },
    async picture(what: Page | Locator, file: string, fullPage = false): Promise<void> {
      if (!SHOTS) return;
      mkdirSync(SHOTS, { recursive: true });
      await what.screenshot({ path: join(SHOTS, file), ...(fullPage ? { fullPage } : {}) });
    },
  } as unknown as Stage;
  beforeAll(async () => {
    if (!HAVE_CHROMIUM)
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}: install Debian's package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    await build({ configFile: resolve('web/vite.config.ts'), logLevel: 'warn' });
    // The run's dynalite (another process: its work does not queue behind the server and the
    // browser driver in this one), a table of this file's own.
    [stage.local, stage.browser] = await Promise.all([
      startLocal({
        port: 0,
        dataDir: null,
        endpoint: inject('dynamoEndpoint'),
        tableName: `web-${randomUUID().slice(0, 8)}`,
        rateLimits: false,
      }),
      chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      }),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await stage.browser?.close();
    await stage.local?.close();
  });
  return stage;
}
