// Webhooks: a player registers an http(s) URL (all their games or one game) and gets a secret
// once. Notices are stored as delivery items by the notice worker (notices.ts) and POSTed as
// small signed JSON; a failed attempt is retried with exponential backoff. Bodies name the game, the kind of notice,
// the seat and the version only: no hidden information, no secrets.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DeliveryRecord, WebhookOwner, WebhookRecord } from '../../store/index.js';
import type { Player } from '../accounts/auth.js';
import { SITE_PREFIX } from '../accounts/accounts.js';
import type { Notice, Services, WebhookConfig } from '../services.js';
import { ApiError } from '../errors.js';
import { seatOf } from '../doc.js';
import { load } from '../play/commit.js';
import { count, logger, METRIC } from '../http/telemetry.js';

export const DEFAULT_WEBHOOKS: WebhookConfig = { timeoutMs: 2000, allowPrivateHosts: false };
export const MAX_WEBHOOKS_PER_PLAYER = 10;
/** Attempts per delivery; retries wait 1, 2, 4 ... minutes (at most 6 hours). */
export const MAX_ATTEMPTS = 10;
export const backoffMs = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 6 * 3600_000);

/** Deprecated since 2026-12-02 (player webhooks only): `sha256=<HMAC of the body alone>`. */
export const SIGNATURE_HEADER = 'x-libertalia-signature';
/** Every delivery: `t=<timestamp>,sha256=<HMAC of "<timestamp>.<body>">` (signV2). */
export const SIGNATURE_V2_HEADER = 'x-libertalia-signature-v2';
export const TIMESTAMP_HEADER = 'x-libertalia-timestamp';
export const DELIVERY_HEADER = 'x-libertalia-delivery';
/** The registration a delivery is for (also `webhookId` in the body). */
export const WEBHOOK_HEADER = 'x-libertalia-webhook-id';
/** The player the notice is for (also `playerId` in the body): with a site webhook, which of the site's users. */
export const PLAYER_HEADER = 'x-libertalia-player-id';

// SSRF: a webhook may only reach public unicast addresses. IP classification is ipaddr.js's
// (a well-kept library, not our own parsing): an IPv4 address must be in its 'unicast' range
// (not private, loopback, link-local, CGNAT, multicast, broadcast, benchmarking 198.18/15,
// documentation or reserved); an IPv6 address must be global unicast (2000::/3) and 'unicast'
// there, which refuses every IPv6 spelling of an IPv4 address (IPv4-mapped ::ffff:0:0/96,
// IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo
// 2001::/32) as well as ULA, link-local, multicast and documentation prefixes.
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** Whether an IP address (any spelling ipaddr.js accepts) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const raw = ip.replace(/^\[|\]$/g, '');
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(raw.replace(/%.*$/, '')); // a zone id (fe80::1%eth0) is link-local anyway
  } catch {
    return false;
  }
  if (raw.includes('%')) return false;
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast';
  const v6 = addr as ipaddr.IPv6;
  return v6.match(GLOBAL_UNICAST) && v6.range() === 'unicast';
}

/** Host names that are never public (before any resolution): localhost, single labels, .internal, ... */
function isPrivateName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.+$/, ''); // "localhost." is localhost
  if (!h.includes('.')) return true; // single label: localhost, instance-data, search-domain names
  return (
    /(^|\.)(localhost|internal|local|localdomain|home\.arpa|intranet|lan|corp)$/.test(h) ||
    /\.(in-addr|ip6)\.arpa$/.test(h)
  );
}

/** Whether a URL host (as `URL.hostname` gives it) is refused before resolution. */
function isPrivateHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(h)) return !isPublicAddress(h);
  return isPrivateName(h);
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
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ApiError('BAD_USER_INPUT', 'a webhook url is http or https');
  if (url.username || url.password) throw new ApiError('BAD_USER_INPUT', 'a webhook url carries no credentials');
  if (!config.allowPrivateHosts && isPrivateHost(url.hostname))
    throw new ApiError('BAD_USER_INPUT', 'a webhook url must be a public host');
  return url;
}

const systemResolve = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/**
 * The lookup the delivery socket connects with: the host is resolved once, every address it
 * resolves to must be public, and the socket connects to that checked address (so a DNS answer
 * that changes between a check and the connection, DNS rebinding, cannot slip through).
 */
