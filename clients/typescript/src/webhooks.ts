// Verifying a webhook delivery on the receiving site (docs/webhooks.md): the signature header
// `x-libertalia-signature-v2: t=<timestamp>,sha256=<hex>` is the HMAC-SHA256, with the
// registration's secret, of `<timestamp>.<raw body>`. Checking it and the timestamp's freshness
// proves the body came from the service, unchanged, recently (a replayed old delivery is refused).
// Web Crypto only (globalThis.crypto: Node 20+, browsers, workers), compared in constant time.

/** What a delivery's JSON body says (unknown keys may be added: ignore them). */
export interface WebhookDelivery {
  deliveryId: string;
  /** The registration (Webhook.id or SiteWebhook.id). */
  webhookId: string;
  /** The player the notice is for: with a site webhook, which of the site's users. */
  playerId: string;
  gameId: string;
  kind: 'yourTurn' | 'gameEnded' | 'seatReplaced';
  seat: number;
  version: number;
  actor: { playerId: string | null; clientId: string | null } | null;
  attempt: number;
  sentAt: string;
}

export const SIGNATURE_HEADER = 'x-libertalia-signature-v2';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const hexToBytes = (hex: string) => {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
};

/**
 * Checks a delivery: `signature` is the `x-libertalia-signature-v2` header, `body` the raw body
 * exactly as received (not re-serialized JSON). Throws WebhookVerificationError unless the
 * signature matches and its timestamp is within `toleranceSeconds` (default 300) of `now`;
 * returns the parsed body.
 */
export async function verifyWebhook(opts: {
  secret: string;
  body: string;
  signature: string | null | undefined;
  toleranceSeconds?: number;
  now?: Date;
}): Promise<WebhookDelivery> {
  const parts = Object.fromEntries(
    String(opts.signature ?? '')
      .split(',')
      .map((p) => p.trim().split('=', 2) as [string, string]),
  );
  const t = parts.t;
  const mac = parts.sha256;
  if (!t || !/^\d+$/.test(t) || !mac || !/^[0-9a-f]{64}$/.test(mac))
    throw new WebhookVerificationError(`no ${SIGNATURE_HEADER} header of the form t=<timestamp>,sha256=<hex>`);
  const age = Math.abs((opts.now ?? new Date()).getTime() / 1000 - Number(t));
  if (age > (opts.toleranceSeconds ?? 300))
    throw new WebhookVerificationError(`the delivery's timestamp is ${Math.round(age)} s away from now`);
  const enc = new TextEncoder();
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    enc.encode(opts.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const ok = await globalThis.crypto.subtle.verify('HMAC', key, hexToBytes(mac), enc.encode(`${t}.${opts.body}`));
  if (!ok)
    throw new WebhookVerificationError('the signature does not match (wrong secret, or a changed body or timestamp)');
  return JSON.parse(opts.body) as WebhookDelivery;
}
