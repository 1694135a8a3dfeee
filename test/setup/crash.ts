// Crashes as the store sees them: a commit item written by a writer that stopped right after it
// (no snapshot, no bot moves, no notices handed).
import type { CommitRec } from '../../functions/api/play/commit.js';
import type { Store } from '../../functions/store/index.js';

/** Commits the start of a full LOBBY game as a request that died right after its commit item, before any bot moved. */
export async function crashedStart(store: Store, gameId: string): Promise<void> {
  const head = (await store.log.loadGame<any>(gameId))!;
  const rec = head.game!;
  const commit: CommitRec = {
    version: rec.version + 1,
    firstSeq: rec.lastSeq + 1,
    at: new Date().toISOString(),
    status: 'ACTIVE',
    events: [{ type: 'gameStarted', data: {} }],
    body: { reset: true, set: { startSeq: rec.lastSeq + 1 } },
    notices: [],
  };
  if (!(await store.log.appendCommit(gameId, commit))) throw new Error('the start was committed already');
}
