// Issue 23: the name claims migration (functions/api/accounts/migrate-names.ts, `npm run
// names:migrate`). A table written by the earlier versions holds claims under their keys: the
// first caseless skeleton (an account "Kidd" held `kidd`, while nameKey("Kidd") is now `kldd`, so
// a new "K1dd" was not blocked), the hand-written fold of the first version with site users under
// `<issuer>:<key>` (`site:dev-site:anne`), and guests without a claim. The keys below are what
// those versions wrote (computed with their nameKey, from git history).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { REFRESH_TOKEN_SECONDS } from '../../../functions/api/accounts/auth.js';
import { migrateNames, type NamesMigrationReport } from '../../../functions/api/accounts/migrate-names.js';
import { nameKey } from '../../../functions/api/accounts/names.js';
import { createDynamoStore, type PlayerRecord, type Store } from '../../../functions/store/index.js';
import { freshTable } from '../../setup/db.js';

const NOW = 1_800_000_000;
const AT = '2026-11-01T00:00:00.000Z';
const ids = (r: NamesMigrationReport['collisions']) => r.map((c) => [c.nameKey, c.holder.id, c.other.id]);

/** The players of the old table: name, kind, the key the old version wrote (item and record), extras. */
const OLD: (Omit<PlayerRecord, 'createdAt'> & { claim?: string | null; expiresAt?: number })[] = [
  // Second version (first skeleton): "Bill" and "B1ll" keyed apart, both accounts.
  { id: 'bill', name: 'Bill', kind: 'account', nameKey: 'bill' },
  { id: 'b1ll', name: 'B1ll', kind: 'account', nameKey: 'blll' },
  { id: 'kidd', name: 'Kidd', kind: 'account', nameKey: 'kidd' },
  // A guest of that version could take a look-alike of an account under the old key.
  { id: 'k1dd', name: 'K1dd', kind: 'guest' },
  // First version: the fold ("j" read as "l") and site users namespaced by their site.
  { id: 'jack', name: 'Jack', kind: 'account', nameKey: 'lack' },
  { id: 'anne', name: 'Anne', kind: 'site', issuer: 'site:dev-site', subject: 'u1', nameKey: 'site:dev-site:anne' },
  // ...which let a bot's look-alike and a filler through.
  { id: 'vane', name: 'Bօt Vane', kind: 'account', nameKey: 'bօtvane' },
  { id: 'filler', name: 'Anne\u3164Bonny', kind: 'account', nameKey: 'anne\u1160bonny' },
  // Guests from before names were unique: one that may still sign in, one that signed out.
  { id: 'mary', name: 'Mary', kind: 'guest' },
  { id: 'read', name: 'Read', kind: 'guest', revokedAt: NOW - 100 },
  // A guest of today, with its lapsing claim: not the migration's business.
  { id: 'bonny', name: 'Bonny', kind: 'guest', nameKey: 'bonny', expiresAt: NOW + 1000 },
  // An account of today whose rename crashed before freeing the old item (`rackham`).
  { id: 'rackham', name: 'Rackham', kind: 'account', nameKey: 'rackharn' },
  // An old item under a key that is another player's key now (the first version's "8ob" held `bob`).
  { id: '8ob', name: '8ob', kind: 'account', nameKey: 'bob' },
  { id: 'bob', name: 'Bob', kind: 'account', nameKey: 'bob', claim: null },
];

async function seed(client: DynamoDBDocumentClient, tableName: string, store: Store): Promise<void> {
  const put = (Item: Record<string, unknown>) => client.send(new PutCommand({ TableName: tableName, Item }));
  for (const { claim, expiresAt, ...p } of OLD) {
    await store.players.insertPlayer({ ...p, createdAt: AT });
    const key = claim === undefined ? p.nameKey : claim;
    if (key) await put({ PK: `NAME#${key}`, SK: 'NAME', playerId: p.id, ...(expiresAt ? { expiresAt } : {}) });
  }
  await put({ PK: 'NAME#rackham', SK: 'NAME', playerId: 'rackham' });
  await put({ PK: 'NAME#ghost', SK: 'NAME', playerId: 'nobody' });
}

/** Every item of the table, in a stable order. */
async function items(client: DynamoDBDocumentClient, tableName: string) {
  const out: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const r = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
    out.push(...(r.Items ?? []));
    ExclusiveStartKey = r.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out.sort((a, b) => `${a.PK}|${a.SK}`.localeCompare(`${b.PK}|${b.SK}`));
}

async function table() {
  const { client, tableName } = await freshTable('names');
  const store = createDynamoStore({ tableName, client });
  await seed(client, tableName, store);
  return { client, tableName, store };
}

