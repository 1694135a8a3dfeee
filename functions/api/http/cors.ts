// The one CORS policy of the HTTP API. On AWS the HTTP API's `corsPreflight` (infra/stack.ts)
// answers preflights and adds the headers; locally functions/local/http.ts does the same from
// this table, so a web app that works against `npm start` works against the stack.

/** The API is public and token-based (no cookies), so any origin may call it. */
export const CORS = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'apollo-require-preflight'],
  /** What a browser may read from an answer: the pacing headers a site client needs. */
  exposeHeaders: [
    'retry-after',
    'www-authenticate',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'x-ratelimit-resource',
  ],
  maxAgeSeconds: 3600,
} as const;

/**
 * Headers added to every answer to a cross-origin request (one with an `Origin` header). With `*`
 * among the allowed origins, `*` (the answer is the same for every origin). With a list, only an
 * origin on it is echoed (compared exactly: a browser sends the serialised origin, lower-case
 * scheme and host, no path), any other gets no `Access-Control-Allow-Origin` and the browser
 * refuses to show it the answer; every answer then says `Vary: Origin`, even one to a request
 * without the header, so that no cache hands one origin's answer to another.
 */
export function corsHeaders(
  origin: string | undefined,
  allowOrigins: readonly string[] = CORS.allowOrigins,
): Record<string, string> {
  const any = allowOrigins.includes('*');
  const vary: Record<string, string> = any ? {} : { vary: 'Origin' };
  if (!origin || (!any && !allowOrigins.includes(origin))) return vary;
  return {
    ...vary,
    'access-control-allow-origin': any ? '*' : origin,
    'access-control-expose-headers': CORS.exposeHeaders.join(','),
  };
}

/** The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`): 204 and the policy. */
export function preflightHeaders(
  origin: string | undefined,
  allowOrigins: readonly string[] = CORS.allowOrigins,
): Record<string, string> {
  return {
    ...corsHeaders(origin, allowOrigins),
    'access-control-allow-methods': CORS.allowMethods.join(','),
    'access-control-allow-headers': CORS.allowHeaders.join(','),
    'access-control-max-age': String(CORS.maxAgeSeconds),
  };
}
