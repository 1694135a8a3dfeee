// The GameLog port's contract (ports.ts), on every adapter: the commit protocol's conditional
// writes under races, what a load reads, the commit and event pages, the status index, request
// claims and archives.
import { beforeAll, describe, expect, it } from 'vitest';
import { HEAD_COMMITS, type Store } from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';
import { AT, commit, game, history } from './game-fixtures.js';

describe.each(ADAPTERS)('GameLog on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });

  describe('conditional writes', () => {
    it('inserts once and loads what was written', async () => {
      const g = game();
      expect(await store.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }))).toBe(true);
      expect(await store.log.insertGame({ ...g, doc: { note: 'other' } }, commit(1, 0, 1))).toBe(false);
      expect(await store.log.loadGame<{ note: string }>(g.id)).toEqual({ game: g, tail: [] });
      expect(await store.log.loadGame('nope')).toBeNull();
    });

    it('of two inserts of one id at once, exactly one wins, and the snapshot is the winner’s', async () => {
      const g = game();
      const [a, b] = await Promise.all(
        (['a', 'b'] as const).map((note) =>
          store.log.insertGame({ ...g, doc: { note } }, commit(1, 0, 1, { body: { note } })),
        ),
      );
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const head = await store.log.loadGame<{ note: string }>(g.id);
      expect(head!.game!.doc.note).toBe(a ? 'a' : 'b');
      expect(await store.log.listCommits(g.id)).toEqual([commit(1, 0, 1, { body: { note: a ? 'a' : 'b' } })]);
    });

    it('of two appendCommit on one seq at once, exactly one is true, and a reload finds the winner', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      const mine = commit(2, 1, 1, { body: { who: 'mine' } });
      const theirs = commit(2, 1, 3, { body: { who: 'theirs' } });
      const wins = await Promise.all([store.log.appendCommit(g.id, mine), store.log.appendCommit(g.id, theirs)]);
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await store.log.loadGame(g.id))!.tail).toEqual([wins[0] ? mine : theirs]);
      // The loser retries on the new version: its commit goes after the winner's events.
      const next = wins[0] ? 2 : 4;
      expect(await store.log.appendCommit(g.id, commit(3, next, 1))).toBe(true);
      expect((await store.log.loadGame(g.id))!.tail.map((c) => c.version)).toEqual([2, 3]);
    });

    it('exactly one of eight racing writers of the same version wins its commit', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      const racers = Array.from({ length: 8 }, (_, i) => commit(2, 1, 1 + (i % 3), { body: { who: i } }));
      const wins = await Promise.all(racers.map((c) => store.log.appendCommit(g.id, c)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await store.log.loadGame(g.id))!.tail).toEqual([racers[wins.indexOf(true)]]);
    });

    it('refuses a commit without events (its key is its first event’s seq)', async () => {
      await expect(store.log.appendCommit(game().id, commit(1, 0, 0))).rejects.toThrow(/at least one event/);
    });

    it('a snapshot never moves backwards', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      expect(await store.log.saveSnapshot({ ...g, version: 3, doc: { note: 'v3' } })).toBe(true);
      expect(await store.log.saveSnapshot({ ...g, version: 2, doc: { note: 'v2' } })).toBe(false);
      expect(await store.log.saveSnapshot({ ...g, version: 3, doc: { note: 'again' } })).toBe(false);
      expect((await store.log.loadGame<{ note: string }>(g.id))!.game!.doc.note).toBe('v3');
    });

    it('of snapshots written at once in any order, the newest stays', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      const versions = [5, 2, 7, 3, 6, 4];
      const saved = await Promise.all(
        versions.map((v) => store.log.saveSnapshot({ ...g, version: v, doc: { note: `v${v}` } })),
      );
      expect(saved[versions.indexOf(7)]).toBe(true);
      const head = await store.log.loadGame<{ note: string }>(g.id);
      expect(head!.game).toMatchObject({ version: 7, doc: { note: 'v7' } });
      expect(await store.log.saveSnapshot({ ...g, version: 6 })).toBe(false);
    });

    it('writes a first snapshot for a game that has only commits', async () => {
      const g = game();
      await store.log.appendCommit(g.id, commit(1, 0));
      expect(await store.log.saveSnapshot(g)).toBe(true);
      expect((await store.log.loadGame(g.id))!.game).toEqual(g);
    });
  });

  describe('loads', () => {
    it('reads the commits past the snapshot, also a longer tail a crash left', async () => {
      const { g } = await history(store, HEAD_COMMITS + 1, HEAD_COMMITS - 1);
      const head = await store.log.loadGame(g.id);
      expect(head!.game!.version).toBe(HEAD_COMMITS - 1);
      expect(head!.tail.map((c) => c.version)).toEqual([HEAD_COMMITS, HEAD_COMMITS + 1]);
      const long = await history(store, 12, 2);
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

    it('keeps the optional fields a record has and reads absent ones as the port says', async () => {
      const g = game({ status: 'FINISHED', unlisted: true, dueAt: '2024-02-01T00:00:00.000Z', archiveAt: AT });
      const c = commit(1, 0, 2, {
        request: 'p1#r1',
        actor: { playerId: 'p1', clientId: null },
        cid: 'c-1',
        notices: [{ to: 'p1' }],
      });
      await store.log.insertGame(g, c);
      expect(await store.log.loadGame(g.id)).toEqual({ game: g, tail: [] });
      expect(await store.log.listCommits(g.id)).toEqual([c]);
      const plain = game();
      await store.log.insertGame({ ...plain, unlisted: false, archiveAt: null }, commit(1, 0));
      const read = (await store.log.loadGame(plain.id))!.game!;
      expect(read.dueAt).toBeNull();
      expect(read).not.toHaveProperty('unlisted');
      expect(read).not.toHaveProperty('archiveAt');
      const [first] = await store.log.listCommits(plain.id);
      for (const field of ['request', 'actor', 'cid']) expect(first).not.toHaveProperty(field);
    });

    it('stores big values and reads them back', async () => {
      const g = game({ doc: { note: 'x'.repeat(20_000) } });
      const big = commit(1, 0, 300, { body: { blob: 'y'.repeat(50_000) } });
      await store.log.insertGame(g, big);
      const head = await store.log.loadGame<{ note: string }>(g.id);
      expect(head!.game!.doc.note).toHaveLength(20_000);
      expect((await store.log.listCommits(g.id))[0]).toEqual(big);
    });

    it('answers fresh records: changing what was written or read changes nothing stored', async () => {
      const g = game({ doc: { note: 'kept' } });
      const first = commit(1, 0);
      await store.log.insertGame(g, first);
      g.doc.note = 'changed after the write';
      (first.events[0].data as { seq: number }).seq = 99;
      const head = await store.log.loadGame<{ note: string }>(g.id);
      head!.game!.doc.note = 'changed after the read';
      const [c] = await store.log.listCommits(g.id);
      c.events[0].data.seq = 42;
      expect((await store.log.loadGame<{ note: string }>(g.id))!.game!.doc.note).toBe('kept');
      expect((await store.log.listCommits(g.id))[0].events[0].data).toEqual({ seq: 1 });
    });
  });

  describe('commit lists', () => {
    it('lists commits by first seq, inclusive bounds, oldest first', async () => {
      const { g } = await history(store, 6, 6); // first seqs 1, 2, 4, 6, 8, 10
      const seqs = async (from?: number, to?: number) =>
        (await store.log.listCommits(g.id, from, to)).map((c) => c.firstSeq);
      expect(await seqs()).toEqual([1, 2, 4, 6, 8, 10]);
      expect(await seqs(4)).toEqual([4, 6, 8, 10]);
      expect(await seqs(3, 8)).toEqual([4, 6, 8]);
      expect(await seqs(0, 2)).toEqual([1, 2]);
      expect(await seqs(11)).toEqual([]);
      expect(await store.log.listCommits('no such game')).toEqual([]);
      // An upside-down range is a caller's bug, refused (DynamoDB refuses the query).
      await expect(store.log.listCommits(g.id, 5, 3)).rejects.toThrow();
      await expect(store.log.listRecipes(g.id, 0, 0)).rejects.toThrow();
    });

    it('lists recipes without events (placeholders, as many), notices or commit ids', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      const full = commit(2, 1, 3, {
        notices: [{ kind: 'yourTurn' }],
        cid: 'c-2',
        request: 'p#r',
        actor: { playerId: 'p', clientId: 'site' },
      });
      await store.log.appendCommit(g.id, full);
      const [, recipe] = await store.log.listRecipes(g.id);
      const { cid: _cid, ...kept } = full;
      expect(recipe).toEqual({
        ...kept,
        events: Array.from({ length: 3 }, () => ({ type: '', data: {} })),
        notices: [],
      });
      expect((await store.log.listRecipes(g.id, 2, 2)).map((c) => c.version)).toEqual([2]);
    });

    it('finds the commit that applied a request', async () => {
      const g = game({ status: 'ACTIVE' });
      await store.log.insertGame(g, commit(1, 0));
      await store.log.appendCommit(g.id, commit(2, 1, 2));
      await store.log.appendCommit(g.id, commit(3, 3, 1, { request: 'p#r1' }));
      await store.log.appendCommit(g.id, commit(4, 4, 1));
      expect((await store.log.findRequestCommit(g.id, 1, 'p#r1'))!.version).toBe(3);
      expect((await store.log.findRequestCommit(g.id, 3, 'p#r1'))!.version).toBe(3);
      expect(await store.log.findRequestCommit(g.id, 4, 'p#r1')).toBeNull();
      expect(await store.log.findRequestCommit(g.id, 0, 'p#other')).toBeNull();
    });
  });

  describe('the event feed', () => {
    it('pages by seq, from a commit boundary or from inside a commit', async () => {
      const { g, lastSeq } = await history(store, 30, 10); // seqs 1..59: commit 1 holds seq 1, then 2 per commit
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
        [70, 5],
      ]) {
        const page = await store.log.listEvents(g.id, after, limit);
        const want = all.events.filter((e) => e.seq > after).slice(0, limit);
        expect(page.events).toEqual(want);
        expect(page.hasMore).toBe(after + limit < lastSeq);
      }
    });

    it('names the actor of each event’s commit', async () => {
      const g = game({ status: 'ACTIVE' });
      const actor = { playerId: 'p1', clientId: null };
      await store.log.insertGame(g, commit(1, 0, 2, { actor }));
      const { events } = await store.log.listEvents(g.id, 0, 10);
      expect(events.map((e) => e.actor)).toEqual([actor, actor]);
      expect(await store.log.listEvents('no such game', 0, 10)).toEqual({ events: [], hasMore: false });
    });
  });

  describe('several games', () => {
    it('getGames reads snapshots, the tail only of games that have one, and leaves missing ids out', async () => {
      const fresh = game({ status: 'ACTIVE' });
      await store.log.insertGame(fresh, commit(1, 0));
      const { g: stale } = await history(store, 3, 2);
      const onlyCommits = game();
      await store.log.appendCommit(onlyCommits.id, commit(1, 0));
      for (const consistent of [true, false]) {
        const ids = [fresh.id, stale.id, 'missing', fresh.id, onlyCommits.id];
        const heads = await store.log.getGames(ids, consistent);
        const byId = Object.fromEntries(heads.map((h) => [h.game!.id, h]));
        expect(Object.keys(byId).sort()).toEqual([fresh.id, stale.id].sort());
        expect(heads).toHaveLength(2);
        expect(byId[fresh.id]).toEqual({ game: fresh, tail: [] });
        expect(byId[stale.id].tail.map((c) => c.version)).toEqual([3]);
      }
      expect(await store.log.getGames([])).toEqual([]);
    });
  });

  describe('request claims and archives', () => {
    it('a request id is claimed once; the claim keeps the first fingerprint', async () => {
      const now = new Date();
      expect(await store.log.getRequest('g', 'p', 'r1')).toBeNull();
      expect(await store.log.claimRequest('g', 'p', 'r1', { fingerprint: 'a', after: 2 }, now)).toBe(true);
      expect(await store.log.claimRequest('g', 'p', 'r1', { fingerprint: 'b', after: 3 }, now)).toBe(false);
      expect(await store.log.getRequest('g', 'p', 'r1')).toEqual({ fingerprint: 'a', after: 2 });
      expect(await store.log.getRequest('g', 'other', 'r1')).toBeNull();
      expect(await store.log.getRequest('other', 'p', 'r1')).toBeNull();
    });

    it('of claims of one request id at once, exactly one wins', async () => {
      const g = game();
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          store.log.claimRequest(g.id, 'p', 'r', { fingerprint: `f${i}`, after: i }, new Date()),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      const i = claims.indexOf(true);
      expect(await store.log.getRequest(g.id, 'p', 'r')).toEqual({ fingerprint: `f${i}`, after: i });
      expect(await store.log.loadGame(g.id)).toBeNull(); // a claim is not a game
    });

    it('an archive reads back as saved (the last one saved), null before', async () => {
      const { g } = await history(store, 2, 2);
      expect(await store.log.getArchive(g.id)).toBeNull();
      await store.ops.saveArchive(g.id, { commands: [1] }, AT);
      await store.ops.saveArchive(g.id, { commands: [1, 2] }, AT);
      expect(await store.log.getArchive(g.id)).toEqual({ commands: [1, 2] });
      await expect(store.ops.saveArchive(g.id, undefined, AT)).rejects.toThrow(); // not a value
      expect(await store.log.getArchive(g.id)).toEqual({ commands: [1, 2] });
      expect((await store.log.loadGame(g.id))!.tail).toEqual([]); // not part of the log
    });
  });
});

