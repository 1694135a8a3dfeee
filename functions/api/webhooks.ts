// Webhooks: a player registers an http(s) URL (all their games or one game) and gets a secret
// once. Notices are stored as delivery items and POSTed as small signed JSON; a failed attempt
// is retried by the sweep with exponential backoff. Bodies name the game, the kind of notice,
// the seat and the version only: no hidden information, no secrets.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { DeliveryRecord, WebhookRecord } from '../store/index.js';
import type { Player } from './auth.js';
import type { Services } from './context.js';
import { ApiError } from './errors.js';
import { count, logger, METRIC } from './telemetry.js';

export interface WebhookConfig {
  /** How long one attempt may take (the move that caused it waits at most this long). */
  timeoutMs: number;
  /** Allow localhost and private addresses (the local server and tests; never on AWS). */
  allowPrivateHosts: boolean;
}

export const DEFAULT_WEBHOOKS: WebhookConfig = { timeoutMs: 2000, allowPrivateHosts: false };
export const MAX_WEBHOOKS_PER_PLAYER = 10;
/** Attempts per delivery; retries wait 1, 2, 4 ... minutes (at most 6 hours). */
export const MAX_ATTEMPTS = 10;
export const backoffMs = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 6 * 3600_000);

export const SIGNATURE_HEADER = 'x-libertalia-signature';
export const TIMESTAMP_HEADER = 'x-libertalia-timestamp';
export const DELIVERY_HEADER = 'x-libertalia-delivery';

/** What a notice says; the body adds `deliveryId`, `attempt` and `sentAt`. */
export interface Notice {
  playerId: string;
  gameId: string;
  kind: 'yourTurn' | 'gameEnded' | 'seatReplaced';
  /** yourTurn, gameEnded: the recipient's seat; seatReplaced: the seat a bot took over. */
  seat: number;
  version: number;
}

function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.internal')) return true;
  if (isIP(h) === 4) {
    const [a, b] = h.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (isIP(h) === 6) return h === '::' || h === '::1' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith('::ffff:');
  return false;
}

/** The URL if it may be called; BAD_USER_INPUT otherwise. */
export function checkUrl(raw: string, config: WebhookConfig): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('BAD_USER_INPUT', 'the webhook url is not a URL');
  }
  if (raw.length > 2000) throw new ApiError('BAD_USER_INPUT', 'a webhook url has at most 2000 characters');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ApiError('BAD_USER_INPUT', 'a webhook url is http or https');
  if (url.username || url.password) throw new ApiError('BAD_USER_INPUT', 'a webhook url carries no credentials');
  if (!config.allowPrivateHosts && isPrivateHost(url.hostname)) throw new ApiError('BAD_USER_INPUT', 'a webhook url must be a public host');
  return url;
}

/** The signature header's value: HMAC-SHA256 of the raw body with the webhook's secret. */
export const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export async function registerWebhook(services: Services, player: Player, url: string, gameId: string | null): Promise<WebhookRecord> {
  checkUrl(url, services.webhooks);
  if (gameId !== null && !(await services.store.getGameRaw(gameId))) throw new ApiError('NOT_FOUND', `no game ${gameId}`);
  if ((await services.store.listWebhooks(player.id)).length >= MAX_WEBHOOKS_PER_PLAYER) {
    throw new ApiError('CONFLICT', `at most ${MAX_WEBHOOKS_PER_PLAYER} webhooks per player; delete one first`);
  }
  const hook: WebhookRecord = { id: randomUUID(), playerId: player.id, url, gameId, secret: randomBytes(32).toString('base64url'), createdAt: services.now().toISOString() };
  await services.store.putWebhook(hook);
  return hook;
}

/** Stores one delivery per matching webhook of each notice's player; returns them. */
export async function recordDeliveries(services: Services, notices: Notice[]): Promise<DeliveryRecord[]> {
  const out: DeliveryRecord[] = [];
  const now = services.now().toISOString();
  const hooksOf = new Map<string, Promise<WebhookRecord[]>>();
  for (const n of notices) {
    if (!hooksOf.has(n.playerId)) hooksOf.set(n.playerId, services.store.listWebhooks(n.playerId));
    for (const hook of await hooksOf.get(n.playerId)!) {
      if (hook.gameId !== null && hook.gameId !== n.gameId) continue;
      const id = randomUUID();
      const body = JSON.stringify({ deliveryId: id, gameId: n.gameId, kind: n.kind, seat: n.seat, version: n.version });
      const d: DeliveryRecord = { id, hookId: hook.id, playerId: n.playerId, body, attempts: 0, status: 'pending', nextAt: now, lastError: null, createdAt: now };
      await services.store.putDelivery(d);
      out.push(d);
    }
  }
  return out;
}

/**
 * Makes the next attempt of a pending delivery (claimed first, so concurrent callers never
 * send the same attempt twice) and records its outcome. Never throws for a bad receiver.
 */
export async function attempt(services: Services, d: DeliveryRecord): Promise<'delivered' | 'retry' | 'failed' | 'skipped'> {
  if (d.status !== 'pending') return 'skipped';
  const n = d.attempts + 1;
  const now = services.now();
  const retryAt = n < MAX_ATTEMPTS ? new Date(now.getTime() + backoffMs(n)) : null;
  if (!(await services.store.claimDelivery(d.id, d.attempts, retryAt))) return 'skipped';
  const hook = await services.store.getWebhook(d.playerId, d.hookId);
  if (!hook) {
    await services.store.settleDelivery(d.id, n, 'failed', 'the webhook was deleted');
    return 'failed';
  }
  let error: string | null = null;
  try {
    checkUrl(hook.url, services.webhooks);
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const body = JSON.stringify({ ...JSON.parse(d.body), attempt: n, sentAt: now.toISOString() });
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'libertalia-online-webhooks', [SIGNATURE_HEADER]: sign(hook.secret, body), [TIMESTAMP_HEADER]: timestamp, [DELIVERY_HEADER]: d.id },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(services.webhooks.timeoutMs),
    });
    await res.body?.cancel();
    if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
  } catch (e) {
    error = e instanceof ApiError ? e.message : `${(e as Error).name}: ${(e as Error).message}`.slice(0, 200);
  }
  const status = error === null ? 'delivered' : retryAt ? 'pending' : 'failed';
  await services.store.settleDelivery(d.id, n, status, error);
  const outcome = status === 'pending' ? 'retry' : status;
  count(METRIC.webhooks, 1, { outcome });
  if (error !== null) logger.warn('webhook attempt failed', { deliveryId: d.id, attempt: n, outcome, reason: error });
  return outcome;
}
