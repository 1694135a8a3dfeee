// The Chat port (and the retention's expireChat) on both adapters: messages numbered without
// gaps (racing writers of one number: one wins), read in order in pages, hidden once, reported
// once per reporter up to a bound, silenced players bounded; retention marks, nothing deleted.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatRecord, Store } from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';
import { uid } from './ids.js';

const AT = '2024-01-01T00:00:00.000Z';
const message = (gameId: string, seq: number, over: Partial<ChatRecord> = {}): ChatRecord => ({
  gameId,
  seq,
  authorId: 'anne',
  authorName: 'Anne',
  body: `message ${seq}`,
  at: AT,
  ...over,
});

describe.each(ADAPTERS)('chat on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });
  /** A game with messages 1..n. */
  const withMessages = async (n: number) => {
    const g = uid('g');
    for (let seq = 1; seq <= n; seq++) expect(await store.chat.putChat(message(g, seq))).toBe(true);
    return g;
  };

  it('writes each number once; of racing writers of the next number one wins; the last number follows', async () => {
    const g = uid('g');
    expect(await store.chat.lastChatSeq(g)).toBe(0);
    const racers = ['anne', 'mary', 'jack', 'bill'].map((a) => message(g, 1, { authorId: a, req: `${a}#r1` }));
    const won = await Promise.all(racers.map((m) => store.chat.putChat(m)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await store.chat.getChat(g, 1)).toEqual(racers[won.indexOf(true)]);
    expect(await store.chat.lastChatSeq(g)).toBe(1);
    expect(await store.chat.putChat(message(g, 2))).toBe(true);
    expect(await store.chat.lastChatSeq(g)).toBe(2);
    expect(await store.chat.lastChatSeq(uid('other'))).toBe(0);
    expect(await store.chat.getChat(g, 3)).toBeNull();
  });

  it('lists messages after a number, oldest first, in pages that say whether more follow', async () => {
    const g = await withMessages(7);
    const seqs = async (after: number, limit: number) => {
      const page = await store.chat.listChat(g, after, limit);
      return [page.items.map((m) => m.seq), page.hasMore];
    };
    expect(await seqs(0, 3)).toEqual([[1, 2, 3], true]);
    expect(await seqs(3, 3)).toEqual([[4, 5, 6], true]);
    expect(await seqs(6, 3)).toEqual([[7], false]);
    expect(await seqs(4, 3)).toEqual([[5, 6, 7], false]);
    expect(await seqs(7, 3)).toEqual([[], false]);
    expect(await seqs(0, 100)).toEqual([[1, 2, 3, 4, 5, 6, 7], false]);
    expect((await store.chat.listChat(g, 0, 1)).items).toEqual([message(g, 1)]);
    expect(await store.chat.listChat(uid('none'), 0, 5)).toEqual({ items: [], hasMore: false });
  });

  it('a message read back is a copy; hiding keeps who hid it first; nothing to hide answers false', async () => {
    const g = await withMessages(1);
    const read = await store.chat.getChat(g, 1);
    read!.body = 'edited by the caller';
    expect(await store.chat.hideChat(g, 1, 'mod')).toBe(true);
    expect(await store.chat.hideChat(g, 1, 'other')).toBe(true);
    expect(await store.chat.getChat(g, 1)).toEqual({ ...message(g, 1), hidden: true, hiddenBy: 'mod' });
    expect(await store.chat.hideChat(g, 2, 'mod')).toBe(false);
    expect(await store.chat.getChat(g, 2)).toBeNull(); // not created by hiding
  });

  it('takes one report per reporter, at most max per message, exactly max of racing reporters', async () => {
    const g = await withMessages(2);
    const report = { reason: 'rude', at: AT };
    expect(await store.chat.reportChat(g, 1, 'mary', report, 2)).toBe('ok');
    expect(await store.chat.reportChat(g, 1, 'mary', { reason: 'again', at: AT }, 2)).toBe('already');
    expect(await store.chat.reportChat(g, 1, 'jack', report, 2)).toBe('ok');
    expect(await store.chat.reportChat(g, 1, 'bill', report, 2)).toBe('full');
    expect(await store.chat.reportChat(g, 1, 'mary', report, 2)).toBe('already');
    expect(await store.chat.reportChat(g, 9, 'mary', report, 2)).toBe('missing');
    expect((await store.chat.getChat(g, 1))!.reports).toEqual({ mary: report, jack: report });
    const reporters = Array.from({ length: 8 }, (_, i) => `r${i}`);
    const answers = await Promise.all(reporters.map((r) => store.chat.reportChat(g, 2, r, report, 3)));
    expect(answers.filter((a) => a === 'ok')).toHaveLength(3);
    expect(answers.filter((a) => a === 'full')).toHaveLength(5);
    expect(Object.keys((await store.chat.getChat(g, 2))!.reports!).sort()).toEqual(
      reporters.filter((_, i) => answers[i] === 'ok').sort(),
    );
  });

  it('silences up to max players (racing moderators too); letting one speak again frees a place', async () => {
    const g = uid('g');
    expect(await store.chat.listSilenced(g)).toEqual([]);
    const who = ['a', 'b', 'c', 'd', 'e'];
    const done = await Promise.all(who.map((p) => store.chat.setSilenced(g, p, true, 3)));
    expect(done.filter(Boolean)).toHaveLength(3);
    const silenced = (await store.chat.listSilenced(g)).sort();
    expect(silenced).toEqual(who.filter((_, i) => done[i]).sort());
    expect(await store.chat.setSilenced(g, silenced[0], true, 3)).toBe(true); // already: no change
    const out = who.find((p) => !silenced.includes(p))!;
    expect(await store.chat.setSilenced(g, out, true, 3)).toBe(false);
    expect(await store.chat.setSilenced(g, silenced[0], false, 3)).toBe(true);
    expect(await store.chat.setSilenced(g, silenced[0], false, 3)).toBe(true); // idempotent
    expect(await store.chat.setSilenced(g, out, true, 3)).toBe(true);
    expect((await store.chat.listSilenced(g)).sort()).toEqual([...silenced.slice(1), out].sort());
    expect(await store.chat.setSilenced(uid('g'), 'x', false, 3)).toBe(true);
  });

  it('expireChat marks every message once (answering how many it marked) and deletes nothing', async () => {
    const g = await withMessages(5);
    await store.chat.setSilenced(g, 'mary', true, 3);
    expect(await store.ops.expireChat(g, 1_900_000_000)).toBe(5);
    expect(await store.ops.expireChat(g, 1_900_000_000)).toBe(0);
    expect(await store.chat.putChat(message(g, 6))).toBe(true);
    expect(await store.ops.expireChat(g, 1_900_000_000)).toBe(1);
    expect(await store.ops.expireChat(g, 1_900_000_100)).toBe(6);
    // Still read back (nothing removes them before a real TTL), without the retention time.
    const page = await store.chat.listChat(g, 0, 10);
    expect(page.items).toEqual([1, 2, 3, 4, 5, 6].map((seq) => message(g, seq)));
    expect(await store.chat.listSilenced(g)).toEqual(['mary']);
    expect(await store.ops.expireChat(uid('none'), 1_900_000_000)).toBe(0);
  });
});
