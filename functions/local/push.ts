// The push protocol on the local server (ws://localhost:4000/push?token=...), with the same
// code as the AWS push Lambda (functions/api/notify/push-routes.ts) and the same subscription
// items in the local store; the open sockets play API Gateway's management API, without its
// buffering: a post never waits for the socket (a message that would take a socket past
// PUSH_LIMITS.sendQueueBytes unsent closes it with CLOSE_SLOW instead), and each connection's
// messages are handled one at a time (at most PUSH_LIMITS.pendingMessagesPerConnection waiting),
// so one socket has at most one store read in flight.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { buildApp } from '../api/http/app.js';
import { logger, withRequest } from '../api/http/telemetry.js';
import { CLOSE_SIGNED_OUT, CLOSE_SLOW, PUSH_LIMITS, type PushGateway } from '../push/protocol.js';
import { authorize, onConnect, onDisconnect, onMessage, type PushDeps } from '../api/notify/push-routes.js';
import type { PushStore } from '../store/index.js';
import { routeUpgrades } from './upgrade.js';

type App = ReturnType<typeof buildApp>;

export interface LocalPush {
  gateway: PushGateway;
  /** Serves /push on `server` for `app` (built with `gateway`), its connections in `store`; returns the close function. */
  attach(server: Server, app: App, store: PushStore): () => Promise<void>;
}

/**
 * Sends `data` on `ws` unless that would leave more than `limit` bytes unsent: then the socket
 * is closed (CLOSE_SLOW) and cut after a grace period if it does not take the close frame
 * either. Never waits. False when the socket was (or is being) dropped.
 */
export function sendBounded(
  ws: WebSocket,
  data: string,
  limit = PUSH_LIMITS.sendQueueBytes,
  send: (data: string) => void = (d) => ws.send(d),
): boolean {
  if (ws.readyState !== WebSocket.OPEN) return false;
  if (ws.bufferedAmount + Buffer.byteLength(data) > limit) {
    dropSlow(ws);
    return false;
  }
  send(data);
  return true;
}

/** Closes a socket that does not read (CLOSE_SLOW), and cuts it if the close frame is not taken in time. */
export function dropSlow(ws: WebSocket): void {
  if (ws.readyState === WebSocket.OPEN) ws.close(CLOSE_SLOW, 'too slow: messages were not read');
  setTimeout(() => ws.terminate(), PUSH_LIMITS.closeGraceMs).unref();
}

/** API Gateway's management API over the open sockets: a post never waits (sendBounded). */
function socketGateway(sockets: Map<string, WebSocket>): PushGateway {
  return {
    async post(connectionId, message) {
      const ws = sockets.get(connectionId);
      if (!ws) return 'gone';
      return sendBounded(ws, JSON.stringify(message)) ? 'ok' : 'gone';
    },
    async close(connectionId) {
      const ws = sockets.get(connectionId);
      if (!ws) return;
      sockets.delete(connectionId);
      if (ws.readyState === WebSocket.OPEN) ws.close(CLOSE_SIGNED_OUT, 'signed out');
      setTimeout(() => ws.terminate(), PUSH_LIMITS.closeGraceMs).unref();
    },
  };
}

/**
 * A connection's work, one piece at a time. A connection that sends faster than it is served
 * gets `refuse` (RATE_LIMITED) for the excess, unread (no store work): at most
 * PUSH_LIMITS.pendingMessagesPerConnection messages wait.
 */
function oneAtATime(refuse: () => void) {
  let waiting = 0;
  let chain: Promise<void> = Promise.resolve();
  return {
    /** Work that comes before any message (the $connect step). */
    first(p: Promise<void>): void {
      chain = chain.then(() => p);
    },
    message(run: () => Promise<void>): void {
      if (waiting >= PUSH_LIMITS.pendingMessagesPerConnection) {
        refuse();
        return;
      }
      waiting++;
      chain = chain.then(() =>
        run()
          .catch((e) => logger.error('push message failed', { error: e as Error }))
          .finally(() => {
            waiting--;
          }),
      );
    },
  };
}

/**
 * One connection on /push, as API Gateway runs it: the authorizer first (messages wait for it),
 * then $connect (a signed-in player's connection is recorded: signOut closes it), each message
 * in turn, and $disconnect once $connect is done.
 */
function connect(deps: PushDeps, sockets: Map<string, WebSocket>, ws: WebSocket, req: IncomingMessage): void {
  const connectionId = randomUUID();
  const scope = { requestId: connectionId.slice(0, 8) };
  const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined;
  const who = withRequest(scope, () => authorize(deps.app, token));
  const address = req.socket.remoteAddress ?? null;
  sockets.set(connectionId, ws);
  const queue = oneAtATime(() => {
    void deps.gateway.post(connectionId, {
      type: 'error',
      code: 'RATE_LIMITED',
      message: `rate limit: at most ${PUSH_LIMITS.pendingMessagesPerConnection} messages waiting per connection; wait for the answers`,
      retryAfterSeconds: 1,
    });
  });
  ws.on('message', (data) => {
    const text = data.toString();
    queue.message(() =>
      withRequest(scope, async () => {
        const w = await who;
        if (w === 'denied' || ws.readyState !== WebSocket.OPEN || !sockets.has(connectionId)) return;
        await onMessage(deps, connectionId, w.playerId, text, address, w.session);
      }),
    );
  });
  const connected = who
    .then(async (w) => {
      if (w === 'denied') ws.close(4401, 'Forbidden');
      else await onConnect(deps, connectionId, w.playerId);
    })
    .catch((e) => logger.error('push connect failed', { error: e as Error }));
  queue.first(connected);
  ws.on('close', () => {
    sockets.delete(connectionId);
    void connected
      .then(() => onDisconnect(deps, connectionId))
      .catch((e) => logger.error('push disconnect failed', { error: e as Error }));
  });
}

export function createLocalPush(): LocalPush {
  const sockets = new Map<string, WebSocket>();
  const gateway = socketGateway(sockets);
  return {
    gateway,
    attach(server, app, store) {
      const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
      const unroute = routeUpgrades(server, '/push', wss);
      const deps: PushDeps = { app, store, gateway };
      wss.on('connection', (ws, req) => connect(deps, sockets, ws, req));
      return async () => {
        unroute();
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((ok) => wss.close(() => ok()));
      };
    },
  };
}
