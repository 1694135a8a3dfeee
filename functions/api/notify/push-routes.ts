// The push endpoints, the same code on AWS (functions/handlers/push.ts, API Gateway WebSocket
// API) and on the local server (functions/local/push.ts): who may connect (the API's own token
// check, `app.context`), and the subscribe / unsubscribe / ping messages. Every message is a
// read: it takes a token from the caller's HTTP read bucket (player, or address without a
// token) before anything else, and is answered RATE_LIMITED without any store work when empty.
// Concurrent subscribes to one game share one load (and one view per audience, pushView).
import type { PushStore } from '../../store/index.js';
import type { PushGateway } from '../../push/protocol.js';
import { type SessionStamp, sessionAlive, stampOf } from '../accounts/accounts.js';
import type { GameRec } from '../doc.js';
import { ApiError } from '../errors.js';
import type { Core } from '../http/core.js';
import { principals, rateLimited } from '../http/ratelimit.js';
import { noteRequest } from '../http/telemetry.js';
import { getGame } from '../play/games.js';
import { canWatch } from '../view/access.js';
import { pushView } from './fanout.js';

type App = Core;

export interface PushDeps {
  app: App;
  store: PushStore;
  gateway: PushGateway;
}

/** Loads in flight, per service and game: concurrent subscribes to one game share one read. */
const loading = new WeakMap<object, Map<string, { startedAt: number; rec: Promise<GameRec | null> }>>();

/**
 * The game, read after `since` (when the subscription was recorded): a load that started before
 * it could miss a commit whose fan-out did not see the subscription yet, so only a later one is shared.
 */
function loadShared(app: App, gameId: string, since: number): Promise<GameRec | null> {
  let m = loading.get(app.services);
  if (!m) loading.set(app.services, (m = new Map()));
  const inFlight = m.get(gameId);
  if (inFlight && inFlight.startedAt >= since) return inFlight.rec;
  const map = m;
  const entry = { startedAt: performance.now(), rec: getGame(app.services, gameId) };
  map.set(gameId, entry);
  void entry.rec
    .finally(() => {
      if (map.get(gameId) === entry) map.delete(gameId);
    })
    .catch(() => {});
  return entry.rec;
}

/** Takes a read token for the connection's caller: the RATE_LIMITED error to answer, or null. */
export function takeRead(
  app: App,
  playerId: string | null,
  address: string | null,
): { message: string; retryAfterSeconds: number } | null {
  const limiter = app.services.limiters.read;
  const wait = Math.max(
    0,
    ...principals({ player: playerId ? { id: playerId, name: '' } : null, address }).map((k) => limiter.take(k)),
  );
  if (wait === 0) return null;
  const e = rateLimited(
    `reads per player (push messages count as reads): at most ${limiter.rate.perSecond} per second (burst ${limiter.rate.burst})`,
    wait,
  );
  return { message: e.message, retryAfterSeconds: Number(e.details.retryAfterSeconds) };
}

/**
 * The connection's caller: the player of a valid token, null for no token (a spectator), with
 * the token's stamp (checked again at every message); 'denied' for a token the API would refuse
 * (bad, expired, revoked).
 */
export async function authorize(
  app: App,
  token: string | undefined,
): Promise<{ playerId: string | null; session: SessionStamp | null } | 'denied'> {
  if (!token) return { playerId: null, session: null };
  const ctx = await app.context({ authorization: `Bearer ${token}` });
  if (ctx.authError || !ctx.player || !ctx.credential) return 'denied';
  return { playerId: ctx.player.id, session: stampOf(ctx.credential) };
}

/** A signed-in player's connection is recorded, so that signing out can close it. */
export async function onConnect(deps: PushDeps, connectionId: string, playerId: string | null): Promise<void> {
  if (playerId) await deps.store.connect(connectionId, playerId, deps.app.services.now());
}

const GAME_ID = /^[\w-]{1,100}$/;

/** Posts an error message on the connection (about `gameId`, if given). */
const errorTo =
  (gateway: PushGateway, connectionId: string) =>
  async (code: string, message: string, gameId?: string): Promise<void> => {
    await gateway.post(connectionId, { type: 'error', code, message, ...(gameId ? { gameId } : {}) });
  };

