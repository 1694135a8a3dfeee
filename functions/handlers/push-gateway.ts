/**
 * The push gateway of a container: API Gateway's management API of the WebSocket API
 * (`PUSH_ENDPOINT`, https://<id>.execute-api.<region>.amazonaws.com/<stage>). Only the functions
 * that post or close connections import it (API for sign-out, notice worker, push).
 */
import { managementApiGateway } from '../push/gateway.js';
import type { PushGateway } from '../push/protocol.js';

let pushGateway: PushGateway | undefined;

/**
 * The push gateway of this container: API Gateway's management API of the WebSocket API
 * (`PUSH_ENDPOINT`, https://<id>.execute-api.<region>.amazonaws.com/<stage>); none without it.
 */
export function pushGatewayFromEnv(): PushGateway | undefined {
  const endpoint = process.env.PUSH_ENDPOINT;
  if (!endpoint) return undefined;
  pushGateway ??= managementApiGateway(endpoint);
  return pushGateway;
}

/** For tests: forget the gateway (e.g. after changing the endpoint). */
export function resetPushGatewayForTests(): void {
  pushGateway = undefined;
}
