// Typed API errors. Every error a caller sees carries `extensions.code`; anything unexpected
// becomes INTERNAL_SERVER_ERROR with a generic message (details go to the server log only).
import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { EngineError } from '../engine/index.js';
import { count, logger, METRIC } from './http/telemetry.js';
import type { ErrorCode } from './schema.types.generated.js';

/** Every code the API sends: the schema's ErrorCode enum (schema/errors.graphql). */
export type { ErrorCode } from './schema.types.generated.js';

/** The codes our own errors carry (the rest come from Apollo, graphql-js and the entry points). */
export type ApiErrorCode = Exclude<
  ErrorCode,
  | 'INTERNAL_SERVER_ERROR'
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_NOT_SUPPORTED'
  | 'OPERATION_RESOLUTION_FAILURE'
>;

/** HTTP status of each code (the REST routes, and docs/api.md's table: test/docs/limits.test.ts). */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  ILLEGAL_MOVE: 422,
  WRONG_PHASE: 409,
  STALE: 409,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  NOT_AVAILABLE: 501,
  RATE_LIMITED: 429,
  LIMIT_EXCEEDED: 422,
  SUBSCRIPTION_OVER_HTTP: 400,
  INTERNAL_SERVER_ERROR: 500,
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  PERSISTED_QUERY_NOT_FOUND: 200,
  PERSISTED_QUERY_NOT_SUPPORTED: 200,
  OPERATION_NOT_ALLOWED: 400,
  OPERATION_RESOLUTION_FAILURE: 400,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  MAIL_UNAVAILABLE: 501,
  ACCOUNT_REQUIRED: 403,
  INVALID_LINK: 403,
  CHAT_SILENCED: 403,
};

/** Whether a code is one of the schema's ErrorCode values (every key of HTTP_STATUS, which tsc holds to the enum). */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(HTTP_STATUS, code);

/**
 * The last check on the way out: a code outside ErrorCode is a bug of ours (a client cannot
 * know it). Under test it throws, so any test that provokes one fails; in production it is
 * logged and sent as it is (a typed error is still more useful than a generic one).
 */
export function listedCode<C>(code: C): C {
  if (isErrorCode(code)) return code;
  if (process.env.VITEST)
    throw new Error(`error code ${String(code)} is not in the ErrorCode enum (schema/errors.graphql)`);
  logger.error('error code not in the ErrorCode enum', { code: String(code) });
  return code;
}