export function pinnedLookup(config: WebhookConfig): LookupFunction {
  const resolve = config.resolve ?? systemResolve;
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname)
      .then((addrs) => {
        if (addrs.length === 0) throw new Error(`${hostname} has no address`);
        const bad = config.allowPrivateHosts ? undefined : addrs.find((a) => !isPublicAddress(a.address));
        if (bad)
          throw new ApiError(
            'BAD_USER_INPUT',
            `the webhook host ${hostname} resolves to ${bad.address}, not a public host`,
          );
        if (options?.all) callback(null, addrs);
        else callback(null, addrs[0].address, addrs[0].family);
      })
      .catch((e) => callback(e));
  }) as LookupFunction;
}

/**
 * One POST, without redirects (a 3xx is a failed attempt), within the timeout, to an address
 * checked at connection time. Answers the HTTP status.
 */
export function post(url: URL, headers: Record<string, string>, body: string, config: WebhookConfig): Promise<number> {
  checkUrl(url.href, config); // literal hosts (an IP needs no lookup, so it is checked here)
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(config),
        agent: false,
      },
      (res) => {
        res.resume(); // the answer's body is never read
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`TimeoutError: no answer within ${config.timeoutMs} ms`)),
      config.timeoutMs,
    );
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

/**
 * The deprecated signature header's value (player webhooks only, since 2026-12-02): HMAC-SHA256
 * of the raw body alone, so a replayed body with a new timestamp header still verifies.
 */
export const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * The signature every delivery carries (SIGNATURE_V2_HEADER): `t=<timestamp>,sha256=<hex>`, the
 * HMAC-SHA256 with the registration's secret of `<timestamp>.<raw body>` (as Stripe signs), so
 * the timestamp a receiver checks for freshness cannot be changed without breaking it.
 */
