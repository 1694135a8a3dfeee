// WebSocket upgrades of the local server, routed by path: /graphql (graphql-ws subscriptions)
// and /push (the push protocol of functions/push/protocol.ts). Any other path is refused.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';

const routes = new WeakMap<Server, Map<string, WebSocketServer>>();

/** Serves WebSocket upgrades of `path` on `server` with `wss` (created with `noServer: true`). */
export function routeUpgrades(server: Server, path: string, wss: WebSocketServer): () => void {
  let table = routes.get(server);
  if (!table) {
    const t = new Map<string, WebSocketServer>();
    table = t;
    routes.set(server, t);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      const target = t.get(pathname);
      if (!target) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
        return;
      }
      target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
    });
  }
  table.set(path, wss);
  return () => table.delete(path);
}
