// The SDK as a package (issue 26, "Done when"): `npm pack` builds it (prepack: tsc to dist/ with
// .d.ts) and packs it; the tarball installs into an empty folder with nothing to fetch (no
// runtime dependencies); there, plain Node runs a small site (clients/typescript/examples/site.mjs:
// client credentials, two users via actAs, a game the site's bot plays to the end with
// conditional moves, a verified site-wide webhook, the replay) against a local server started
// here. The package also loads through require() (Node 20.19+ loads ES modules) and a bundler.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../setup/http.js';

const run = promisify(execFile);
const SDK = join(import.meta.dirname, '..', '..', 'clients', 'typescript');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--offline', '--no-audit', '--no-fund', '--loglevel=error'];

let s: Awaited<ReturnType<typeof startServer>>;
let dir: string;
let site: string;

beforeAll(async () => {
  s = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'sdk-install-'));
  await run(npm, ['pack', SDK, '--pack-destination', dir, ...quiet], { cwd: dir });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  site = join(dir, 'site');
  await run('mkdir', [site]);
  writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'a-site', private: true, type: 'module' }));
  await run(npm, ['install', join(dir, tarball), ...quiet], { cwd: site });
}, 120_000);
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the SDK installed from its tarball', () => {
  it('holds built JavaScript and declarations only, and needs nothing else installed', () => {
    const pkg = JSON.parse(readFileSync(join(site, 'node_modules', '@libertalia', 'client', 'package.json'), 'utf8'));
    expect(pkg.private).toBeUndefined();
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    const files = readdirSync(join(site, 'node_modules', '@libertalia', 'client', 'dist'));
    expect(files).toContain('generated.js'); // the generated documents are built, not left out
    expect(files).toContain('index.d.ts');
    expect(files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
    // Nothing but the SDK itself came in (its peers, graphql-ws and ws, are optional).
    expect(readdirSync(join(site, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['@libertalia']);
  });

  it('loads with require() and through a bundler', async () => {
    const cjs = await run(
      process.execPath,
      ['-e', "const m = require('@libertalia/client'); console.log(typeof m.LibertaliaClient, typeof m.verifyWebhook)"],
      { cwd: site },
    );
    expect(cjs.stdout.trim()).toBe('function function');
    writeFileSync(join(site, 'entry.js'), "export { LibertaliaClient } from '@libertalia/client';\n");
    const out = await build({
      entryPoints: [join(site, 'entry.js')],
      absWorkingDir: site,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    expect(out.outputFiles[0].text).toMatch(/LibertaliaClient = class|class LibertaliaClient/);
  });

  it('runs a small site in plain Node: actAs users, a bot with conditional moves, a verified site webhook, the replay', async () => {
    copyFileSync(join(SDK, 'examples', 'site.mjs'), join(site, 'site.mjs'));
    const { stdout } = await run(process.execPath, ['site.mjs'], {
      cwd: site,
      env: { ...process.env, LIBERTALIA_URL: s.url },
      timeout: 150_000,
    });
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(r.status).toBe('FINISHED');
    expect(new Set(r.players).size).toBe(2);
    expect(r.moves.every((m: number) => m >= 6)).toBe(true); // each seat played its cards at least
    expect(r.sameRegistration).toBe(true);
    expect(r.refused).toBe(0);
    // The one site webhook heard both users (named in each delivery), the end included.
    expect([...r.deliveries].sort()).toEqual(
      ['gameEnded', 'yourTurn'].flatMap((kind) => r.players.map((p: string) => `${kind}:${p}:${r.webhookId}`)).sort(),
    );
    expect(r.deliveryCount).toBeGreaterThan(4);
    expect(r.replay.start).toEqual(['LOBBY', 0]);
    expect(r.replay.end).toEqual(['FINISHED', r.replay.final]);
    expect(r.reacquired).toBe('Site Anne');
  }, 160_000);
});
