// The local server's static files for the web client (functions/local/static.ts), and the web
// client's own type check (web/tsconfig.json: DOM types, not part of the root tsc run).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../functions/local/static.js';

describe('serveStatic', () => {
  let dir: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'libertalia-static-'));
    dir = join(root, 'dist');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'app-1234.css'), 'body{}');
    writeFileSync(join(root, 'secret.txt'), 'do not serve');
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      void serveStatic(req, res, url.pathname, dir).then((served) => {
        if (!served) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('fallthrough');
        }
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((ok) => server.close(() => ok()));
    rmSync(resolve(dir, '..'), { recursive: true, force: true });
  });

  /** A raw GET (no URL normalisation by the client, so `..` reaches the server as sent). */
  function get(path: string, method = 'GET'): Promise<{ status: number; type: string; cache: string; body: string }> {
    return new Promise((ok, fail) => {
      const req = request(`${base}${path}`, { method, path }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          ok({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            cache: String(res.headers['cache-control']),
            body,
          }),
        );
      });
      req.on('error', fail);
      req.end();
    });
  }

  it('serves index.html at the root and for client routes, assets with their types', async () => {
    const root = await get('/');
    expect([root.status, root.type, root.cache]).toEqual([200, 'text/html; charset=utf-8', 'no-cache']);
    expect(root.body).toContain('<title>app</title>');
    expect((await get('/play/some/route')).body).toContain('<title>app</title>');
    const js = await get('/assets/app-1234.js');
    expect([js.status, js.type, js.body]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log(1)']);
    expect(js.cache).toContain('immutable');
    expect((await get('/assets/app-1234.css')).type).toBe('text/css; charset=utf-8');
    const head = await get('/', 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
  });

  it('leaves API paths, other methods and missing files to the caller', async () => {
    for (const p of ['/graphql', '/health', '/games/abc/events', '/assets/missing.js'])
      expect((await get(p)).body).toBe('fallthrough');
    expect((await get('/', 'POST')).body).toBe('fallthrough');
  });

  it('never serves a file outside its folder', async () => {
    for (const p of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%00',
    ]) {
      const r = await get(p);
      expect(r.body).not.toContain('do not serve');
    }
  });
});

describe('web client sources', () => {
  it('type-check under web/tsconfig.json (DOM)', () => {
    const tsc = resolve('node_modules/typescript/bin/tsc');
    expect(() => execFileSync(process.execPath, [tsc, '--noEmit', '-p', 'web'], { stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
