// A small node:http adapter: GraphQL at /graphql through Apollo's executeHTTPGraphQLRequest,
// the REST routes beside it, and a request body limit. Used by the local server and tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import { randomUUID } from 'node:crypto';
import { type buildApp, MAX_BODY_BYTES } from '../api/http/app.js';
import { type ApiError, asError } from '../api/errors.js';
import { corsHeaders, preflightHeaders } from '../api/http/cors.js';
import { logger, withRequest } from '../api/http/telemetry.js';
import { serveLanding } from './landing.js';
import { serveStatic } from './static.js';

type App = ReturnType<typeof buildApp>;

class TooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new TooLarge());
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers);
  res.end(body);
}

const jsonError = (res: ServerResponse, status: number, code: string, message: string) =>
  send(
    res,
    status,
    { 'content-type': 'application/json; charset=utf-8' },
    JSON.stringify({ errors: [{ message, extensions: { code } }] }),
  );

/** RATE_LIMITED: 429 with Retry-After; LIMIT_EXCEEDED (more than a whole burst in one request): 400, no retry helps. */
const rateLimitedAnswer = (res: ServerResponse, limited: ApiError) =>
  send(
    res,
    limited.code === 'RATE_LIMITED' ? 429 : 400,
    {
      'content-type': 'application/json; charset=utf-8',
      ...(limited.code === 'RATE_LIMITED' ? { 'retry-after': String(limited.details.retryAfterSeconds) } : {}),
    },
    JSON.stringify({ errors: [{ message: limited.message, extensions: { ...limited.details, code: limited.code } }] }),
  );

/**
 * GraphQL over HTTP. A flood is refused at its cheapest point: the caller (token verified, cached
 * per instance) and a peek at its read bucket before the body is read; the declared and actual
 * body size before anything is parsed; then the rate limit of the document's kind (read from its
 * text, `sniffOperation`) before Apollo parses and validates it.
 */
async function graphql(app: App, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const flat = flatHeaders(req);
  const ctx = await app.context(flat, req.socket.remoteAddress ?? null);
  const limited = app.gate(ctx);
  if (limited) {
    req.resume(); // the body is never read
    return rateLimitedAnswer(res, limited);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES)
    return jsonError(res, 413, 'PAYLOAD_TOO_LARGE', `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
  let raw = '';
  try {
    raw = await readBody(req, MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof TooLarge)
      return jsonError(res, 413, 'PAYLOAD_TOO_LARGE', `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    throw e;
  }
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(flat)) if (v !== undefined) headers.set(k, v);
  let body: unknown = raw;
  if (raw && (headers.get('content-type') ?? '').includes('application/json')) {
    try {
      body = JSON.parse(raw);
    } catch {
      return jsonError(res, 400, 'BAD_REQUEST', 'the body is not valid JSON');
    }
  }
  const doc = (req.method === 'GET' ? Object.fromEntries(url.searchParams) : body) as {
    query?: unknown;
    operationName?: unknown;
  } | null;
  if (doc && typeof doc === 'object' && typeof doc.query === 'string') {
    const refused = app.gate(ctx, {
      query: doc.query,
      operationName: typeof doc.operationName === 'string' ? doc.operationName : null,
    });
    if (refused) return rateLimitedAnswer(res, refused);
  }
  const result = await app.apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
    context: async () => ctx,
  });
  const outHeaders: Record<string, string> = {};
  for (const [k, v] of result.headers) outHeaders[k] = v;
  res.writeHead(result.status ?? 200, outHeaders);
  if (result.body.kind === 'complete') {
    res.end(result.body.string);
    return;
  }
  for await (const chunk of result.body.asyncIterator) res.write(chunk);
  res.end();
}

/** Something else mounted on the server (the local OpenID Provider): true if it took the request. */
export type Mounted = (req: IncomingMessage, res: ServerResponse) => boolean;

/** An HTTP server for `app` (Apollo must be started first). Call listen() on it. */
export function createHttpServer(app: App, mounted?: Mounted): Server {
  return createServer(requestHandler(app, mounted));
}

/** The request listener of createHttpServer (the local server attaches it once it knows its URL). */
export function requestHandler(app: App, mounted?: Mounted): (req: IncomingMessage, res: ServerResponse) => void {
  // Each request gets its own log scope (request id, then player and game as they are learnt).
  return (req, res) =>
    withRequest({ requestId: randomUUID().slice(0, 8) }, () => {
      if (mounted?.(req, res)) return;
      // CORS as the HTTP API answers it on AWS: preflights here, the headers on every answer.
      const origin = req.headers.origin;
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'])
        return send(res, 204, preflightHeaders(origin), '');
      for (const [k, v] of Object.entries(corsHeaders(origin))) res.setHeader(k, v);
      const url = new URL(req.url ?? '/', 'http://localhost');
      try {
        if (serveLanding(req, res, url)) return;
      } catch (e) {
        console.error('landing page failed', e);
        if (!res.headersSent) return jsonError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
      }
      const work =
        url.pathname === '/graphql' || url.pathname === '/graphql/'
          ? graphql(app, req, res, url)
          : serveStatic(req, res, url.pathname).then((served) =>
              served
                ? undefined
                : app
                    .rest({
                      method: req.method ?? 'GET',
                      path: url.pathname,
                      query: Object.fromEntries(url.searchParams),
                      headers: flatHeaders(req),
                      address: req.socket.remoteAddress ?? null,
                    })
                    .then((r) => send(res, r.status, r.headers, req.method === 'HEAD' ? '' : r.body)),
            );
      work.catch((e) => {
        logger.error('request failed', { error: asError(e) });
        if (!res.headersSent) jsonError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
        else res.end();
      });
    });
}