export class ApiError extends GraphQLError {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    /** Extra fields for `extensions` (e.g. `retryAfterSeconds`, `limit`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { ...details, code } });
    this.name = 'ApiError';
  }
}

/** Why a token was refused (UNAUTHENTICATED's `extensions.reason`): a client refreshes on `expired`, signs in again on `revoked`. */
export type AuthFailure = 'missing' | 'malformed' | 'expired' | 'revoked' | 'invalid';

export const unauthenticated = (message: string, reason: AuthFailure = 'invalid'): never => {
  throw new ApiError('UNAUTHENTICATED', message, { reason });
};

export const apiError = (code: ApiErrorCode, message: string): never => {
  throw new ApiError(code, message);
};

/** Engine errors map 1:1 (their codes are a subset of ours); other errors pass unchanged. */
export function fromEngine(e: unknown): unknown {
  return e instanceof EngineError ? new ApiError(e.code, e.message) : e;
}

/** Codes Apollo itself raises for malformed requests; safe to show as they are. */
const APOLLO_CODES = new Set<ErrorCode>([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'OPERATION_NOT_ALLOWED',
]);

const GENERIC: GraphQLFormattedError = {
  message: 'Internal server error',
  extensions: { code: 'INTERNAL_SERVER_ERROR' },
};

const LIMIT_NAMES: Record<string, string> = {
  'Query depth': 'depth',
  Aliases: 'aliases',
  Directives: 'directives',
  'Query Cost': 'cost',
};

/**
 * graphql-armor and graphql-js word their limits as "Syntax Error: ..."; say which limit was
 * hit instead, with its value (`extensions.limit: { name, max, found }`).
 */
export function namedLimit(
  message: string,
): { message: string; limit: { name: string; max: number; found?: number } } | null {
  const armor =
    /^Syntax Error: (Query depth|Aliases|Directives|Query Cost) limit of (\d+) exceeded, found (\d+(?:\.\d+)?)\.?$/.exec(
      message,
    );
  if (armor) {
    const name = LIMIT_NAMES[armor[1]];
    return {
      message: message.replace(/^Syntax Error: /, ''),
      limit: { name, max: Number(armor[2]), found: Math.ceil(Number(armor[3])) },
    };
  }
  const tokens = /^Syntax Error: Document contains more th\w+ (\d+) tokens/.exec(message);
  if (tokens)
    return {
      message: `Token limit of ${tokens[1]} exceeded: a document has at most ${tokens[1]} tokens`,
      limit: { name: 'tokens', max: Number(tokens[1]) },
    };
  return null;
}

/** Apollo's formatError: keep ours and Apollo's request errors, hide everything else. */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  // A plugin's ApiError may arrive wrapped (Apollo wraps errors that are not its graphql
  // module's GraphQLError, e.g. when a bundler loads graphql twice): look inside.
  const inner = (error as { originalError?: unknown } | null)?.originalError;
  const original = inner instanceof ApiError ? inner : fromEngine(unwrapResolverError(error));
  if (original instanceof ApiError) {
    count(METRIC.errors, 1, { code: original.code });
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { ...original.details, code: listedCode(original.code) },
    };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && APOLLO_CODES.has(code as ErrorCode)) {
    count(METRIC.errors, 1, { code });
    const limit = namedLimit(formatted.message);
    if (limit)
      return {
        message: limit.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code, limit: limit.limit },
      };
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  // Answered with HTTP 200 and this code, so only this metric (and its alarm) sees it.
  count(METRIC.errors, 1, { code: 'INTERNAL_SERVER_ERROR' });
  logger.error('unexpected error', { error: asError(error), path: formatted.path?.join('.') });
  return { ...GENERIC, path: formatted.path };
}

/**
 * The cause of an error graphql-js wrapped around a resolver's throw (as Apollo's own
 * unwrapResolverError): written here so that the functions without Apollo (notice worker,
 * sweep, push) do not bundle any of it.
 */
function unwrapResolverError(error: unknown): unknown {
  // By its tag, not instanceof: where graphql is loaded twice (CJS for Apollo, ESM for us, as under
  // vitest) the error comes from the other copy.
  const e = error as GraphQLError | null;
  if (Object.prototype.toString.call(e) === '[object GraphQLError]' && e!.path && e!.originalError)
    return e!.originalError;
  return error;
}

/** The REST form of an error: status and a JSON body `{ error: { code, message } }`. */
export function restError(e: unknown): { status: number; body: string } {
  const err = fromEngine(e);
  if (err instanceof ApiError) count(METRIC.errors, 1, { code: err.code });
  if (err instanceof ApiError)
    return {
      status: HTTP_STATUS[err.code],
      body: JSON.stringify({ error: { ...err.details, code: listedCode(err.code), message: err.message } }),
    };
  count(METRIC.errors, 1, { code: 'INTERNAL_SERVER_ERROR' });
  logger.error('unexpected error', { error: asError(e) });
  return {
    status: 500,
    body: JSON.stringify({ error: GENERIC.extensions && { code: 'INTERNAL_SERVER_ERROR', message: GENERIC.message } }),
  };
}

/** The cause of a resolver error (Apollo wraps it), as an Error for the log line. */
export function asError(e: unknown): Error {
  const inner = unwrapResolverError(e);
  return inner instanceof Error ? inner : new Error(String(inner));
}
