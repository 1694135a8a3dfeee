/**
 * The API Lambda (API Gateway HTTP API, payload format 2.0). The only entry-point code: the
 * GraphQL server (`createApollo`) and the service (`getApp`: REST routes, resolvers' services, store
 * and engine) are the same code the local server runs (`buildApp` is the two together).
 *
 * - `POST/GET /graphql` goes to Apollo through `@as-integrations/aws-lambda` (bodies over the local
 *   server's limit are refused with the same 413);
 * - every other path (`GET /health`, `GET /games/{id}/events`) goes to `app.rest`, as in the local
 *   server.
 */
import { handlers, startServerAndCreateLambdaHandler } from '@as-integrations/aws-lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type ApiContext, createApollo, MAX_BODY_BYTES } from '../api/http/app.js';
import { timingSafeEqual } from 'node:crypto';
import { getApp, type App } from './config.js';
import { allowlistFromEnv } from '../api/http/allowlist.js';
import { pushGatewayFromEnv } from './push-gateway.js';
import { noticeQueueFromEnv } from './queue.js';
import { readOriginSecret, readSigningKeys } from './secrets.js';
import { invocation } from './observe.js';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

const requestHandler = handlers.createAPIGatewayProxyEventV2RequestHandler();

/** As the local server: `/graphql` goes to Apollo, every other path to the REST router. */
function isGraphqlPath(path: string): boolean {
  return path === '/graphql' || path === '/graphql/';
}

/** The local server's body limit and its answer (413), so both entry points behave alike. */
function tooLarge(event: ApiEvent): ApiResult | undefined {
  if (event.body === undefined) return undefined;
  const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);
  if (bytes <= MAX_BODY_BYTES) return undefined;
  return {
    statusCode: 413,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      errors: [
        { message: `request bodies are limited to ${MAX_BODY_BYTES} bytes`, extensions: { code: 'PAYLOAD_TOO_LARGE' } },
      ],
    }),
  };
}

/** The header CloudFront adds to every request it forwards (infra/edge.ts ORIGIN_HEADER), lower case as API Gateway gives it. */
export const ORIGIN_HEADER = 'x-libertalia-origin';

/** This container's origin secret (readOriginSecret, at the first request); null: no edge. */
let originSecret: string | null = null;

const sameSecret = (sent: string | undefined, secret: string | null) => {
  if (!secret || typeof sent !== 'string') return false;
  const [a, b] = [Buffer.from(sent), Buffer.from(secret)];
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The caller's address for the rate limits of anonymous calls. Behind the CloudFront edge
 * (infra/edge.ts) API Gateway sees CloudFront's address, so the viewer's comes from the
 * `CloudFront-Viewer-Address` header (`ip:port`), but only on a request that carries the origin
 * secret only the distribution sets: anyone can call the execute-api URL directly with any
 * header. Otherwise (no edge, no secret, a wrong one) the source IP API Gateway saw.
 */
export function callerAddress(event: ApiEvent, secret: string | null = originSecret): string | null {
  const viewer = event.headers?.['cloudfront-viewer-address'];
  if (viewer && sameSecret(event.headers?.[ORIGIN_HEADER], secret))
    return viewer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return event.requestContext?.http?.sourceIp ?? null;
}

/** Contexts built by the middleware (the rate check before parsing), handed to Apollo's context function. */
const contexts = new WeakMap<ApiEvent, ApiContext>();

/**
 * As the local server: a principal with no read token left is answered 429 before the body is
 * read, and the document's kind (read from its text) is charged before Apollo parses anything.
 */
async function rateLimitedEarly(app: App, event: ApiEvent): Promise<ApiResult | undefined> {
  const ctx = await app.context({ ...(event.headers ?? {}) }, callerAddress(event));
  contexts.set(event, ctx);
  let limited = app.gate(ctx);
  if (!limited) {
    const doc = documentOf(event);
    if (doc) limited = app.gate(ctx, doc);
  }
  if (!limited) return undefined;
  const retry = limited.code === 'RATE_LIMITED'; // else LIMIT_EXCEEDED: more than a whole burst in one request
  return {
    statusCode: retry ? 429 : 400,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(retry ? { 'retry-after': String(limited.details.retryAfterSeconds) } : {}),
    },
    body: JSON.stringify({
      errors: [{ message: limited.message, extensions: { ...limited.details, code: limited.code } }],
    }),
  };
}

/** The query and operation name of a GraphQL request (GET parameters or a JSON body), if readable. */
function documentOf(event: ApiEvent): { query: string; operationName: string | null } | null {
  let d: { query?: unknown; operationName?: unknown } | null | undefined = event.queryStringParameters;
  if (event.requestContext.http.method !== 'GET') {
    try {
      const raw = event.body
        ? event.isBase64Encoded
          ? Buffer.from(event.body, 'base64').toString('utf8')
          : event.body
        : '';
      d = raw ? (JSON.parse(raw) as typeof d) : null;
    } catch {
      return null; // Apollo answers the bad body
    }
  }
  if (!d || typeof d !== 'object' || typeof d.query !== 'string') return null;
  return { query: d.query, operationName: typeof d.operationName === 'string' ? d.operationName : null };
}

async function rest(app: App, event: ApiEvent): Promise<ApiResult> {
  const query: Record<string, string | undefined> = { ...(event.queryStringParameters ?? {}) };
  const headers: Record<string, string | undefined> = { ...(event.headers ?? {}) };
  const res = await app.rest({
    method: event.requestContext.http.method,
    path: event.rawPath,
    query,
    headers,
    address: callerAddress(event),
  });
  return { statusCode: res.status, headers: res.headers, body: res.body };
}

type LambdaApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

let lambdaHandler: Promise<LambdaApiHandler> | undefined;

function getLambdaHandler(): Promise<LambdaApiHandler> {
  if (!lambdaHandler) {
    lambdaHandler = Promise.all([
      getApp({ signingKeys: readSigningKeys, pushGateway: pushGatewayFromEnv(), noticeQueue: noticeQueueFromEnv() }),
      readOriginSecret(),
    ]).then(([app, secret]) => {
      originSecret = secret;
      const graphql = startServerAndCreateLambdaHandler(
        createApollo({ operationAllowlist: allowlistFromEnv() }),
        requestHandler,
        {
          context: async ({ event }) =>
            contexts.get(event) ?? app.context({ ...(event.headers ?? {}) }, callerAddress(event)),
          middleware: [
            async (event) =>
              isGraphqlPath(event.rawPath)
                ? (tooLarge(event) ?? (await rateLimitedEarly(app, event)))
                : rest(app, event),
          ],
        },
      );
      return async (event: ApiEvent, context: Context) => {
        // The integration's handler type also allows callback-style; ours always returns a promise.
        const out = await graphql(event, context, () => undefined);
        return out as ApiResult;
      };
    });
    lambdaHandler.catch(() => {
      lambdaHandler = undefined;
    });
  }
  return lambdaHandler;
}

export async function handler(event: ApiEvent, context: Context): Promise<ApiResult> {
  // `apiRequestId` is the access log's `requestId`; the access log carries this invocation's
  // id as `integrationRequestId`: either way a request's lines join.
  return invocation(context, { apiRequestId: event.requestContext?.requestId }, async () => {
    const h = await getLambdaHandler();
    return h(event, context);
  });
}

/** For tests: forget the handler built for this container. */
export function resetApiHandlerForTests(): void {
  lambdaHandler = undefined;
}
