// The built reference web client (web/dist) for the local server: GET/HEAD of a file under the
// folder, index.html for the site root and for paths without a file extension (client routes),
// nothing for the API paths. Paths are resolved inside the folder only (no traversal).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** web/dist of this checkout (or WEB_DIST). */
export const WEB_DIST = process.env.WEB_DIST
  ? resolve(process.env.WEB_DIST)
  : fileURLToPath(new URL('../../web/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const API_PATHS = /^\/(graphql|health|games)(\/|$)/;

async function fileAt(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}

/**
 * Serves the request from `dir` if it is a GET/HEAD for the web client. Returns false (and
 * writes nothing) for API paths, other methods, and missing files with an extension, so the
 * caller can answer those itself.
 */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  dir: string = WEB_DIST,
): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (API_PATHS.test(pathname)) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (decoded.includes('\0')) return false;
  const base = resolve(dir);
  let file = resolve(join(base, decoded));
  if (file !== base && !file.startsWith(base + sep)) return false;
  let size = file === base ? null : await fileAt(file);
  if (size === null) {
    // The site root and client routes get the app; a missing asset is a 404 from the caller.
    if (extname(decoded) !== '' && decoded !== '/') return false;
    file = join(base, 'index.html');
    size = await fileAt(file);
    if (size === null) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('The web client is not built: run `npm run build:web` (npm start does it).\n');
      return true;
    }
  }
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  // Vite names assets by content hash: they never change; index.html must be re-read.
  const immutable = file.startsWith(join(base, 'assets') + sep);
  res.writeHead(200, {
    'content-type': type,
    'content-length': String(size),
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  await new Promise<void>((ok, fail) => {
    const stream = createReadStream(file);
    stream.on('error', fail);
    stream.on('end', () => ok());
    stream.pipe(res);
  });
  return true;
}
