// The push endpoints, the same code on AWS (functions/handlers/push.ts, API Gateway WebSocket
// API) and on the local server (functions/local/push.ts): who may connect (the API's own token
// check, `app.context`), and the subscribe / unsubscribe / ping messages.
import type { buildApp } from '../api/app.js';
import { canWatch } from '../api/access.js';
import { ApiError } from '../api/errors.js';
import { getGame } from '../api/games.js';
import { noteRequest } from '../api/telemetry.js';
import { pushView } from './fanout.js';
import type { PushGateway } from './protocol.js';
import type { PushStore } from './store.js';

type App = ReturnType<typeof buildApp>;

export interface PushDeps {
  app: App;
  store: PushStore;
  gateway: PushGateway;
}

/**
 * The connection's caller: the player of a valid token, null for no token (a spectator);
 * 'denied' for a token the API would refuse (bad, expired, revoked).
 */
export async function authorize(app: App, token: string | undefined): Promise<{ playerId: string | null } | 'denied'> {
  if (!token) return { playerId: null };
  const ctx = await app.context({ authorization: `Bearer ${token}` });
  if (ctx.authError || !ctx.player) return 'denied';
  return { playerId: ctx.player.id };
}

const GAME_ID = /^[\w-]{1,100}$/;

/** One client message on a connection. */
export async function onMessage(deps: PushDeps, connectionId: string, playerId: string | null, body: string | undefined): Promise<void> {
  const { app, store, gateway } = deps;
  const error = (code: string, message: string, gameId?: string) => gateway.post(connectionId, { type: 'error', code, message, ...(gameId ? { gameId } : {}) });
  let msg: { action?: unknown; gameId?: unknown };
  try {
    msg = JSON.parse(body ?? '') as typeof msg;
  } catch {
    await error('BAD_USER_INPUT', 'messages are JSON: {"action":"subscribe","gameId":"..."}');
    return;
  }
  if (msg?.action === 'ping') {
    await gateway.post(connectionId, { type: 'pong' });
    return;
  }
  if (msg?.action !== 'subscribe' && msg?.action !== 'unsubscribe') {
    await error('BAD_USER_INPUT', 'unknown action (subscribe, unsubscribe, ping)');
    return;
  }
  const gameId = typeof msg.gameId === 'string' && GAME_ID.test(msg.gameId) ? msg.gameId : null;
  if (!gameId) {
    await error('BAD_USER_INPUT', 'gameId is missing or malformed');
    return;
  }
  noteRequest({ gameId });
  if (msg.action === 'unsubscribe') {
    await store.unsubscribe(connectionId, gameId);
    return;
  }
  // Subscribe first, then read: a commit after the read is pushed, one before it is in the answer.
  if (!(await store.subscribe(connectionId, gameId, playerId, app.services.now()))) {
    await error('LIMIT_EXCEEDED', 'too many subscriptions on this connection', gameId);
    return;
  }
  try {
    const rec = await getGame(app.services, gameId);
    if (!rec) throw new ApiError('NOT_FOUND', `no game ${gameId}`);
    canWatch(rec, playerId ? { id: playerId, name: '' } : null);
    const game = pushView(rec, playerId);
    await gateway.post(connectionId, { type: 'subscribed', gameId, version: rec.version, status: rec.status, ...(game === undefined ? {} : { game }) });
  } catch (e) {
    await store.unsubscribe(connectionId, gameId);
    if (e instanceof ApiError) await error(e.code, e.message, gameId);
    else throw e;
  }
}

export async function onDisconnect(deps: PushDeps, connectionId: string): Promise<void> {
  await deps.store.disconnect(connectionId);
}
