import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkSchema,
  type CommitRecord,
  createDynamoStore,
  type GameRecord,
  HEAD_COMMITS,
  INDEX_SHARDS,
  OldSchemaError,
  parseOutboxId,
  shardOf,
  type Store,
} from '../../functions/store/index.js';
import { freshTable } from '../setup/db.js';

let store: Store;
let client: DynamoDBDocumentClient;
let tableName: string;
let n = 0;

beforeAll(async () => {
  ({ client, tableName } = await freshTable('store'));
  store = createDynamoStore({ tableName, client });
});

const AT = '2024-01-01T00:00:00.000Z';

function game(over: Partial<GameRecord> = {}): GameRecord<{ note: string }> {
  n++;
  return {
    id: `g${n}-${Date.now()}`,
    version: 1,
    status: 'LOBBY',
    createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString(),
    updatedAt: AT,
    doc: { note: 'hello' },
    lastSeq: 1,
    dueAt: null,
    ...over,
  } as GameRecord<{ note: string }>;
}

/** Commit `version` with `events` events, right after `lastSeq`. */
const commit = (version: number, lastSeq: number, events = 1, over: Partial<CommitRecord> = {}): CommitRecord => ({
  version,
  firstSeq: lastSeq + 1,
  at: AT,
  status: 'ACTIVE',
  events: Array.from({ length: events }, (_, i) => ({ type: 'x', data: { seq: lastSeq + 1 + i } })),
  body: { v: version },
  notices: [],
  ...over,
});

/** Inserts a game, then appends commits 2..count (2 events each), snapshotting through `snapTo`. */
async function history(count: number, snapTo: number) {
  const g = game({ status: 'ACTIVE' });
  await store.log.insertGame(g, commit(1, 0));
  let lastSeq = 1;
  for (let v = 2; v <= count; v++) {
    expect(await store.log.appendCommit(g.id, commit(v, lastSeq, 2))).toBe(true);
    lastSeq += 2;
    if (v <= snapTo) await store.log.saveSnapshot({ ...g, version: v, lastSeq });
  }
  return { g, lastSeq };
}

describe('game log and snapshot', () => {
  it('inserts once and loads what was written', async () => {
    const g = game();
    expect(await store.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }))).toBe(true);
    expect(await store.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }))).toBe(false);
    expect(await store.log.loadGame<{ note: string }>(g.id)).toEqual({ game: g, tail: [] });
    expect(await store.log.loadGame('nope')).toBeNull();
  });

  it('exactly one of racing writers of the same version wins its commit', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.log.insertGame(g, commit(1, 0));
    const racers = Array.from({ length: 8 }, (_, i) => commit(2, 1, 1 + (i % 3), { body: { who: i } }));
    const wins = await Promise.all(racers.map((c) => store.log.appendCommit(g.id, c)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const head = await store.log.loadGame(g.id);
    expect(head!.tail).toEqual([racers[wins.indexOf(true)]]);
  });

  it('a snapshot never moves backwards', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.log.insertGame(g, commit(1, 0));
    expect(await store.log.saveSnapshot({ ...g, version: 3, doc: { note: 'v3' } })).toBe(true);
    expect(await store.log.saveSnapshot({ ...g, version: 2, doc: { note: 'v2' } })).toBe(false);
    expect(await store.log.saveSnapshot({ ...g, version: 3, doc: { note: 'again' } })).toBe(false);
    expect((await store.log.loadGame<{ note: string }>(g.id))!.game!.doc.note).toBe('v3');
  });

  it('reads the commits past the snapshot in one query, and a longer tail a crash left in two', async () => {
    const { g } = await history(HEAD_COMMITS + 1, HEAD_COMMITS - 1);
    const head = await store.log.loadGame(g.id);
    expect(head!.game!.version).toBe(HEAD_COMMITS - 1);
    expect(head!.tail.map((c) => c.version)).toEqual([HEAD_COMMITS, HEAD_COMMITS + 1]);
    const long = await history(12, 2);
    const h2 = await store.log.loadGame(long.g.id);
    expect(h2!.tail.map((c) => c.version)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(h2!.tail[0].firstSeq).toBe(h2!.game!.lastSeq + 1);
  });

  it('a game whose first snapshot was never written is read from its commits', async () => {
    const g = game();
    expect(await store.log.appendCommit(g.id, commit(1, 0, 3, { status: 'LOBBY' }))).toBe(true);
    const head = await store.log.loadGame(g.id);
    expect(head!.game).toBeNull();
    expect(head!.tail.map((c) => c.version)).toEqual([1]);
  });

  it('stores big bodies deflated and reads them back', async () => {
    const g = game({ doc: { note: 'x'.repeat(20_000) } });
    const big = commit(1, 0, 300, { body: { blob: 'y'.repeat(50_000) } });
    await store.log.insertGame(g, big);
    const head = await store.log.loadGame<{ note: string }>(g.id);
    expect(head!.game!.doc.note).toHaveLength(20_000);
    expect((await store.log.listCommits(g.id))[0]).toEqual(big);
  });

  it('finds the commit that applied a request', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.log.insertGame(g, commit(1, 0));
    await store.log.appendCommit(g.id, commit(2, 1, 2));
    await store.log.appendCommit(g.id, commit(3, 3, 1, { request: 'p#r1' }));
    await store.log.appendCommit(g.id, commit(4, 4, 1));
    expect((await store.log.findRequestCommit(g.id, 1, 'p#r1'))!.version).toBe(3);
    expect(await store.log.findRequestCommit(g.id, 4, 'p#r1')).toBeNull();
    expect(await store.log.findRequestCommit(g.id, 0, 'p#other')).toBeNull();
  });
});

