// Items that tie players to the outside world, each one small item with a conditional write:
// - identity: `IDENTITY#<issuer>#<subject>` / `IDENTITY` -> playerId (an OpenID Provider's user,
//   or an integrator's user with issuer `site:<clientId>`): who a verified token is;
// - name: `NAME#<nameKey>` / `NAME` -> playerId: a display name's confusable skeleton, held by
//   the one player (account, guest or site user) bearing it (see functions/api/accounts/names.ts);
//   a guest's claim carries `expiresAt` and lapses with the guest's sessions.
import { type Db, deleteItem, getItem, putItem, scanKind, updateItem, wonRace } from './db.js';
import { TTL_ATTRIBUTE } from './table.js';
import type { NameClaim } from '../records.js';

export const accountKeys = {
  identity: (issuer: string, subject: string) => ({ PK: `IDENTITY#${issuer}#${subject}`, SK: 'IDENTITY' }),
  name: (nameKey: string) => ({ PK: `NAME#${nameKey}`, SK: 'NAME' }),
};

/** The player of an identity, or null. */
export async function getIdentity(db: Db, issuer: string, subject: string): Promise<string | null> {
  const r = await getItem(db, { TableName: db.table, Key: accountKeys.identity(issuer, subject) });
  return (r.Item?.playerId as string | undefined) ?? null;
}

/** Ties an identity to a player once; false if it is already tied (to anyone). */
export async function putIdentity(
  db: Db,
  issuer: string,
  subject: string,
  playerId: string,
  createdAt: string,
): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...accountKeys.identity(issuer, subject), playerId, issuer, subject, createdAt },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/**
 * Reserves a name for a player; false if another player holds it (idempotent for the holder).
 * `expiresAt` (epoch seconds, the table's TTL attribute): a guest's claim, which lapses with the
 * guest's last refresh token; without it the claim is permanent (accounts, site users, and a
 * guest's claim rewritten when it links to an account). A lapsed claim counts as free at `now`
 * even before DynamoDB's TTL has deleted it.
 */
export async function claimName(
  db: Db,
  nameKey: string,
  playerId: string,
  claim: { now: number; expiresAt?: number },
): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: {
        ...accountKeys.name(nameKey),
        playerId,
        ...(claim.expiresAt === undefined ? {} : { [TTL_ATTRIBUTE]: claim.expiresAt }),
      },
      ConditionExpression: 'attribute_not_exists(PK) OR playerId = :p OR #ttl < :now',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':p': playerId, ':now': claim.now },
    }),
  );
}

/** Moves a guest's claim's lapse to `expiresAt` (a refresh); false if the player no longer holds the name. */
export async function renewName(db: Db, nameKey: string, playerId: string, expiresAt: number): Promise<boolean> {
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: accountKeys.name(nameKey),
      UpdateExpression: 'SET #ttl = :e',
      ConditionExpression: 'playerId = :p AND attribute_exists(#ttl)',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':p': playerId, ':e': expiresAt },
    }),
  );
}

/** Frees a name the player holds (no-op otherwise); true if an item of the player's was deleted. */
export async function releaseName(db: Db, nameKey: string, playerId: string): Promise<boolean> {
  return wonRace(
    deleteItem(db, {
      TableName: db.table,
      Key: accountKeys.name(nameKey),
      ConditionExpression: 'playerId = :p',
      ExpressionAttributeValues: { ':p': playerId },
    }),
  );
}

const toClaim = (it: Record<string, unknown>): NameClaim => ({
  nameKey: (it.PK as string).slice('NAME#'.length),
  playerId: it.playerId as string,
  ...(typeof it[TTL_ATTRIBUTE] === 'number' ? { expiresAt: it[TTL_ATTRIBUTE] as number } : {}),
});

/** The claim item of a name key (lapsed or not), or null (a strongly consistent read). */
export async function getNameClaim(db: Db, nameKey: string): Promise<NameClaim | null> {
  const r = await getItem(db, { TableName: db.table, Key: accountKeys.name(nameKey), ConsistentRead: true });
  return r.Item ? toClaim(r.Item) : null;
}

/**
 * One page of every name claim item (a table scan: maintenance scripts only, e.g. the name claims
 * migration), paged like scanPlayers.
 */
export async function scanNameClaims(
  db: Db,
  limit: number,
  cursor: string | null,
): Promise<{ claims: NameClaim[]; cursor: string | null }> {
  const page = await scanKind(db, { sk: 'NAME', pkPrefix: 'NAME#' }, limit, cursor);
  return { claims: page.items.map(toClaim), cursor: page.cursor };
}
