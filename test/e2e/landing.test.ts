// The /graphql landing page: GraphiQL from the package's own files (no CDN), preloaded with this
// API's example operations, saying what the API is and linking the client authors' section.
// The HTTP checks always run; the browser check (the page renders with every request outside
// the local server blocked, i.e. offline) runs where Chromium is installed (required under CI).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeDefs } from '../../functions/api/schema.generated.js';
import { EXAMPLES } from '../../functions/local/landing.js';
import { startServer } from '../setup/http.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const html = async (path: string) => {
  const res = await fetch(`${s.url}${path}`, { headers: { accept: 'text/html,application/xhtml+xml' } });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};

describe('GraphiQL landing page', () => {
  it('is served to browsers on GET /graphql from local files only, and says what the API is', async () => {
    const page = await html('/graphql');
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/text\/html/);
    expect(page.body).toContain('Libertalia Online API');
    expect(page.body).toContain('/graphql/ui/clients');
    // No CDN: every script and stylesheet is a path on this server.
    const refs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(5);
    for (const ref of refs) expect(ref).toMatch(/^\/graphql\/ui\//);
    expect(page.body).not.toMatch(/https?:\/\//);
    for (const ref of refs) {
      const res = await fetch(`${s.url}${ref}`);
      expect(res.status, ref).toBe(200);
      expect((await res.arrayBuffer()).byteLength, ref).toBeGreaterThan(500);
    }
    // GraphQL requests on the same path still work (GET with a query, POST).
    const get = await fetch(`${s.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(await get.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('preloads example operations that validate against the schema, and links the docs section for client authors (docs/api.md)', async () => {
    const schema = buildSchema(typeDefs);
    for (const e of EXAMPLES)
      expect(
        validate(schema, parse(e.query)).map((x) => x.message),
        e.title,
      ).toEqual([]);
    const clients = await html('/graphql/ui/clients');
    expect(clients.status).toBe(200);
    expect(clients.body).toContain('Writing a client');
    expect(clients.body).toContain('clients/typescript');
  });

  it.skipIf(!HAVE_CHROMIUM && !process.env.CI)(
    'renders GraphiQL in a browser with the network outside the server blocked',
    async () => {
      const profile = mkdtempSync(join(tmpdir(), 'landing-chromium-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        const outside: string[] = [];
        await context.route('**/*', (route) => {
          const u = route.request().url();
          if (u.startsWith(s.url) || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
          outside.push(u);
          return route.abort();
        });
        const page = context.pages()[0] ?? (await context.newPage());
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${s.url}/graphql`);
        await page.locator('.graphiql-container').waitFor({ timeout: 30_000 });
        await page.locator('.graphiql-tab').first().waitFor({ timeout: 30_000 });
        expect(await page.locator('.graphiql-tab').count()).toBe(EXAMPLES.length);
        expect(await page.locator('body').innerText()).toContain('Libertalia Online API');
        expect(outside).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
