// The REST routes for integrators who do not speak GraphQL: the event log, a finished game's
// scenario (for `npm run sim -- play`) and a health check.
import { canWatch } from '../view/access.js';
import { loadOrNotFound } from '../play/commit.js';
import { admit, createContext, optionalPlayer } from '../context.js';
import type { Services } from '../services.js';
import { rateHeaders } from './ratelimit.js';
import { ApiError, restError } from '../errors.js';
import { events } from '../play/games.js';
import { scenarioOf } from '../view/replay.js';
import { MAIL_ROUTES, mailRoute } from '../notify/mail-routes.js';

export interface RestRequest {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  /** The caller's address (rate limits of anonymous reads), if known. */
  address?: string | null;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

const withHeaders = (r: RestResponse, headers: Record<string, string>): RestResponse => ({
  ...r,
  headers: { ...r.headers, ...headers },
});
const reply = (status: number, body: unknown): RestResponse => ({
  status,
  headers: { ...JSON_HEADERS },
  body: JSON.stringify(body),
});

/** An optional integer query parameter; BAD_USER_INPUT if present and not an integer. */
function intParam(q: RestRequest['query'], name: string): number | undefined {
  const v = q[name];
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw new ApiError('BAD_USER_INPUT', `${name} must be an integer`);
  return Number(v);
}

/** A path segment, percent-decoded; a bad encoding (e.g. `%E0%A4%A`) is BAD_USER_INPUT, not a 500. */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError('BAD_USER_INPUT', 'the path is not valid percent-encoded UTF-8');
  }
}

/**
 * RFC 6750's challenge on a 401: `Bearer` with `error="invalid_token"` and the reason (expired,
 * revoked...) when a token was sent, bare `Bearer realm` when none was.
 */
export function challenge(e: unknown): Record<string, string> {
  if (!(e instanceof ApiError) || e.code !== 'UNAUTHENTICATED') return {};
  const reason = typeof e.details.reason === 'string' ? e.details.reason : 'invalid';
  if (reason === 'missing') return { 'www-authenticate': 'Bearer realm="libertalia"' };
  const description = e.message.replace(/["\\]/g, "'");
  return { 'www-authenticate': `Bearer realm="libertalia", error="invalid_token", error_description="${description}"` };
}

export async function handleRest(services: Services, req: RestRequest): Promise<RestResponse> {
  const path = req.path.replace(/\/+$/, '') || '/';
  if (Object.hasOwn(MAIL_ROUTES, path)) return mailRoute(services, req, path);
  const eventsRoute = /^\/games\/([^/]+)\/events$/.exec(path);
  const scenarioRoute = /^\/games\/([^/]+)\/scenario$/.exec(path);
  if (path !== '/health' && !eventsRoute && !scenarioRoute)
    return reply(404, { error: { code: 'NOT_FOUND', message: `no route ${req.method} ${req.path}` } });
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return {
      ...reply(405, { error: { code: 'METHOD_NOT_ALLOWED', message: 'only GET' } }),
      headers: { ...JSON_HEADERS, allow: 'GET, HEAD' },
    };
  }
  if (path === '/health') return reply(200, { status: 'ok', time: services.now().toISOString() });
  try {
    const ctx = await createContext(services, req.headers, req.address ?? null);
    admit(ctx, 'read');
    const limits = rateHeaders(services.limiters, ctx, 'read');
    if (scenarioRoute) {
      const rec = await loadOrNotFound(services, segment(scenarioRoute[1]));
      canWatch(rec, optionalPlayer(ctx));
      const scenario = await scenarioOf(rec);
      if (!scenario) throw new ApiError('WRONG_PHASE', 'the scenario is published once the game is finished');
      return withHeaders(reply(200, scenario), limits);
    }
    const page = await events(
      services,
      optionalPlayer(ctx),
      segment(eventsRoute![1]),
      intParam(req.query, 'after'),
      intParam(req.query, 'limit'),
    );
    return withHeaders(reply(200, page), limits);
  } catch (e) {
    const err = restError(e);
    const retry: Record<string, string> =
      e instanceof ApiError && e.code === 'RATE_LIMITED' ? { 'retry-after': String(e.details.retryAfterSeconds) } : {};
    return { status: err.status, headers: { ...JSON_HEADERS, ...retry, ...challenge(e) }, body: err.body };
  }
}
