// WebSocket upgrades of the local server, routed by path: /graphql (graphql-ws subscriptions)
// and /push (the push protocol of functions/push/protocol.ts). Any other path is refused.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { Limiter } from '../api/http/ratelimit.js';

const routes = new WeakMap<Server, Map<string, WebSocketServer>>();

/** Per-address limits checked before the WebSocket handshake (a flood of sockets costs an HTTP 429, not a connection). */
export interface UpgradeGuard {
  /** Upgrades per address (a token bucket). */
  upgrades: Limiter;
  /** Open WebSockets per address, both paths together. */
  maxOpenPerAddress: number;
}
const guards = new WeakMap<Server, { guard: UpgradeGuard; open: Map<string, number> }>();

/** Limits the upgrades of `server` per address (call before routeUpgrades' first upgrade arrives). */
export function guardUpgrades(server: Server, guard: UpgradeGuard): void {
  guards.set(server, { guard, open: new Map() });
}

function refuse(socket: Duplex, status: string, retryAfter: number | null, message: string): void {
  const body = JSON.stringify({
    errors: [
      { message, extensions: { code: 'RATE_LIMITED', ...(retryAfter ? { retryAfterSeconds: retryAfter } : {}) } },
    ],
  });
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\n${retryAfter ? `Retry-After: ${retryAfter}\r\n` : ''}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** True if the upgrade may go on (then the socket is counted until it closes); else it was answered 429. */
function admitUpgrade(server: Server, req: IncomingMessage, socket: Duplex): boolean {
  const g = guards.get(server);
  if (!g) return true;
  const address = req.socket.remoteAddress ?? 'unknown';
  const wait = g.guard.upgrades.take(address);
  if (wait > 0) {
    refuse(
      socket,
      '429 Too Many Requests',
      Math.max(1, Math.ceil(wait / 1000)),
      `rate limit: WebSocket upgrades per address: at most ${g.guard.upgrades.rate.perSecond} per second (burst ${g.guard.upgrades.rate.burst})`,
    );
    return false;
  }
  const n = g.open.get(address) ?? 0;
  if (n >= g.guard.maxOpenPerAddress) {
    refuse(socket, '429 Too Many Requests', null, `at most ${g.guard.maxOpenPerAddress} open WebSockets per address`);
    return false;
  }
  g.open.set(address, n + 1);
  socket.once('close', () => {
    const left = (g.open.get(address) ?? 1) - 1;
    if (left > 0) g.open.set(address, left);
    else g.open.delete(address);
  });
  return true;
}

/** Serves WebSocket upgrades of `path` on `server` with `wss` (created with `noServer: true`). */
export function routeUpgrades(server: Server, path: string, wss: WebSocketServer): () => void {
  let table = routes.get(server);
  if (!table) {
    const t = new Map<string, WebSocketServer>();
    table = t;
    routes.set(server, t);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // A client that resets the connection we refuse (or before ws takes the socket over) must
      // not take the process down with an unhandled 'error' (it did: a flood of sockets).
      socket.on('error', () => {});
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      const target = t.get(pathname);
      if (!target) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
        return;
      }
      if (!admitUpgrade(server, req, socket)) return;
      target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
    });
  }
  table.set(path, wss);
  return () => table.delete(path);
}