describe('event feed from commit items', () => {
  it('pages by seq, from a commit boundary or from inside a commit', async () => {
    const { g, lastSeq } = await history(30, 10); // seqs 1..59: commit 1 holds seq 1, then 2 per commit
    const all = await store.log.listEvents(g.id, 0, 100);
    expect(all.events.map((e) => e.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
    expect(all.hasMore).toBe(false);
    expect(all.events[4]).toEqual({ seq: 5, at: AT, type: 'x', data: { seq: 5 } });
    for (const [after, limit] of [
      [0, 7],
      [1, 10],
      [2, 10],
      [3, 1],
      [57, 5],
      [58, 1],
      [59, 5],
      [20, 39],
      [20, 38],
    ]) {
      const page = await store.log.listEvents(g.id, after, limit);
      const want = all.events.filter((e) => e.seq > after).slice(0, limit);
      expect(page.events).toEqual(want);
      expect(page.hasMore).toBe(after + limit < lastSeq);
    }
  });
});

describe('sharded indexes', () => {
  it('spreads ids over every shard', () => {
    const seen = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`game-${i}`)));
    expect(seen.size).toBe(INDEX_SHARDS);
  });

  it('lists games by status newest first across shards, in pages with a cursor; unlisted and finished ones leave the lobby list', async () => {
    const { client: c2, tableName: t2 } = await freshTable('status');
    const s = createDynamoStore({ tableName: t2, client: c2 });
    const lobbies = Array.from({ length: 23 }, () => game());
    for (const g of lobbies) await s.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }));
    const newestFirst = [...lobbies].reverse().map((g) => g.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { ids: string[]; cursor: string | null } = await s.log.listGamesByStatus('LOBBY', 5, cursor);
      expect(page.ids.length).toBeLessThanOrEqual(5);
      seen.push(...page.ids);
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    const [a, b] = lobbies;
    await s.log.saveSnapshot({ ...a, version: 2, status: 'ACTIVE' });
    await s.log.saveSnapshot({ ...b, version: 2, unlisted: true });
    expect((await s.log.listGamesByStatus('LOBBY', 100)).ids).toEqual(
      newestFirst.filter((id) => id !== a.id && id !== b.id),
    );
    expect((await s.log.listGamesByStatus('ACTIVE', 10)).ids).toEqual([a.id]);
    await s.log.saveSnapshot({ ...a, version: 3, status: 'FINISHED' });
    expect((await s.log.listGamesByStatus('ACTIVE', 10)).ids).toEqual([]);
    expect((await s.log.listGamesByStatus('FINISHED', 10)).ids).toEqual([a.id]);
  });

  it('getGames reads snapshots in a batch and the tail only of games that have one', async () => {
    const fresh = game({ status: 'ACTIVE' });
    await store.log.insertGame(fresh, commit(1, 0));
    const { g: stale } = await history(3, 2);
    const heads = await store.log.getGames([fresh.id, stale.id, 'missing', fresh.id]);
    const byId = Object.fromEntries(heads.map((h) => [h.game!.id, h]));
    expect(Object.keys(byId).sort()).toEqual([fresh.id, stale.id].sort());
    expect(byId[fresh.id].tail).toEqual([]);
    expect(byId[stale.id].tail.map((c) => c.version)).toEqual([3]);
  });
});

