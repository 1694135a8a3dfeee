// The stage of the browser tests (test/e2e): the web client built with Vite, the local server
// in memory (no rate limits: the tests click at machine speed; the hostile tests cover the
// limits), one headless Chromium, the contexts and page errors the test collects, and GraphQL
// against that server. Under CI a missing Chromium fails the tests instead of skipping them.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe } from 'vitest';
import { type LocalServer, startLocal } from '../../functions/local/server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** `describe` where Chromium is installed, and always under CI. */
export const describeInChromium = describe.skipIf(!HAVE_CHROMIUM && !process.env.CI);

export interface Stage {
  /** Set by the stage's beforeAll. */
  local: LocalServer;
  browser: Browser;
  /** Closed after the file; push every context opened. */
  contexts: BrowserContext[];
  /** Console and page errors, to assert empty. */
  errors: string[];
  /** GraphQL against the local server, the answer as sent ({ data, errors }). */
  post(query: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** A new guest (`signUp`) of that name. */
  guest(name: string): Promise<Who>;
  /** A new context signed in as `who` (its session in localStorage), on the game's table at rest. */
  openTable(who: Who, gameId: string, options?: TableOptions): Promise<Page>;
}

/** A signed-in guest as the client keeps it in localStorage. */
export interface Who {
  playerId: string;
  name: string;
  token: string;
}

export interface TableOptions {
  /** Chromium context options (viewport, reducedMotion...); a 1366x768 en-GB context by default. */
  context?: BrowserContextOptions;
  /** The client's query string: `?step=150` (the day's steps shown quickly) by default. */
  search?: string;
  /** The page's default timeout, 15 s by default. */
  timeout?: number;
}

/** Registers the stage's beforeAll/afterAll in the calling describe. */
export function browserStage(): Stage {
  const stage = {
    contexts: [] as BrowserContext[],
    errors: [] as string[],
    async post(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
      const res = await fetch(`${stage.local.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return res.json();
    },
    async guest(name: string): Promise<Who> {
      const r = await stage.post('mutation ($n: String!) { signUp(name: $n) { playerId name token } }', { n: name });
      if (!r.data?.signUp) throw new Error(`signUp ${name}: ${JSON.stringify(r.errors)}`);
      return r.data.signUp;
    },
    async openTable(who: Who, gameId: string, options: TableOptions = {}): Promise<Page> {
      const context = await stage.browser.newContext({
        viewport: { width: 1366, height: 768 },
        locale: 'en-GB',
        ...options.context,
      });
      stage.contexts.push(context);
      await context.addInitScript(`localStorage.setItem('libertalia.session', ${JSON.stringify(JSON.stringify(who))})`);
      const page = await context.newPage();
      page.setDefaultTimeout(options.timeout ?? 15_000);
      page.on('console', (m) => {
        if (m.type() === 'error') stage.errors.push(m.text());
      });
      page.on('pageerror', (e) => stage.errors.push(e.message));
      await page.goto(`${stage.local.url}/${options.search ?? '?step=150'}#/game/${gameId}`);
      await page.waitForSelector('[data-testid=table][aria-busy=false]');
      return page;
    },
  } as unknown as Stage;
  beforeAll(async () => {
    await build({ configFile: resolve('web/vite.config.ts'), logLevel: 'warn' });
    stage.local = await startLocal({ port: 0, dataDir: null, rateLimits: false });
    stage.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of stage.contexts) await c.close();
    await stage.browser?.close();
    await stage.local?.close();
  });
  return stage;
}
