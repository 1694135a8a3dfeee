// E-mail turn reminders: one settings item per player (in the player's partition, listed in the
// due-work index GSI3 as kind REMIND while the sweep has something to check for it), one mark
// per mail that must go at most once (a turn's reminder, a day's digest, an address's
// confirmation), and the key that signs mail links. Every write is one conditional single-item write.
import { randomBytes } from 'node:crypto';
import { type Db, deleteItem, getItem, putItem, wonRace } from './db.js';
import { keys, TTL_ATTRIBUTE } from './table.js';
import type { ReminderRecord } from '../records.js';

export async function getReminders(db: Db, playerId: string): Promise<ReminderRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.reminders(playerId), ConsistentRead: true });
  if (!r.Item) return null;
  const { PK: _pk, SK: _sk, GSI3PK: _g, GSI3SK: _s, ...rec } = r.Item;
  return rec as ReminderRecord;
}

/**
 * Writes the settings (the whole item), listed as due work at `checkAt` when set. With
 * `ifUpdatedAt` only if the item still has that `updatedAt` (the sweep's rescheduling must not
 * undo a change the player made meanwhile): false when it changed.
 */
export async function putReminders(db: Db, rec: ReminderRecord, ifUpdatedAt?: string): Promise<boolean> {
  const due = rec.checkAt ? keys.due('REMIND', rec.checkAt, rec.playerId) : {};
  const condition =
    ifUpdatedAt === undefined
      ? {}
      : { ConditionExpression: 'updatedAt = :u', ExpressionAttributeValues: { ':u': ifUpdatedAt } };
  return wonRace(
    putItem(db, { TableName: db.table, Item: { ...keys.reminders(rec.playerId), ...due, ...rec }, ...condition }),
  );
}

/**
 * Claims a once-only mark (`TURN#...`, `DIGEST#<day>`, `CONFIRM#...`) for a player: true for the
 * one caller that wrote it, false if it was there already. Kept `ttlDays` (then DynamoDB deletes it).
 */
export async function claimMailMark(
  db: Db,
  playerId: string,
  mark: string,
  now: Date,
  ttlDays: number,
): Promise<boolean> {
  const expires = Math.floor(now.getTime() / 1000) + ttlDays * 86_400;
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...keys.mailMark(playerId, mark), at: now.toISOString(), [TTL_ATTRIBUTE]: expires },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** Gives a mark back (its mail could not go: over the day's limit, or the transport failed). */
export async function releaseMailMark(db: Db, playerId: string, mark: string): Promise<void> {
  await deleteItem(db, { TableName: db.table, Key: keys.mailMark(playerId, mark) });
}

/**
 * The key that signs mail links (unsubscribe, confirm), created once by whoever needs it first
 * (a conditional put: two racing creators agree on the winner's). It lives in the table because
 * a link only changes what the table holds: whoever can read the key can write the settings
 * anyway, and the sweep (which signs the links) then needs no secret.
 */
export async function mailKey(db: Db): Promise<string> {
  const read = async () =>
    (await getItem(db, { TableName: db.table, Key: keys.mailKey(), ConsistentRead: true })).Item?.secret as
      | string
      | undefined;
  const found = await read();
  if (found) return found;
  await wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...keys.mailKey(), secret: randomBytes(32).toString('base64url') },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  const made = await read();
  if (!made) throw new Error('the mail link key could not be read back');
  return made;
}