describe.each(ADAPTERS)('the status index on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });

  it('lists games by status newest first, in pages with a cursor; unlisted, cancelled and finished ones leave the lobby list', async () => {
    const lobbies = Array.from({ length: 23 }, () => game());
    for (const g of lobbies) await store.log.insertGame(g, commit(1, 0, 1, { status: 'LOBBY' }));
    const newestFirst = [...lobbies].reverse().map((g) => g.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { ids: string[]; cursor: string | null } = await store.log.listGamesByStatus('LOBBY', 5, cursor);
      expect(page.ids.length).toBe(Math.min(5, 23 - seen.length));
      seen.push(...page.ids);
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    const [a, b, c] = lobbies;
    await store.log.saveSnapshot({ ...a, version: 2, status: 'ACTIVE' });
    await store.log.saveSnapshot({ ...b, version: 2, unlisted: true });
    await store.log.saveSnapshot({ ...c, version: 2, status: 'CANCELLED' });
    expect((await store.log.listGamesByStatus('LOBBY', 100)).ids).toEqual(
      newestFirst.filter((id) => ![a.id, b.id, c.id].includes(id)),
    );
    expect((await store.log.listGamesByStatus('ACTIVE', 10)).ids).toEqual([a.id]);
    await store.log.saveSnapshot({ ...a, version: 3, status: 'FINISHED' });
    await store.log.saveSnapshot({ ...b, version: 3, unlisted: false });
    expect((await store.log.listGamesByStatus('ACTIVE', 10)).ids).toEqual([]);
    expect((await store.log.listGamesByStatus('FINISHED', 10)).ids).toEqual([a.id]);
    expect((await store.log.listGamesByStatus('LOBBY', 100)).ids).toContain(b.id);
  });

  it('pages oldest first on request, answers each game’s creation time, and ends without a cursor on an exact last page', async () => {
    const s = await adapter.make();
    const games = Array.from({ length: 6 }, () => game({ status: 'ACTIVE' }));
    for (const g of games) await s.log.insertGame(g, commit(1, 0));
    const first = await s.log.listGamesByStatus('ACTIVE', 3, null, true);
    expect(first.ids).toEqual(games.slice(0, 3).map((g) => g.id));
    expect(first.createdAt).toEqual(games.slice(0, 3).map((g) => g.createdAt));
    expect(first.cursor).not.toBeNull();
    const second = await s.log.listGamesByStatus('ACTIVE', 3, first.cursor, true);
    expect(second.ids).toEqual(games.slice(3).map((g) => g.id));
    expect(second.cursor).toBeNull();
    // A cursor is exclusive: the page after the newest page's cursor starts with the next game.
    const newest = await s.log.listGamesByStatus('ACTIVE', 2);
    expect((await s.log.listGamesByStatus('ACTIVE', 2, newest.cursor)).ids).toEqual([games[3].id, games[2].id]);
    expect(await s.log.listGamesByStatus('LOBBY', 5)).toEqual({ ids: [], cursor: null, createdAt: [] });
    await expect(s.log.listGamesByStatus('ACTIVE', 0)).rejects.toThrow(); // a page of nothing: a caller's bug
  });
});
