// The Members port's contract (ports.ts), on every adapter: the player -> games index, newest
// first by the game's creation time, in pages with an exclusive cursor.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';

const day = (d: number) => new Date(Date.UTC(2024, 0, d)).toISOString();

describe.each(ADAPTERS)('Members on $name', (adapter) => {
  let store: Store;
  let n = 0;
  const player = () => `member-${++n}-${Date.now()}`;
  beforeAll(async () => {
    store = await adapter.make();
  });

  it('indexes a player’s games newest first; a repeated put changes nothing; a delete takes one out', async () => {
    const pid = player();
    await store.members.putMember('old', pid, day(1));
    await store.members.putMember('new', pid, day(2));
    await store.members.putMember('new', pid, day(2)); // idempotent
    expect(await store.members.listMemberGameIds(pid, 10)).toEqual(['new', 'old']);
    expect(await store.members.listMemberGameIds(pid, 1)).toEqual(['new']);
    await store.members.deleteMember('new', pid);
    await store.members.deleteMember('new', pid); // gone already: nothing to do
    await store.members.deleteMember('never', pid);
    expect(await store.members.listMemberGameIds(pid, 10)).toEqual(['old']);
    expect(await store.members.listMemberGameIds(player(), 10)).toEqual([]);
    await expect(store.members.listMemberGameIds(pid, 0)).rejects.toThrow(); // a page of nothing: a caller's bug
  });

  it('keeps each player’s games apart, and one game’s seats apart', async () => {
    const [a, b] = [player(), player()];
    await store.members.putMember('shared', a, day(3));
    await store.members.putMember('shared', b, day(3));
    await store.members.putMember('only-a', a, day(4));
    await store.members.deleteMember('shared', b);
    expect(await store.members.listMemberGameIds(a, 10)).toEqual(['only-a', 'shared']);
    expect(await store.members.listMemberGameIds(b, 10)).toEqual([]);
  });

  it('orders games created at the same time by id, and moves a game put again with another creation time', async () => {
    const pid = player();
    for (const id of ['b', 'a', 'c']) await store.members.putMember(id, pid, day(5));
    expect(await store.members.listMemberGameIds(pid, 10)).toEqual(['c', 'b', 'a']);
    await store.members.putMember('a', pid, day(6));
    expect(await store.members.listMemberGameIds(pid, 10)).toEqual(['a', 'c', 'b']);
  });

  it('pages newest first across pages; the last page has no cursor; a cursor is exclusive', async () => {
    const pid = player();
    const ids = Array.from({ length: 11 }, (_, i) => `game-${String(i).padStart(2, '0')}`);
    for (const [i, id] of ids.entries()) await store.members.putMember(id, pid, day(i + 1));
    const newestFirst = [...ids].reverse();
    const seen: string[] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      const page: { ids: string[]; cursor: string | null } = await store.members.listMemberGamesPage(pid, 4, cursor);
      seen.push(...page.ids);
      cursors.push(page.cursor);
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    expect(cursors.map((c) => c !== null)).toEqual([true, true, false]);
    // An exact last page: no cursor (no empty page after it).
    expect((await store.members.listMemberGamesPage(pid, 11)).cursor).toBeNull();
    expect((await store.members.listMemberGamesPage(pid, 10)).cursor).not.toBeNull();
    // A game deleted between pages is simply not on the next one.
    const first = await store.members.listMemberGamesPage(pid, 4);
    await store.members.deleteMember(newestFirst[4], pid);
    expect((await store.members.listMemberGamesPage(pid, 4, first.cursor)).ids).toEqual(newestFirst.slice(5, 9));
    expect(await store.members.listMemberGamesPage(player(), 4)).toEqual({ ids: [], cursor: null });
  });
});