describe('players, members and request claims', () => {
  it('indexes a player’s games newest first', async () => {
    const pid = `member-${Date.now()}`;
    await store.members.putMember('old', pid, '2024-01-01T00:00:00.000Z');
    await store.members.putMember('new', pid, '2024-02-01T00:00:00.000Z');
    await store.members.putMember('new', pid, '2024-02-01T00:00:00.000Z'); // idempotent
    expect(await store.members.listMemberGameIds(pid, 10)).toEqual(['new', 'old']);
    await store.members.deleteMember('new', pid);
    expect(await store.members.listMemberGameIds(pid, 10)).toEqual(['old']);
  });

  it('a request id is claimed once; the claim keeps the first fingerprint', async () => {
    const now = new Date();
    expect(await store.log.getRequest('g', 'p', 'r1')).toBeNull();
    expect(await store.log.claimRequest('g', 'p', 'r1', { fingerprint: 'a', after: 2 }, now)).toBe(true);
    expect(await store.log.claimRequest('g', 'p', 'r1', { fingerprint: 'b', after: 3 }, now)).toBe(false);
    expect(await store.log.getRequest('g', 'p', 'r1')).toEqual({ fingerprint: 'a', after: 2 });
  });
});

describe('schema check', () => {
  it('marks an empty table, accepts it again, and refuses a table written by the first version', async () => {
    const { client: c3, tableName: t3 } = await freshTable('schema');
    await checkSchema(c3, t3);
    await checkSchema(c3, t3);
    const { client: c4, tableName: t4 } = await freshTable('old');
    await c4.send(
      new PutCommand({
        TableName: t4,
        Item: { PK: 'GAME#old', SK: 'GAME', version: 3, doc: '{}', outbox: '[]', requests: '{}' },
      }),
    );
    await expect(checkSchema(c4, t4)).rejects.toThrow(OldSchemaError);
    await expect(checkSchema(c4, t4)).rejects.toThrow(/mv \.data \.data-v1/);
  });
});

