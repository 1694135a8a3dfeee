// Games and commits for the contract cases of the game ports (game-log, operations): records as
// the API writes them, with the store's conventions (first seq keys, versions counting commits).
import type { CommitRecord, GameRecord, Store } from '../../../functions/store/index.js';

export const AT = '2024-01-01T00:00:00.000Z';

let n = 0;

/** A new game's snapshot (a fresh id; created one second after the previous one). */
export function game(over: Partial<GameRecord> = {}): GameRecord<{ note: string }> {
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
export const commit = (
  version: number,
  lastSeq: number,
  events = 1,
  over: Partial<CommitRecord> = {},
): CommitRecord => ({
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
export async function history(store: Store, count: number, snapTo: number) {
  const g = game({ status: 'ACTIVE' });
  await store.log.insertGame(g, commit(1, 0));
  let lastSeq = 1;
  for (let v = 2; v <= count; v++) {
    if (!(await store.log.appendCommit(g.id, commit(v, lastSeq, 2)))) throw new Error(`commit ${v} lost`);
    lastSeq += 2;
    if (v <= snapTo) await store.log.saveSnapshot({ ...g, version: v, lastSeq });
  }
  return { g, lastSeq };
}
