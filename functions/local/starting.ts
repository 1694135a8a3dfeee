// While `npm start` starts: the port listens early (the local OpenID Provider's issuer is the
// server's URL, known only once it listens), but nothing is served before everything is ready.
// Until then every request gets 503 with Retry-After and every WebSocket upgrade the same answer
// on its raw socket, so a health check or a client racing the start gets an answer at once
// (issue 23, finding 7: such requests used to hang forever).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Seconds a client is told to wait before trying again. */
export const STARTING_RETRY_AFTER_SECONDS = 1;

const BODY = JSON.stringify({ error: 'starting', retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS });

function notYet(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, {
    'content-type': 'application/json',
    'retry-after': String(STARTING_RETRY_AFTER_SECONDS),
    connection: 'close',
  });
  res.end(BODY);
}

function upgradeNotYet(_req: IncomingMessage, socket: Duplex): void {
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nRetry-After: ${STARTING_RETRY_AFTER_SECONDS}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nConnection: close\r\n\r\n${BODY}`,
  );
}

/** Answers 503 on `server` until the returned function is called (then the real listeners take over). */
export function answerStarting(server: Server): () => void {
  server.on('request', notYet);
  server.on('upgrade', upgradeNotYet);
  return () => {
    server.off('request', notYet);
    server.off('upgrade', upgradeNotYet);
  };
}