/** Whether a message is refused before it is read: over the read rate, or its session ended (the connection is then closed). */
async function refuseCaller(
  deps: PushDeps,
  connectionId: string,
  playerId: string | null,
  address: string | null,
  session: SessionStamp | null,
): Promise<boolean> {
  const { app, store, gateway } = deps;
  const limited = takeRead(app, playerId, address);
  if (limited) {
    await gateway.post(connectionId, { type: 'error', code: 'RATE_LIMITED', ...limited });
    return true;
  }
  // The token is checked again at every message: a session that ended (signed out elsewhere,
  // before its socket was closed) gets UNAUTHENTICATED and the connection is closed.
  if (playerId && session && !(await sessionAlive(app.services, playerId, session))) {
    await errorTo(gateway, connectionId)(
      'UNAUTHENTICATED',
      'this session ended (signed out): connect again with a new token',
    );
    await gateway.close(connectionId);
    await store.disconnect(connectionId);
    return true;
  }
  return false;
}

type Message = { action: 'ping' } | { action: 'subscribe' | 'unsubscribe'; gameId: string };

/** What a client message asks; a string: why it is refused (BAD_USER_INPUT). */
function readMessage(body: string | undefined): Message | string {
  let msg: { action?: unknown; gameId?: unknown };
  try {
    msg = JSON.parse(body ?? '') as typeof msg;
  } catch {
    return 'messages are JSON: {"action":"subscribe","gameId":"..."}';
  }
  if (msg?.action === 'ping') return { action: 'ping' };
  if (msg?.action !== 'subscribe' && msg?.action !== 'unsubscribe')
    return 'unknown action (subscribe, unsubscribe, ping)';
  const gameId = typeof msg.gameId === 'string' && GAME_ID.test(msg.gameId) ? msg.gameId : null;
  return gameId ? { action: msg.action, gameId } : 'gameId is missing or malformed';
}

/**
 * Subscribes the connection to the game and answers it as the caller may see it. Subscribe
 * first, then read: a commit after the read is pushed, one before it is in the answer.
 */
async function subscribe(deps: PushDeps, connectionId: string, playerId: string | null, gameId: string) {
  const { app, store, gateway } = deps;
  const error = errorTo(gateway, connectionId);
  if (!(await store.subscribe(connectionId, gameId, playerId, app.services.now()))) {
    await error('LIMIT_EXCEEDED', 'too many subscriptions on this connection', gameId);
    return;
  }
  const since = performance.now();
  try {
    const rec = await loadShared(app, gameId, since);
    if (!rec) throw new ApiError('NOT_FOUND', `no game ${gameId}`);
    canWatch(rec, playerId ? { id: playerId, name: '' } : null);
    const game = pushView(rec, playerId);
    await gateway.post(connectionId, {
      type: 'subscribed',
      gameId,
      version: rec.version,
      status: rec.status,
      ...(game === undefined ? {} : { game }),
    });
  } catch (e) {
    await store.unsubscribe(connectionId, gameId);
    if (e instanceof ApiError) await error(e.code, e.message, gameId);
    else throw e;
  }
}

/** One client message on a connection. */
export async function onMessage(
  deps: PushDeps,
  connectionId: string,
  playerId: string | null,
  body: string | undefined,
  address: string | null = null,
  session: SessionStamp | null = null,
): Promise<void> {
  if (await refuseCaller(deps, connectionId, playerId, address, session)) return;
  const msg = readMessage(body);
  if (typeof msg === 'string') await errorTo(deps.gateway, connectionId)('BAD_USER_INPUT', msg);
  else if (msg.action === 'ping') await deps.gateway.post(connectionId, { type: 'pong' });
  else {
    noteRequest({ gameId: msg.gameId });
    if (msg.action === 'unsubscribe') await deps.store.unsubscribe(connectionId, msg.gameId);
    else await subscribe(deps, connectionId, playerId, msg.gameId);
  }
}

export async function onDisconnect(deps: PushDeps, connectionId: string): Promise<void> {
  await deps.store.disconnect(connectionId);
}
