// The push protocol on the local server (ws://localhost:4000/push?token=...), with the same
// code as the AWS push Lambda (functions/push/routes.ts) and the same subscription items in the
// local store; the open sockets play API Gateway's management API.
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { buildApp } from '../api/app.js';
import { logger, withRequest } from '../api/telemetry.js';
import type { PushGateway } from '../push/protocol.js';
import { authorize, onDisconnect, onMessage, type PushDeps } from '../push/routes.js';
import { createPushStore } from '../push/store.js';
import { routeUpgrades } from './upgrade.js';

type App = ReturnType<typeof buildApp>;

export interface LocalPush {
  gateway: PushGateway;
  /** Serves /push on `server` for `app` (built with `gateway`); returns the close function. */
  attach(server: Server, app: App, client: DynamoDBDocumentClient, tableName: string): () => Promise<void>;
}

export function createLocalPush(): LocalPush {
  const sockets = new Map<string, WebSocket>();
  const gateway: PushGateway = {
    async post(connectionId, message) {
      const ws = sockets.get(connectionId);
      if (!ws || ws.readyState !== WebSocket.OPEN) return 'gone';
      await new Promise<void>((ok) => ws.send(JSON.stringify(message), () => ok()));
      return 'ok';
    },
  };
  return {
    gateway,
    attach(server, app, client, tableName) {
      const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
      const unroute = routeUpgrades(server, '/push', wss);
      const deps: PushDeps = { app, store: createPushStore(client, tableName), gateway };
      wss.on('connection', (ws, req) => {
        const connectionId = randomUUID();
        const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined;
        // As API Gateway does: the authorizer runs first, messages wait for it.
        const who = withRequest({ requestId: connectionId.slice(0, 8) }, () => authorize(app, token));
        sockets.set(connectionId, ws);
        ws.on('message', (data) => {
          void withRequest({ requestId: connectionId.slice(0, 8) }, async () => {
            const w = await who;
            if (w === 'denied') return;
            await onMessage(deps, connectionId, w.playerId, data.toString());
          }).catch((e) => logger.error('push message failed', { error: e as Error }));
        });
        ws.on('close', () => {
          sockets.delete(connectionId);
          void onDisconnect(deps, connectionId).catch((e) => logger.error('push disconnect failed', { error: e as Error }));
        });
        void who.then((w) => {
          if (w === 'denied') ws.close(4401, 'Forbidden');
        });
      });
      return async () => {
        unroute();
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((ok) => wss.close(() => ok()));
      };
    },
  };
}
