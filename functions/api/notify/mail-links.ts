// Signed mail links: `unsubscribe` (turns a player's reminders off) and `confirm` (confirms the
// address it was sent to). A token is `<purpose>.<player id>.<address>.<HMAC-SHA256>`, each part
// base64url, the MAC over the first three with the table's mail key (store/reminders.ts
// `mailKey`): nobody can make a link for another player, nor move a confirmation to another address.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';

export type LinkPurpose = 'unsubscribe' | 'confirm';

export interface LinkClaims {
  purpose: LinkPurpose;
  playerId: string;
  /** The address the link was sent to ('' for unsubscribe: it works whatever the address). */
  email: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');
const mac = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest();

export async function signLink(services: Services, claims: LinkClaims): Promise<string> {
  const payload = [claims.purpose, claims.playerId, claims.email].map(b64).join('.');
  return `${payload}.${mac(await services.store.notify.mailKey(), payload).toString('base64url')}`;
}

/** The claims of a token whose MAC verifies and whose purpose is `purpose`; null otherwise (forged, cut, another kind). */
export async function verifyLink(services: Services, token: string, purpose: LinkPurpose): Promise<LinkClaims | null> {
  if (token.length > 1000) return null;
  const parts = token.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return null;
  const payload = parts.slice(0, 3).join('.');
  const expected = mac(await services.store.notify.mailKey(), payload);
  const given = Buffer.from(parts[3], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [p, playerId, email] = parts.slice(0, 3).map(unb64);
  return p === purpose ? { purpose, playerId, email } : null;
}