/** What the migrated table must hold, however the run was paged. */
async function expectMigrated(store: Store, report: NamesMigrationReport): Promise<void> {
  const holder = async (key: string) => (await store.players.getNameClaim(key))?.playerId ?? null;
  // Moved: the claim under today's key, the record pointing at it, the old item gone.
  for (const [id, name, old] of [
    ['kidd', 'Kidd', 'kidd'],
    ['jack', 'Jack', 'lack'],
    ['anne', 'Anne', 'site:dev-site:anne'],
    ['vane', 'Bօt Vane', 'bօtvane'],
  ]) {
    expect(await holder(nameKey(name)), name).toBe(id);
    expect((await store.players.getPlayer(id))?.nameKey, name).toBe(nameKey(name));
    expect(await holder(old), `${name}'s old item`).toBeNull();
  }
  // A look-alike of a migrated name is taken now: "K1dd" (and the old guest "K1dd" holds nothing).
  expect(await store.players.claimName(nameKey('K1dd'), 'newcomer', { now: NOW })).toBe(false);
  expect(await store.players.claimName(nameKey('JACK'), 'newcomer', { now: NOW })).toBe(false);
  // "Bill" and "B1ll" share a skeleton now: B1ll held it already and keeps it; Bill keeps its
  // name and its old item; both are reported, as is the guest K1dd beside the account Kidd.
  expect(await holder(nameKey('Bill'))).toBe('b1ll');
  expect(await holder('bill')).toBe('bill');
  expect((await store.players.getPlayer('bill'))?.name).toBe('Bill');
  expect(await store.players.claimName(nameKey('B|ll'), 'newcomer', { now: NOW })).toBe(false);
  expect(ids(report.collisions)).toEqual(
    expect.arrayContaining([
      [nameKey('Bill'), 'b1ll', 'bill'],
      [nameKey('Kidd'), 'kidd', 'k1dd'],
    ]),
  );
  expect(report.collisions).toHaveLength(2);
  // Guests: the old one that may still sign in gets a claim lapsing with its longest-lived token;
  // the signed-out one gets none; today's keeps its claim and lapse.
  expect(await store.players.getNameClaim(nameKey('Mary'))).toEqual({
    nameKey: nameKey('Mary'),
    playerId: 'mary',
    expiresAt: NOW + REFRESH_TOKEN_SECONDS,
  });
  expect(await holder(nameKey('Read'))).toBeNull();
  expect(await store.players.getNameClaim('bonny')).toEqual({
    nameKey: 'bonny',
    playerId: 'bonny',
    expiresAt: NOW + 1000,
  });
  // The crashed rename's leftover is deleted; the old item of "8ob" under Bob's key gave way.
  expect(await holder('rackham')).toBeNull();
  expect(await holder('rackharn')).toBe('rackham');
  expect(await holder(nameKey('8ob'))).toBe('8ob');
  expect(await holder('bob')).toBe('bob');
  // For a human: names today's rules refuse, and a claim of no player.
  expect(report.refused.map((r) => r.id).sort()).toEqual(['filler', 'vane']);
  expect(report.orphans).toEqual([{ nameKey: 'ghost', playerId: 'nobody' }]);
  expect(report.cursor).toBeNull();
}

describe('npm run names:migrate', () => {
  let migrated: Awaited<ReturnType<typeof table>>;
  let first: NamesMigrationReport;

  beforeAll(async () => {
    migrated = await table();
    // Before: the old claims do not block look-alikes under today's key.
    expect(await migrated.store.players.getNameClaim(nameKey('K1dd'))).toBeNull();
    first = await migrateNames(migrated.store, { now: NOW });
  });

  it('claims every name under its skeleton, deletes old items only behind their new claim, reports collisions', async () => {
    await expectMigrated(migrated.store, first);
    expect(first.players).toBe(OLD.length);
    expect(first.claimed).toBeGreaterThan(0);
    expect(first.released).toBeGreaterThan(0);
  });

  it('changes nothing when run again (the script against the same table)', async () => {
    const before = await items(migrated.client, migrated.tableName);
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/names-migrate.ts'], {
      env: { ...process.env, DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), TABLE_NAME: migrated.tableName },
    });
    const again = JSON.parse(stdout) as NamesMigrationReport;
    expect(await items(migrated.client, migrated.tableName)).toEqual(before);
    expect([again.claimed, again.repointed, again.released]).toEqual([0, 0, 0]);
    expect(ids(again.collisions)).toEqual(ids(first.collisions));
  });

  it('resumes from the cursor of each page, with the same outcome', async () => {
    const t = await table();
    const collisions: NamesMigrationReport['collisions'] = [];
    const refused: NamesMigrationReport['refused'] = [];
    const orphans: NamesMigrationReport['orphans'] = [];
    let from: string | null = null;
    let runs = 0;
    do {
      const r = await migrateNames(t.store, { now: NOW, from, pageSize: 3, pages: 1 });
      collisions.push(...r.collisions);
      refused.push(...r.refused);
      orphans.push(...r.orphans);
      from = r.cursor;
      runs++;
    } while (from);
    expect(runs).toBeGreaterThan(3);
    await expectMigrated(t.store, { ...first, collisions, refused, orphans, cursor: null });
  });
});
