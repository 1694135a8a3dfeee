// The game side of the Operations port's contract (ports.ts), on every adapter: the due-work
// index (deadlines, logs to archive, open outboxes), the outbox protocol, archives and retention.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOutboxId, type Store } from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';
import { AT, commit, game, history } from './game-fixtures.js';

const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 0, minutes)).toISOString();

describe.each(ADAPTERS)('Operations (games) on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });

  describe('outboxes', () => {
    it("a commit's notices are in its outbox (due work of kind OUTBOX at its time) from the same put until clearOutbox, which checks the commit id and is a no-op twice", async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      const notices = [{ kind: 'yourTurn', seat: 1 }];
      const when = at(2);
      expect(await store.log.appendCommit(g.id, commit(2, 1, 1, { notices, cid: 'c-2', at: when }))).toBe(true);
      expect(await store.log.appendCommit(g.id, commit(3, 2, 1))).toBe(true); // no notices: no outbox
      const id = `${g.id}#2`;
      expect(await store.ops.listDue('OUTBOX', new Date(at(1)), 1000)).not.toContain(id);
      const due = await store.ops.listDue('OUTBOX', new Date(when), 1000);
      expect(due).toContain(id);
      expect(due).not.toContain(`${g.id}#3`);
      expect(parseOutboxId(id)).toEqual({ gameId: g.id, firstSeq: 2 });
      expect(await store.ops.getOutbox(g.id, 2)).toEqual({ cid: 'c-2', notices });
      expect(await store.ops.getOutbox(g.id, 3)).toBeNull();
      expect(await store.ops.clearOutbox(g.id, 2, 'another writer')).toBe(false);
      expect(await store.ops.clearOutbox(g.id, 2, 'c-2')).toBe(true);
      expect(await store.ops.clearOutbox(g.id, 2, 'c-2')).toBe(false); // once
      expect(await store.ops.listDue('OUTBOX', new Date(when), 1000)).not.toContain(id);
      expect(await store.ops.getOutbox(g.id, 2)).toBeNull();
      // The commit itself, notices included, is untouched.
      const tail = (await store.log.loadGame(g.id))!.tail;
      expect(tail.find((c) => c.firstSeq === 2)).toMatchObject({ notices, cid: 'c-2' });
    });

    it('a commit with notices but no commit id has no outbox', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0, 1, { notices: [{ kind: 'x' }] }));
      expect(await store.ops.getOutbox(g.id, 1)).toBeNull();
      expect(await store.ops.listDue('OUTBOX', new Date(AT), 1000)).not.toContain(`${g.id}#1`);
      expect(await store.ops.clearOutbox(g.id, 1, '')).toBe(false);
      expect(await store.ops.clearOutbox('no such game', 1, 'c')).toBe(false);
    });

    it('names a commit by its id: null without a commit, empty without an id', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      await store.log.appendCommit(g.id, commit(2, 1, 1, { cid: 'c-2' }));
      expect(await store.ops.getCommitId(g.id, 1)).toBe('');
      expect(await store.ops.getCommitId(g.id, 2)).toBe('c-2');
      expect(await store.ops.getCommitId(g.id, 3)).toBeNull();
      expect(await store.ops.getCommitId('no such game', 1)).toBeNull();
    });
  });

  describe('archives and retention', () => {
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
      const read = (await store.log.loadGame(g.id))!.game!;
      expect(read).not.toHaveProperty('archiveAt');
      expect(read.version).toBe(3);
      expect((await store.log.listGamesByStatus('FINISHED', 1000)).ids).toContain(g.id); // still listed by status
      expect(await store.ops.markArchived(g.id, 3)).toBe(false); // once
      expect(await store.ops.markArchived('no such game', 1)).toBe(false);
    });

    it('markArchived refuses a snapshot that also has a deadline (it is GAME work first)', async () => {
      const g = game({ status: 'ACTIVE', dueAt: at(5), archiveAt: at(1) });
      await store.log.insertGame(g, commit(1, 0));
      expect(await store.ops.markArchived(g.id, 1)).toBe(false);
      expect((await store.log.loadGame(g.id))!.game!.archiveAt).toBe(at(1));
    });

    it('expireCommits leaves every record readable (expiry is the database’s, later) and creates no commit', async () => {
      const { g, lastSeq } = await history(store, 5, 5);
      await store.members.putMember(g.id, 'p1', g.createdAt);
      await store.ops.saveArchive(g.id, { commands: [{ seq: 3, c: { seat: 0, play: 7 } }] }, AT);
      const before = await store.log.listCommits(g.id);
      await store.ops.expireCommits(g.id, [1, 2, 4, 6], 1_900_000_000);
      await store.ops.expireCommits(g.id, [1, 2], 1_900_000_000); // again: nothing changes
      await store.ops.expireCommits(g.id, [99], 1_900_000_000); // no such commit: not created
      await store.ops.expireCommits('no such game', [1], 1_900_000_000);
      expect(await store.log.listCommits(g.id)).toEqual(before);
      expect(await store.ops.getCommitId(g.id, 99)).toBeNull();
      expect(await store.log.loadGame('no such game')).toBeNull();
      expect(await store.log.getArchive(g.id)).toEqual({ commands: [{ seq: 3, c: { seat: 0, play: 7 } }] });
      expect(await store.members.listMemberGameIds('p1', 10)).toContain(g.id);
      const head = await store.log.loadGame(g.id);
      expect(head!.game!.lastSeq).toBe(lastSeq);
      expect(head!.tail).toEqual([]);
    });
  });
});

