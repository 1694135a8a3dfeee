/**
 * The API Lambda (API Gateway HTTP API, payload format 2.0). The only entry-point code: the
 * GraphQL server, the REST routes, the resolvers, store and engine all come from `buildApp`, the
 * same code the local server runs.
 *
 * - `GET /health` and `GET /games/{id}/events` go to `app.rest`;
 * - everything else (`POST/GET /graphql`) goes to Apollo through `@as-integrations/aws-lambda`.
 */
import { handlers, startServerAndCreateLambdaHandler } from '@as-integrations/aws-lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { getApp, type App } from './config.js';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

const requestHandler = handlers.createAPIGatewayProxyEventV2RequestHandler();

/** Paths answered by the REST router rather than GraphQL. */
function isRestPath(path: string): boolean {
  return path === '/health' || /^\/games\/[^/]+\/events\/?$/.test(path);
}

async function rest(app: App, event: ApiEvent): Promise<ApiResult> {
  const query: Record<string, string | undefined> = { ...(event.queryStringParameters ?? {}) };
  const headers: Record<string, string | undefined> = { ...(event.headers ?? {}) };
  const res = await app.rest({
    method: event.requestContext.http.method,
    path: event.rawPath,
    query,
    headers,
  });
  return { statusCode: res.status, headers: res.headers, body: res.body };
}

type LambdaApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

let lambdaHandler: Promise<LambdaApiHandler> | undefined;

function getLambdaHandler(): Promise<LambdaApiHandler> {
  if (!lambdaHandler) {
    lambdaHandler = getApp({ needsSigningKey: true }).then((app) => {
      const graphql = startServerAndCreateLambdaHandler(app.apollo, requestHandler, {
        context: async ({ event }) => app.context({ ...(event.headers ?? {}) }),
        middleware: [
          async (event) => {
            if (isRestPath(event.rawPath)) return rest(app, event);
          },
        ],
      });
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
  const h = await getLambdaHandler();
  return h(event, context);
}

/** For tests: forget the handler built for this container. */
export function resetApiHandlerForTests(): void {
  lambdaHandler = undefined;
}
