// Webhook registrations (a player's in the player's partition, a site's in its client's) and webhook deliveries (one item each,
// in the due-work index GSI3 while an attempt is due). Attempts are claimed with a conditional
// write on the attempt count, so two sweeps never send the same attempt twice.
import { type Db, deleteItem, getItem, isConditionFailed, putItem, queryItems, updateItem, wonRace } from './db.js';
import { keys } from './table.js';
import type { WebhookRecord, DeliveryRecord, WebhookOwner } from '../records.js';

/** Deliveries are kept a week after their creation (DynamoDB TTL on `expiresAt`). */
const KEEP_SECONDS = 7 * 24 * 3600;

const ownerKey = (o: WebhookOwner, hookId: string) =>
  'clientId' in o ? keys.siteWebhook(o.clientId, hookId) : keys.webhook(o.playerId, hookId);

/**
 * Writes a registration once: false if one with its id is there already (ids are derived from
 * the owner and the URL, so registering a URL again finds the first registration).
 */
export async function putWebhook(db: Db, w: WebhookRecord): Promise<boolean> {
  const owner: WebhookOwner = w.clientId ? { clientId: w.clientId } : { playerId: w.playerId as string };
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: {
        ...ownerKey(owner, w.id),
        id: w.id,
        ...(w.playerId ? { playerId: w.playerId } : {}),
        ...(w.clientId ? { clientId: w.clientId } : {}),
        url: w.url,
        secret: w.secret,
        createdAt: w.createdAt,
        ...(w.gameId ? { gameId: w.gameId } : {}),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

const toWebhook = (it: Record<string, unknown>): WebhookRecord => ({
  id: it.id as string,
  playerId: (it.playerId as string | undefined) ?? null,
  clientId: (it.clientId as string | undefined) ?? null,
  url: it.url as string,
  gameId: (it.gameId as string | undefined) ?? null,
  secret: it.secret as string,
  createdAt: it.createdAt as string,
});

export async function getWebhook(db: Db, owner: WebhookOwner, hookId: string): Promise<WebhookRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: ownerKey(owner, hookId), ConsistentRead: true });
  return r.Item ? toWebhook(r.Item) : null;
}

/** An owner's registrations, oldest first (an owner keeps only a few). */
export async function listWebhooks(db: Db, owner: WebhookOwner): Promise<WebhookRecord[]> {
  const r = await queryItems(db, {
    TableName: db.table,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :w)',
    ExpressionAttributeValues: { ':pk': ownerKey(owner, '').PK, ':w': 'WEBHOOK#' },
    ConsistentRead: true,
  });
  return (r.Items ?? []).map(toWebhook).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** False if there was no such registration. */
export async function deleteWebhook(db: Db, owner: WebhookOwner, hookId: string): Promise<boolean> {
  return wonRace(
    deleteItem(db, {
      TableName: db.table,
      Key: ownerKey(owner, hookId),
      ConditionExpression: 'attribute_exists(PK)',
    }),
  );
}

/** Writes a delivery once (ids are derived from the notice, so a notice handed twice is recorded once); false if it exists. */
export async function putDelivery(db: Db, d: DeliveryRecord): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: {
        ...keys.delivery(d.id),
        ...(d.status === 'pending' && d.nextAt ? keys.due('DELIVERY', d.nextAt, d.id) : {}),
        ...d,
        expiresAt: Math.floor(Date.parse(d.createdAt) / 1000) + KEEP_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getDelivery(db: Db, id: string): Promise<DeliveryRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.delivery(id), ConsistentRead: true });
  if (!r.Item) return null;
  const it = r.Item;
  return {
    id: it.id,
    hookId: it.hookId,
    playerId: it.playerId,
    ...(it.clientId ? { clientId: it.clientId } : {}),
    body: it.body,
    attempts: it.attempts,
    status: it.status,
    nextAt: it.nextAt ?? null,
    lastError: it.lastError ?? null,
    createdAt: it.createdAt,
  };
}

/**
 * Claims attempt `attempts + 1` of a pending delivery and schedules the retry after it at
 * `retryAt` (null: this is the last attempt). False if someone else claimed it first.
 */
export async function claimDelivery(db: Db, id: string, attempts: number, retryAt: string | null): Promise<boolean> {
  const due = retryAt ? keys.due('DELIVERY', retryAt, id) : null;
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.delivery(id),
      UpdateExpression: due
        ? 'SET attempts = :next, nextAt = :at, GSI3SK = :sk'
        : 'SET attempts = :next, nextAt = :null REMOVE GSI3PK, GSI3SK',
      ConditionExpression: 'attempts = :n AND #s = :pending',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':n': attempts,
        ':next': attempts + 1,
        ':pending': 'pending',
        ...(due ? { ':at': retryAt, ':sk': due.GSI3SK } : { ':null': null }),
      },
    }),
  );
}

/** Records the outcome of attempt `attempts`: delivered, failed for good, or still pending. */
export async function settleDelivery(
  db: Db,
  id: string,
  attempts: number,
  status: DeliveryRecord['status'],
  lastError: string | null,
): Promise<void> {
  try {
    await updateItem(db, {
      TableName: db.table,
      Key: keys.delivery(id),
      UpdateExpression:
        status === 'pending'
          ? 'SET #s = :s, lastError = :e'
          : 'SET #s = :s, lastError = :e, nextAt = :null REMOVE GSI3PK, GSI3SK',
      ConditionExpression: 'attempts = :n',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':n': attempts,
        ':s': status,
        ':e': lastError,
        ...(status === 'pending' ? {} : { ':null': null }),
      },
    });
  } catch (e) {
    // A newer attempt was claimed meanwhile: its outcome wins.
    if (!isConditionFailed(e)) throw e;
  }
}
