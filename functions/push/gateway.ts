// API Gateway's management API as the push gateway (PostToConnection; GoneException: the
// client left without a $disconnect reaching us); DeleteConnection closes a signed-out player's.
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { PushGateway } from './protocol.js';

export function managementApiGateway(endpoint: string): PushGateway {
  const client = new ApiGatewayManagementApiClient({ endpoint });
  return {
    async post(connectionId, message) {
      try {
        await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: JSON.stringify(message) }));
        return 'ok';
      } catch (e) {
        if ((e as { name?: string }).name === 'GoneException') return 'gone';
        throw e;
      }
    },
    async close(connectionId) {
      try {
        await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
      } catch (e) {
        if ((e as { name?: string }).name !== 'GoneException') throw e;
      }
    },
  };
}