describe.each(ADAPTERS)('the due-work index on $name', (adapter) => {
  // Each case reads the whole index: a store of its own.
  let store: Store;
  beforeEach(async () => {
    store = await adapter.make();
  });

  it('lists deadlines due at or before now, earliest first, at most limit; a newer snapshot moves or removes its entry', async () => {
    const games = [4, 1, 3, 2].map((m) => game({ status: 'ACTIVE', dueAt: at(m) }));
    for (const g of games) await store.log.insertGame(g, commit(1, 0));
    const byTime = [...games].sort((a, b) => a.dueAt!.localeCompare(b.dueAt!)).map((g) => g.id);
    expect(await store.ops.listDue('GAME', new Date(at(10)), 100)).toEqual(byTime);
    expect(await store.ops.listDue('GAME', new Date(at(10)), 2)).toEqual(byTime.slice(0, 2));
    expect(await store.ops.listDue('GAME', new Date(at(3)), 100)).toEqual(byTime.slice(0, 3)); // at 3 exactly: due
    expect(await store.ops.listDue('GAME', new Date(at(0)), 100)).toEqual([]);
    await expect(store.ops.listDue('GAME', new Date(at(10)), 0)).rejects.toThrow(); // a caller's bug
    const [g4, g1] = games;
    await store.log.saveSnapshot({ ...g4, version: 2, dueAt: at(0) });
    await store.log.saveSnapshot({ ...g1, version: 2, dueAt: null });
    expect(await store.ops.listDue('GAME', new Date(at(10)), 100)).toEqual([g4.id, ...byTime.slice(1, 3)]);
    // A snapshot refused (older) changes no entry.
    await store.log.saveSnapshot({ ...g1, version: 1, dueAt: at(0) });
    expect(await store.ops.listDue('GAME', new Date(at(10)), 100)).not.toContain(g1.id);
  });

  it('a deadline hides the archive time: LOG work only once the deadline is gone', async () => {
    const g = game({ status: 'FINISHED', dueAt: at(2), archiveAt: at(1) });
    await store.log.insertGame(g, commit(1, 0));
    const now = new Date(at(10));
    expect(await store.ops.listDue('GAME', now, 100)).toEqual([g.id]);
    expect(await store.ops.listDue('LOG', now, 100)).toEqual([]);
    await store.log.saveSnapshot({ ...g, version: 2, dueAt: null });
    expect(await store.ops.listDue('GAME', now, 100)).toEqual([]);
    expect(await store.ops.listDue('LOG', now, 100)).toEqual([g.id]);
  });

  it('lists open outboxes by commit time, earliest first, each once until cleared', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.log.insertGame(g, commit(1, 0, 1, { notices: [1], cid: 'c1', at: at(3) }));
    await store.log.appendCommit(g.id, commit(2, 1, 2, { notices: [2], cid: 'c2', at: at(1) }));
    await store.log.appendCommit(g.id, commit(3, 3, 1, { notices: [3], cid: 'c3', at: at(2) }));
    const now = new Date(at(10));
    expect(await store.ops.listDue('OUTBOX', now, 100)).toEqual([`${g.id}#2`, `${g.id}#4`, `${g.id}#1`]);
    expect(await store.ops.listDue('OUTBOX', now, 1)).toEqual([`${g.id}#2`]);
    await store.ops.clearOutbox(g.id, 4, 'c3');
    expect(await store.ops.listDue('OUTBOX', now, 100)).toEqual([`${g.id}#2`, `${g.id}#1`]);
    expect(await store.ops.listDue('GAME', now, 100)).toEqual([]);
  });
});
