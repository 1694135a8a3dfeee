// The GameLog port in memory: the twin of store/dynamo/games.ts, events.ts and requests.ts. Each
// write checks its condition and writes in one synchronous step (no await between them), so the
// first of racing writers wins exactly as DynamoDB's conditional single-item writes decide it.
import type { GameLog } from '../ports.js';
import { type CommitRecord, eventsOf, type GameHead, type GameRecord, outboxId, type StoredEvent } from '../records.js';
import {
  boundOf,
  commitsBetween,
  fromStoredCommit,
  fromStoredSnapshot,
  type GamePartition,
  type GameTables,
  headOf,
  parse,
  toStoredCommit,
  toStoredSnapshot,
} from './game-items.js';
import { statusPage } from './indexes.js';

const LAST_SEQ = 9_999_999_999;

/** The partition of a game, made on its first write. */
export function partitionOf(t: GameTables, gameId: string): GamePartition {
  let p = t.games.get(gameId);
  if (!p) t.games.set(gameId, (p = { snapshot: null, commits: [], requests: new Map(), archive: null }));
  return p;
}

function appendCommit(t: GameTables, gameId: string, c: CommitRecord): boolean {
  if (c.events.length === 0) throw new Error('a commit has at least one event (its key is the seq of the first)');
  const commits = partitionOf(t, gameId).commits;
  const at = boundOf(commits, c.firstSeq);
  if (commits[at]?.firstSeq === c.firstSeq) return false;
  const stored = toStoredCommit(c);
  commits.splice(at, 0, stored);
  if (stored.outbox) t.outboxes.set(outboxId(gameId, c.firstSeq), stored);
  return true;
}

function saveSnapshot(t: GameTables, r: GameRecord): boolean {
  const p = partitionOf(t, r.id);
  if (p.snapshot && !(p.snapshot.version < r.version)) return false;
  p.snapshot = toStoredSnapshot(r);
  return true;
}

/** Events with seq > after from the commit holding `after + 1` on, until one more than `limit` are found. */
function listEvents(p: GamePartition | undefined, after: number, limit: number) {
  const commits = commitsBetween(p, 1, LAST_SEQ);
  // The newest commit starting at or before the first seq wanted (it may hold it), else the first after it.
  let i = Math.max(0, boundOf(commits, after + 1, true) - 1);
  const out: StoredEvent[] = [];
  for (; i < commits.length && out.length <= limit; i++)
    out.push(...eventsOf([fromStoredCommit(commits[i])]).filter((e) => e.seq > after));
  return { events: out.slice(0, limit), hasMore: out.length > limit };
}

/** Several games' heads: games without a snapshot left out; a tail only where the commit right after the snapshot exists. */
function getGames<D>(t: GameTables, ids: string[]): GameHead<D>[] {
  const heads: GameHead<D>[] = [];
  for (const id of new Set(ids)) {
    const p = t.games.get(id);
    if (!p?.snapshot) continue;
    const next = p.commits[boundOf(p.commits, p.snapshot.lastSeq + 1)];
    heads.push(
      next?.firstSeq === p.snapshot.lastSeq + 1
        ? (headOf<D>(p) as GameHead<D>)
        : { game: fromStoredSnapshot<D>(p.snapshot), tail: [] },
    );
  }
  return heads;
}

export function memoryGameLog(t: GameTables): GameLog {
  const requestKey = (scope: string, requestId: string) => `${scope}#${requestId}`;
  return {
    insertGame: async (r, first) => {
      if (!appendCommit(t, r.id, first)) return false;
      saveSnapshot(t, r);
      return true;
    },
    loadGame: async (id) => headOf(t.games.get(id)),
    appendCommit: async (gameId, c) => appendCommit(t, gameId, c),
    saveSnapshot: async (r) => saveSnapshot(t, r),
    listCommits: async (gameId, from = 1, to = LAST_SEQ) =>
      commitsBetween(t.games.get(gameId), from, to).map((c) => fromStoredCommit(c)),
    listRecipes: async (gameId, from = 1, to = LAST_SEQ) =>
      commitsBetween(t.games.get(gameId), from, to).map((c) => fromStoredCommit(c, true)),
    findRequestCommit: async (gameId, afterSeq, request) => {
      const found = commitsBetween(t.games.get(gameId), afterSeq + 1, LAST_SEQ).find((c) => c.request === request);
      return found ? fromStoredCommit(found) : null;
    },
    getGames: async (ids) => getGames(t, ids),
    listGamesByStatus: async (status, limit, before, oldestFirst = false) =>
      statusPage(t, status, limit, before, oldestFirst),
    listEvents: async (gameId, after, limit) => listEvents(t.games.get(gameId), after, limit),
    getRequest: async (gameId, scope, requestId) => {
      const r = t.games.get(gameId)?.requests.get(requestKey(scope, requestId));
      return r ? { ...r } : null;
    },
    claimRequest: async (gameId, scope, requestId, rec) => {
      const requests = partitionOf(t, gameId).requests;
      const key = requestKey(scope, requestId);
      if (requests.has(key)) return false;
      requests.set(key, { fingerprint: rec.fingerprint, after: rec.after });
      return true;
    },
    getArchive: async <T>(gameId: string) => {
      const archive = t.games.get(gameId)?.archive;
      return archive == null ? null : parse<T>(archive);
    },
  };
}
