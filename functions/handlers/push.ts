/**
 * The push Lambda behind the API Gateway WebSocket API (infra/push.ts). One function for:
 * - the $connect REQUEST authorizer: `?token=` checked by the API's own token check
 *   (`app.context`, as for every HTTP request); no token is a spectator; a bad token is denied;
 * - $connect (a signed-in player's connection is recorded, for signOut to close), $disconnect (forget the subscriptions), and the `subscribe`,
 *   `unsubscribe`, `ping` routes (functions/api/notify/push-routes.ts, the local server's code too).
 * The fan-out itself is handed by the commit to the notice queue and run by the notice worker
 * (functions/api/notify/fanout.ts, queuedPusher): no move waits for a subscriber.
 */
import type {
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  APIGatewayAuthorizerResult,
  Context,
} from 'aws-lambda';
import { pushStoreOf } from '../api/http/core.js';
import { stampFromText, stampText } from '../api/accounts/accounts.js';
import { authorize, onConnect, onDisconnect, onMessage, type PushDeps } from '../api/notify/push-routes.js';
import { getApp, getDocumentClient } from './config.js';
import { pushGatewayFromEnv } from './push-gateway.js';
import { readSigningKeys } from './secrets.js';
import { invocation } from './observe.js';

export interface PushEvent {
  body?: string;
  requestContext: {
    routeKey: string;
    connectionId: string;
    authorizer?: { playerId?: string; session?: string } | null;
    identity?: { sourceIp?: string };
  };
}

async function deps(): Promise<PushDeps> {
  const app = await getApp({ signingKeys: readSigningKeys, pushGateway: pushGatewayFromEnv() });
  const gateway = pushGatewayFromEnv();
  if (!gateway) throw new Error('PUSH_ENDPOINT is not set');
  return { app, store: pushStoreOf(getDocumentClient(), process.env.TABLE_NAME!), gateway };
}

function isAuthorizerEvent(e: unknown): e is APIGatewayRequestAuthorizerEvent {
  return (e as { type?: string }).type === 'REQUEST' && typeof (e as { methodArn?: string }).methodArn === 'string';
}

export async function handler(
  event: PushEvent | APIGatewayRequestAuthorizerEvent,
  context: Context,
): Promise<APIGatewayProxyResult | APIGatewayAuthorizerResult> {
  return invocation(context, {}, async () => {
    if (isAuthorizerEvent(event)) {
      const app = await getApp({ signingKeys: readSigningKeys, pushGateway: pushGatewayFromEnv() });
      const who = await authorize(app, event.queryStringParameters?.token ?? undefined);
      const allow = who !== 'denied';
      return {
        principalId: allow && who.playerId ? who.playerId : 'spectator',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: allow ? 'Allow' : 'Deny', Resource: event.methodArn }],
        },
        // The token's stamp travels with the connection: every message checks it again.
        context: {
          playerId: allow && who.playerId ? who.playerId : '',
          session: allow && who.session ? stampText(who.session) : '',
        },
      };
    }
    const { routeKey, connectionId } = event.requestContext;
    const d = await deps();
    // A signed-in player's connection is recorded: signOut closes it (DeleteConnection).
    if (routeKey === '$connect') await onConnect(d, connectionId, event.requestContext.authorizer?.playerId || null);
    else if (routeKey === '$disconnect') await onDisconnect(d, connectionId);
    // Every message is a read of its caller (the instance's read buckets, as for HTTP); the
    // address is API Gateway's view of the client (the push API has no CloudFront in front).
    else
      await onMessage(
        d,
        connectionId,
        event.requestContext.authorizer?.playerId || null,
        event.body,
        event.requestContext.identity?.sourceIp ?? null,
        stampFromText(event.requestContext.authorizer?.session),
      );
    return { statusCode: 200, body: '' };
  });
}
