// The in-memory twin of dynamo/webhooks.ts: registrations by owner (a player or a site's
// client), written once; deliveries written once, their attempts claimed once on the attempt
// count, and listed as due work (kind DELIVERY) while pending with a next attempt.
import type { Notify } from '../ports.js';
import type { DeliveryRecord, WebhookOwner, WebhookRecord } from '../records.js';
import { byKey, copy, dueIndex } from './pages.js';

type Webhooks = Pick<Notify, 'putWebhook' | 'getWebhook' | 'listWebhooks' | 'deleteWebhook'>;
type Deliveries = Pick<Notify, 'putDelivery' | 'getDelivery' | 'claimDelivery' | 'settleDelivery'>;

const ownerOf = (o: WebhookOwner) => ('clientId' in o ? `CLIENT#${o.clientId}` : `PLAYER#${o.playerId}`);

/** A registration as the adapter reads it back (absent fields as null). */
const toWebhook = (w: WebhookRecord): WebhookRecord => ({
  id: w.id,
  playerId: w.playerId || null,
  clientId: w.clientId || null,
  url: w.url,
  gameId: w.gameId || null,
  secret: w.secret,
  createdAt: w.createdAt,
});

export function memoryWebhooks(): Webhooks {
  const owners = new Map<string, Map<string, WebhookRecord>>();
  const of = (o: WebhookOwner) => owners.get(ownerOf(o)) ?? new Map<string, WebhookRecord>();
  return {
    async putWebhook(w) {
      const owner = ownerOf(w.clientId ? { clientId: w.clientId } : { playerId: w.playerId as string });
      const hooks = owners.get(owner) ?? new Map<string, WebhookRecord>();
      if (hooks.has(w.id)) return false;
      owners.set(owner, hooks.set(w.id, toWebhook(w)));
      return true;
    },
    getWebhook: async (owner, hookId) => {
      const w = of(owner).get(hookId);
      return w ? toWebhook(w) : null;
    },
    listWebhooks: async (owner) =>
      [...of(owner)]
        .sort(([a], [b]) => byKey(a, b))
        .map(([, w]) => toWebhook(w))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    deleteWebhook: async (owner, hookId) => of(owner).delete(hookId),
  };
}

export function memoryDeliveries(): { deliveries: Deliveries; due: ReturnType<typeof dueIndex>['due'] } {
  const items = new Map<string, DeliveryRecord>();
  const index = dueIndex();
  const deliveries: Deliveries = {
    async putDelivery(d) {
      if (items.has(d.id)) return false;
      items.set(d.id, copy(d));
      if (d.status === 'pending' && d.nextAt) index.set(d.id, d.nextAt);
      return true;
    },
    getDelivery: async (id) => {
      const d = items.get(id);
      return d ? toDelivery(d) : null;
    },
    async claimDelivery(id, attempts, retryAt) {
      const d = items.get(id);
      if (!d || d.attempts !== attempts || d.status !== 'pending') return false;
      d.attempts = attempts + 1;
      d.nextAt = retryAt ? retryAt.toISOString() : null;
      // The adapter moves the index entry's time; it never lists a delivery that was not listed.
      if (!retryAt || index.has(id)) index.set(id, d.nextAt);
      return true;
    },
    async settleDelivery(id, attempts, status, lastError) {
      const d = items.get(id);
      // A newer attempt was claimed meanwhile: its outcome wins.
      if (!d || d.attempts !== attempts) return;
      Object.assign(d, { status, lastError }, status === 'pending' ? {} : { nextAt: null });
      if (status !== 'pending') index.set(id, null);
    },
  };
  return { deliveries, due: index.due };
}

const toDelivery = (d: DeliveryRecord): DeliveryRecord => ({
  id: d.id,
  hookId: d.hookId,
  playerId: d.playerId,
  ...(d.clientId ? { clientId: d.clientId } : {}),
  body: d.body,
  attempts: d.attempts,
  status: d.status,
  nextAt: d.nextAt ?? null,
  lastError: d.lastError ?? null,
  createdAt: d.createdAt,
});