describe('retention of games that are over (TTL on the log)', () => {
  const raw = async (Key: Record<string, string>) =>
    (await client.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }))).Item;

  it("a commit's notices are in its outbox (due work of kind OUTBOX at its time) from the same put until clearOutbox, which checks the commit id and is a no-op twice", async () => {
    const g = game({ status: 'ACTIVE' });
    await store.log.insertGame(g, commit(1, 0));
    const notices = [{ kind: 'yourTurn', seat: 1 }];
    const at = '2024-01-01T00:02:00.000Z';
    expect(await store.log.appendCommit(g.id, commit(2, 1, 1, { notices, cid: 'c-2', at }))).toBe(true);
    expect(await store.log.appendCommit(g.id, commit(3, 2, 1))).toBe(true); // no notices: no outbox
    const id = `${g.id}#2`;
    expect(await store.ops.listDue('OUTBOX', new Date('2024-01-01T00:01:59.000Z'), 1000)).not.toContain(id);
    const due = await store.ops.listDue('OUTBOX', new Date(at), 1000);
    expect(due).toContain(id);
    expect(due).not.toContain(`${g.id}#3`);
    expect(parseOutboxId(id)).toEqual({ gameId: g.id, firstSeq: 2 });
    expect(await store.ops.getOutbox(g.id, 2)).toEqual({ cid: 'c-2', notices });
    expect(await store.ops.getOutbox(g.id, 3)).toBeNull();
    expect(await store.ops.clearOutbox(g.id, 2, 'another writer')).toBe(false);
    expect(await store.ops.clearOutbox(g.id, 2, 'c-2')).toBe(true);
    expect(await store.ops.clearOutbox(g.id, 2, 'c-2')).toBe(false); // once
    expect(await store.ops.listDue('OUTBOX', new Date(at), 1000)).not.toContain(id);
    expect(await store.ops.getOutbox(g.id, 2)).toBeNull();
    // The commit itself, notices included, is untouched.
    const tail = (await store.log.loadGame(g.id))!.tail;
    expect(tail.find((c) => c.firstSeq === 2)).toMatchObject({ notices, cid: 'c-2' });
  });

  it('a snapshot with archiveAt is due work of kind LOG (not GAME) until markArchived, which checks the version', async () => {
    const g = game({ status: 'FINISHED', version: 3, lastSeq: 5, archiveAt: '2024-01-02T00:00:00.000Z' });
    await store.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }));
    const now = new Date('2024-01-03T00:00:00.000Z');
    expect(await store.ops.listDue('LOG', now, 1000)).toContain(g.id);
    expect(await store.ops.listDue('GAME', now, 1000)).not.toContain(g.id);
    expect(await store.ops.listDue('LOG', new Date('2024-01-01T00:00:00.000Z'), 1000)).not.toContain(g.id);
    expect((await store.log.loadGame(g.id))!.game!.archiveAt).toBe('2024-01-02T00:00:00.000Z');
    expect(await store.ops.markArchived(g.id, 2)).toBe(false);
    expect(await store.ops.listDue('LOG', now, 1000)).toContain(g.id);
    expect(await store.ops.markArchived(g.id, 3)).toBe(true);
    expect(await store.ops.listDue('LOG', now, 1000)).not.toContain(g.id);
    const snap = await raw({ PK: `GAME#${g.id}`, SK: 'GAME' });
    expect(snap).not.toHaveProperty('archiveAt');
    expect(snap).not.toHaveProperty('GSI3PK');
    expect(snap).toHaveProperty('GSI2PK'); // still listed by status
    expect(await store.ops.markArchived(g.id, 3)).toBe(false); // once
  });

  it('expireCommits writes expiresAt on the named commit items only: never on the snapshot, the members, the archive or other commits', async () => {
    const { g, lastSeq } = await history(5, 5);
    await store.members.putMember(g.id, 'p1', g.createdAt);
    await store.ops.saveArchive(g.id, { commands: [{ seq: 3, c: { seat: 0, play: 7 } }] }, AT);
    const t = 1_900_000_000;
    // Commits 1..4 (first seqs 1, 2, 4, 6); commit 5 (first seq 8) is left out.
    await store.ops.expireCommits(g.id, [1, 2, 4, 6], t);
    await store.ops.expireCommits(g.id, [1, 2], t); // again: nothing changes
    for (const seq of [1, 2, 4, 6])
      expect((await raw({ PK: `GAME#${g.id}`, SK: `COMMIT#${String(seq).padStart(10, '0')}` }))!.expiresAt).toBe(t);
    expect(await raw({ PK: `GAME#${g.id}`, SK: 'COMMIT#0000000008' })).not.toHaveProperty('expiresAt');
    for (const SK of ['GAME', 'MEMBER#p1', 'ARCHIVE'])
      expect(await raw({ PK: `GAME#${g.id}`, SK })).not.toHaveProperty('expiresAt');
    expect(await store.log.getArchive(g.id)).toEqual({ commands: [{ seq: 3, c: { seat: 0, play: 7 } }] });
    // A commit that does not exist is not created by the update.
    await store.ops.expireCommits(g.id, [99], t);
    expect(await raw({ PK: `GAME#${g.id}`, SK: 'COMMIT#0000000099' })).toBeUndefined();
    // The archive item is outside the range a game load reads.
    const head = await store.log.loadGame(g.id);
    expect(head!.game!.lastSeq).toBe(lastSeq);
    expect(head!.tail).toEqual([]);
  });

  it('a game whose commit items are gone (TTL) still loads from its snapshot, alone and in a batch', async () => {
    const { g, lastSeq } = await history(4, 4);
    for (const seq of [1, 2, 4, 6])
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: { PK: `GAME#${g.id}`, SK: `COMMIT#${String(seq).padStart(10, '0')}` },
        }),
      );
    const head = await store.log.loadGame(g.id);
    expect(head).toEqual({ game: { ...g, version: 4, lastSeq }, tail: [] });
    expect(await store.log.getGames([g.id], false)).toEqual([head]);
    expect((await store.log.listEvents(g.id, 0, 10)).events).toEqual([]);
  });
});