export const signV2 = (secret: string, timestamp: string, body: string) =>
  `t=${timestamp},sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** A UUID-shaped id derived from its parts (one registration per owner and URL; one delivery per notice and registration). */
function derivedId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\n')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A registration and whether this call made it (false: the URL was registered already). */
export interface Registered {
  hook: WebhookRecord;
  created: boolean;
}

/**
 * Registers `url` for an owner once: its id is derived from the owner, the URL and the game, so
 * registering the same URL again (a retry, a second deploy of a site) answers the registration
 * already there, with its secret, and deliveries are never doubled. A new one must fit under
 * `max` (else `full()` is thrown).
 */
export async function registerOnce(
  services: Services,
  owner: WebhookOwner,
  url: string,
  gameId: string | null,
  max: number,
  full: () => ApiError,
): Promise<Registered> {
  checkUrl(url, services.webhooks);
  const ownerId = 'clientId' in owner ? `client:${owner.clientId}` : `player:${owner.playerId}`;
  const id = derivedId(ownerId, url, gameId ?? '');
  const existing = await services.store.notify.getWebhook(owner, id);
  if (existing) return { hook: existing, created: false };
  if ((await services.store.notify.listWebhooks(owner)).length >= max) throw full();
  const hook: WebhookRecord = {
    id,
    playerId: 'playerId' in owner ? owner.playerId : null,
    clientId: 'clientId' in owner ? owner.clientId : null,
    url,
    gameId,
    secret: randomBytes(32).toString('base64url'),
    createdAt: services.now().toISOString(),
  };
  if (await services.store.notify.putWebhook(hook)) return { hook, created: true };
  // A concurrent call registered the same URL first: its registration is the one.
  const won = await services.store.notify.getWebhook(owner, id);
  if (!won) throw new ApiError('CONFLICT', 'the webhook changed meanwhile; try again');
  return { hook: won, created: false };
}

export async function registerWebhook(
  services: Services,
  player: Player,
  url: string,
  gameId: string | null,
): Promise<Registered> {
  checkUrl(url, services.webhooks);
  if (gameId !== null) {
    // A private game the caller does not sit in answers exactly like a missing one.
    const game = (await load(services, gameId))?.rec;
    if (!game || (game.doc.spectators === false && seatOf(game.doc, player.id) === null))
      throw new ApiError('NOT_FOUND', `no game ${gameId}`);
  }
  return registerOnce(
    services,
    { playerId: player.id },
    url,
    gameId,
    MAX_WEBHOOKS_PER_PLAYER,
    () => new ApiError('CONFLICT', `at most ${MAX_WEBHOOKS_PER_PLAYER} webhooks per player; delete one first`),
  );
}

/** A delivery's id, derived from its notice and webhook: a notice handed twice makes one delivery. */
export const deliveryId = (n: Notice, hookId: string): string =>
  derivedId(n.gameId, String(n.version), n.kind, String(n.seat), n.playerId, hookId);

/** The integrator client a site user's player belongs to (its issuer is `site:<clientId>`); null for anyone else. */
async function clientOf(services: Services, playerId: string): Promise<string | null> {
  const rec = await services.players.get(services, playerId);
  return rec?.kind === 'site' && rec.issuer?.startsWith(SITE_PREFIX) ? rec.issuer.slice(SITE_PREFIX.length) : null;
}

/** The registrations a player's notices go to: the player's own, and the site's if the player is a site user. */
async function hooksFor(services: Services, playerId: string): Promise<WebhookRecord[]> {
  const [own, clientId] = await Promise.all([
    services.store.notify.listWebhooks({ playerId }),
    clientOf(services, playerId),
  ]);
  return clientId ? [...own, ...(await services.store.notify.listWebhooks({ clientId }))] : own;
}

/**
 * Stores one delivery per matching webhook of each notice's player (once: ids come from the
 * notice); returns the deliveries still pending, new or left by an earlier, interrupted hand-off.
 */
export async function recordDeliveries(services: Services, notices: Notice[]): Promise<DeliveryRecord[]> {
  const out: DeliveryRecord[] = [];
  const now = services.now().toISOString();
  const hooksOf = new Map<string, Promise<WebhookRecord[]>>();
  for (const n of notices) {
    if (!hooksOf.has(n.playerId)) hooksOf.set(n.playerId, hooksFor(services, n.playerId));
    for (const hook of await hooksOf.get(n.playerId)!) {
      if (hook.gameId !== null && hook.gameId !== n.gameId) continue;
      const id = deliveryId(n, hook.id);
      const body = JSON.stringify({
        deliveryId: id,
        webhookId: hook.id,
        playerId: n.playerId,
        gameId: n.gameId,
        kind: n.kind,
        seat: n.seat,
        version: n.version,
        actor: n.actor ?? null,
      });
      const d: DeliveryRecord = {
        id,
        hookId: hook.id,
        playerId: n.playerId,
        ...(hook.clientId ? { clientId: hook.clientId } : {}),
        body,
        attempts: 0,
        status: 'pending',
        nextAt: now,
        lastError: null,
        createdAt: now,
      };
      if (await services.store.notify.putDelivery(d)) out.push(d);
      else {
        const old = await services.store.notify.getDelivery(id);
        if (old && old.status === 'pending') out.push(old);
      }
    }
  }
  return out;
}

/**
 * Makes the next attempt of a pending delivery (claimed first, so concurrent callers never
 * send the same attempt twice) and records its outcome. Never throws for a bad receiver.
 */
export async function attempt(
  services: Services,
  d: DeliveryRecord,
): Promise<'delivered' | 'retry' | 'failed' | 'skipped'> {
  if (d.status !== 'pending') return 'skipped';
  const n = d.attempts + 1;
  const now = services.now();
  const retryAt = n < MAX_ATTEMPTS ? new Date(now.getTime() + backoffMs(n)) : null;
  if (!(await services.store.notify.claimDelivery(d.id, d.attempts, retryAt))) return 'skipped';
  const hook = await services.store.notify.getWebhook(
    d.clientId ? { clientId: d.clientId } : { playerId: d.playerId },
    d.hookId,
  );
  if (!hook) {
    await services.store.notify.settleDelivery(d.id, n, 'failed', 'the webhook was deleted');
    return 'failed';
  }
  let error: string | null = null;
  try {
    checkUrl(hook.url, services.webhooks);
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const body = JSON.stringify({ ...JSON.parse(d.body), attempt: n, sentAt: now.toISOString() });
    const status = await post(
      new URL(hook.url),
      {
        'content-type': 'application/json',
        'user-agent': 'libertalia-online-webhooks',
        // Player webhooks keep the body-only signature their receivers know (deprecated); site webhooks are new.
        ...(hook.clientId ? {} : { [SIGNATURE_HEADER]: sign(hook.secret, body) }),
        [SIGNATURE_V2_HEADER]: signV2(hook.secret, timestamp, body),
        [TIMESTAMP_HEADER]: timestamp,
        [DELIVERY_HEADER]: d.id,
        [WEBHOOK_HEADER]: hook.id,
        [PLAYER_HEADER]: d.playerId,
      },
      body,
      services.webhooks,
    );
    if (status < 200 || status > 299) error = `HTTP ${status}`;
  } catch (e) {
    error = e instanceof ApiError ? e.message : `${(e as Error).name}: ${(e as Error).message}`.slice(0, 200);
  }
  const status = error === null ? 'delivered' : retryAt ? 'pending' : 'failed';
  await services.store.notify.settleDelivery(d.id, n, status, error);
  const outcome = status === 'pending' ? 'retry' : status;
  count(METRIC.webhooks, 1, { outcome });
  if (error !== null) logger.warn('webhook attempt failed', { deliveryId: d.id, attempt: n, outcome, reason: error });
  return outcome;
}
