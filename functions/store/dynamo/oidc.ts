// The local OpenID Provider's state (functions/local/oidc.ts: oidc-provider's models: sessions,
// interactions, grants, codes, refresh tokens ...) in the service table, so that a restart of
// `npm start` keeps everyone signed in and nothing is evicted to make room (the provider's own
// memory store was an LRU of 1,000 entries: a flood of sign-in attempts signed people out).
//
// | Item | PK | SK | Attributes |
// | Model entry | `OIDC#<model>#<id>` | `OIDC` | `payload` (JSON), `expiresAt` (TTL), `consumed`? |
// | By uid (sessions) | `OIDCUID#<uid>` | `OIDC` | `ref` (the entry's PK), `expiresAt` |
// | By grant | `OIDCGRANT#<grantId>` | `<model>#<id>` | `ref`, `expiresAt` |
// | By account (grants, sessions) | `OIDCACCOUNT#<accountId>` | `<model>#<id>` | `ref`, `expiresAt` |
//
// Expired entries are never answered (DynamoDB's TTL deletes late, dynalite never): a read past
// `expiresAt` deletes the entry and answers nothing.
import { type Db, deleteItem, getItem, putItem, queryItems, updateItem } from './db.js';
import type { OidcEntry } from '../records.js';

const entryKey = (model: string, id: string) => ({ PK: `OIDC#${model}#${id}`, SK: 'OIDC' });
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function queryAll(db: Db, pk: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const r = await queryItems(db, {
      TableName: db.table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
      ExclusiveStartKey: startKey,
    });
    out.push(...(r.Items ?? []));
    startKey = r.LastEvaluatedKey;
  } while (startKey);
  return out;
}

/** Writes an entry for `expiresIn` seconds, with its lookups (uid, grant, account). */
export async function putOidc(
  db: Db,
  model: string,
  id: string,
  payload: Record<string, unknown>,
  expiresIn: number,
): Promise<void> {
  const key = entryKey(model, id);
  const expiresAt = nowSeconds() + Math.max(1, Math.ceil(expiresIn));
  await putItem(db, { TableName: db.table, Item: { ...key, payload: JSON.stringify(payload), expiresAt } });
  const pointer = (PK: string, SK: string) =>
    putItem(db, { TableName: db.table, Item: { PK, SK, ref: key.PK, expiresAt } });
  const writes: Promise<unknown>[] = [];
  if (typeof payload.uid === 'string') writes.push(pointer(`OIDCUID#${payload.uid}`, 'OIDC'));
  if (typeof payload.grantId === 'string') writes.push(pointer(`OIDCGRANT#${payload.grantId}`, `${model}#${id}`));
  if ((model === 'Grant' || model === 'Session') && typeof payload.accountId === 'string')
    writes.push(pointer(`OIDCACCOUNT#${payload.accountId}`, `${model}#${id}`));
  await Promise.all(writes);
}

/** The entry, unless it is missing or expired (an expired one is deleted). */
export async function getOidc(db: Db, model: string, id: string): Promise<OidcEntry | null> {
  return getByPk(db, entryKey(model, id).PK);
}

async function getByPk(db: Db, pk: string): Promise<OidcEntry | null> {
  const r = await getItem(db, { TableName: db.table, Key: { PK: pk, SK: 'OIDC' }, ConsistentRead: true });
  if (!r.Item) return null;
  if (Number(r.Item.expiresAt) <= nowSeconds()) {
    await deleteItem(db, { TableName: db.table, Key: { PK: pk, SK: 'OIDC' } });
    return null;
  }
  return {
    payload: JSON.parse(String(r.Item.payload)) as Record<string, unknown>,
    ...(r.Item.consumed !== undefined ? { consumed: Number(r.Item.consumed) } : {}),
  };
}

/** A session by its uid. */
export async function getOidcByUid(db: Db, uid: string): Promise<OidcEntry | null> {
  const r = await getItem(db, { TableName: db.table, Key: { PK: `OIDCUID#${uid}`, SK: 'OIDC' }, ConsistentRead: true });
  if (!r.Item || Number(r.Item.expiresAt) <= nowSeconds()) return null;
  return getByPk(db, String(r.Item.ref));
}

/** Marks a one-time entry (an authorization code, a rotated refresh token) as used. */
export async function consumeOidc(db: Db, model: string, id: string): Promise<void> {
  await updateItem(db, {
    TableName: db.table,
    Key: entryKey(model, id),
    UpdateExpression: 'SET #c = :t',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeNames: { '#c': 'consumed' },
    ExpressionAttributeValues: { ':t': nowSeconds() },
  }).catch((e) => {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  });
}

export async function deleteOidc(db: Db, model: string, id: string): Promise<void> {
  await deleteItem(db, { TableName: db.table, Key: entryKey(model, id) });
}

/** Deletes every entry of a grant (its tokens and codes): a revoked grant's refresh tokens stop working. */
export async function revokeOidcGrant(db: Db, grantId: string): Promise<void> {
  const pk = `OIDCGRANT#${grantId}`;
  const items = await queryAll(db, pk);
  await Promise.all(
    items.map(async (it) => {
      await deleteItem(db, { TableName: db.table, Key: { PK: String(it.ref), SK: 'OIDC' } });
      await deleteItem(db, { TableName: db.table, Key: { PK: pk, SK: it.SK } });
    }),
  );
}

/**
 * Ends an account at the provider (its player signed out): every grant (with its refresh
 * tokens) and every provider session of the account is deleted.
 */
export async function revokeOidcAccount(db: Db, accountId: string): Promise<void> {
  const pk = `OIDCACCOUNT#${accountId}`;
  const items = await queryAll(db, pk);
  await Promise.all(
    items.map(async (it) => {
      const [model, id] = String(it.SK).split('#');
      if (model === 'Grant') await revokeOidcGrant(db, id);
      await deleteItem(db, { TableName: db.table, Key: { PK: String(it.ref), SK: 'OIDC' } });
      await deleteItem(db, { TableName: db.table, Key: { PK: pk, SK: it.SK } });
    }),
  );
}
