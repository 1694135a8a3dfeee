// The game side of the Operations port in memory (the twin of store/dynamo/games.ts's outbox,
// archive and retention writes): the notice worker's outbox, the sweep's archive step.
import type { Operations } from '../ports.js';
import { outboxId } from '../records.js';
import { boundOf, json, parse, type GameTables, type StoredCommit } from './game-items.js';
import { partitionOf } from './game-log.js';

export type GameOps = Pick<
  Operations,
  'getCommitId' | 'getOutbox' | 'clearOutbox' | 'saveArchive' | 'expireCommits' | 'markArchived'
>;

function commitAt(t: GameTables, gameId: string, firstSeq: number): StoredCommit | null {
  const commits = t.games.get(gameId)?.commits ?? [];
  const c = commits[boundOf(commits, firstSeq)];
  return c?.firstSeq === firstSeq ? c : null;
}

export function memoryGameOps(t: GameTables): GameOps {
  return {
    getCommitId: async (gameId, firstSeq) => {
      const c = commitAt(t, gameId, firstSeq);
      return c ? (c.cid ?? '') : null;
    },
    getOutbox: async <N>(gameId: string, firstSeq: number) => {
      const c = commitAt(t, gameId, firstSeq);
      if (!c?.outbox || !c.cid || c.notices === undefined) return null;
      return { cid: c.cid, notices: parse<N[]>(c.notices) };
    },
    clearOutbox: async (gameId, firstSeq, cid) => {
      const c = commitAt(t, gameId, firstSeq);
      if (!c?.outbox || c.cid !== cid) return false;
      c.outbox = false;
      t.outboxes.delete(outboxId(gameId, firstSeq));
      return true;
    },
    saveArchive: async (gameId, value) => {
      partitionOf(t, gameId).archive = json(value);
    },
    // Marks only the commits there (never creates one); nothing deletes them here, as DynamoDB's
    // TTL deletes them only some time after.
    expireCommits: async (gameId, firstSeqs, expiresAt) => {
      for (const seq of firstSeqs) {
        const c = commitAt(t, gameId, seq);
        if (c) c.expiresAt = expiresAt;
      }
    },
    markArchived: async (gameId, version) => {
      const s = t.games.get(gameId)?.snapshot;
      if (!s || s.version !== version || !s.archiveAt || s.dueAt) return false;
      delete s.archiveAt;
      return true;
    },
  };
}
