// The games' records as the in-memory twin keeps them: the same fields the DynamoDB adapter
// writes (store/dynamo/games.ts), with the opaque values (a snapshot's doc, a commit's body,
// events and notices, an archive) kept as JSON text, as DynamoDB keeps them (packed JSON): every
// read parses a fresh copy, so a caller can never change a stored record by reference, and a
// value reads back exactly as it would from DynamoDB (no `undefined` fields, no class instances).
import type {
  CommitActor,
  CommitEvent,
  CommitRecord,
  GameHead,
  GameRecord,
  GameStatus,
  RequestRecord,
} from '../records.js';
import { invalid } from './pages.js';

export interface StoredSnapshot {
  id: string;
  version: number;
  status: GameStatus;
  createdAt: string;
  updatedAt: string;
  lastSeq: number;
  /** Set only when the record had one (the DynamoDB adapter writes the attribute only then). */
  dueAt?: string;
  unlisted?: true;
  archiveAt?: string;
  doc: string;
}

export interface StoredCommit {
  version: number;
  firstSeq: number;
  at: string;
  status: GameStatus;
  /** How many events (a recipe read gives as many placeholders). */
  n: number;
  events: string;
  body: string;
  /** Absent when it had none. */
  notices?: string;
  request?: string;
  actor?: string;
  cid?: string;
  /** In the due-work index as OUTBOX until `clearOutbox` (a commit with notices and a cid). */
  outbox: boolean;
  /** The TTL retention writes (epoch seconds); nothing deletes it here, as nothing does within a test on DynamoDB. */
  expiresAt?: number;
}

/** One game's partition: its snapshot, its commits (by first seq, ascending), its request claims, its archive. */
export interface GamePartition {
  snapshot: StoredSnapshot | null;
  commits: StoredCommit[];
  requests: Map<string, RequestRecord>;
  archive: string | null;
}

/** Every game's partition, and the commits whose outbox is open (due work of kind OUTBOX) by outbox id. */
export interface GameTables {
  games: Map<string, GamePartition>;
  outboxes: Map<string, StoredCommit>;
}

/** A value as stored (the DynamoDB adapter's `pack` refuses what JSON cannot hold, e.g. undefined). */
export function json(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`not a JSON value: ${String(value)}`);
  return text;
}

export const parse = <T>(text: string): T => JSON.parse(text) as T;

export function toStoredSnapshot(r: GameRecord): StoredSnapshot {
  const { id, version, status, createdAt, updatedAt, lastSeq } = r;
  return {
    ...{ id, version, status, createdAt, updatedAt, lastSeq },
    ...(r.dueAt ? { dueAt: r.dueAt } : {}),
    ...(r.unlisted ? { unlisted: true as const } : {}),
    ...(r.archiveAt ? { archiveAt: r.archiveAt } : {}),
    doc: json(r.doc),
  };
}

export function fromStoredSnapshot<D>(s: StoredSnapshot): GameRecord<D> {
  const { doc, dueAt, unlisted, archiveAt, ...fixed } = s;
  return {
    ...fixed,
    doc: parse<D>(doc),
    dueAt: dueAt ?? null,
    ...(unlisted ? { unlisted } : {}),
    ...(archiveAt ? { archiveAt } : {}),
  };
}

export function toStoredCommit(c: CommitRecord): StoredCommit {
  return {
    version: c.version,
    firstSeq: c.firstSeq,
    at: c.at,
    status: c.status,
    n: c.events.length,
    events: json(c.events),
    body: json(c.body),
    ...(c.notices.length > 0 ? { notices: json(c.notices) } : {}),
    ...(c.request ? { request: c.request } : {}),
    ...(c.actor ? { actor: json(c.actor) } : {}),
    ...(c.cid ? { cid: c.cid } : {}),
    outbox: c.notices.length > 0 && !!c.cid,
  };
}

/**
 * A stored commit as read; `recipeOnly`: without its events (placeholders), notices and cid,
 * as the DynamoDB adapter's recipe read (a projection) answers.
 */
export function fromStoredCommit(c: StoredCommit, recipeOnly = false): CommitRecord {
  return {
    version: c.version,
    firstSeq: c.firstSeq,
    at: c.at,
    status: c.status,
    events: recipeOnly ? Array.from({ length: c.n }, () => ({ type: '', data: {} })) : parse<CommitEvent[]>(c.events),
    body: parse(c.body),
    notices: recipeOnly || c.notices === undefined ? [] : parse<unknown[]>(c.notices),
    ...(c.request ? { request: c.request } : {}),
    ...(c.actor ? { actor: parse<CommitActor>(c.actor) } : {}),
    ...(c.cid && !recipeOnly ? { cid: c.cid } : {}),
  };
}

/** A game's head: its snapshot and every commit past it (null: neither a snapshot nor a commit). */
export function headOf<D>(p: GamePartition | undefined): GameHead<D> | null {
  if (!p || (!p.snapshot && p.commits.length === 0)) return null;
  const after = p.snapshot?.lastSeq ?? 0;
  return {
    game: p.snapshot ? fromStoredSnapshot<D>(p.snapshot) : null,
    tail: p.commits.slice(boundOf(p.commits, after, true)).map((c) => fromStoredCommit(c)),
  };
}

/** The index of the first commit with first seq >= `seq` (`past`: > `seq`); commits.length if none. */
export function boundOf(commits: StoredCommit[], seq: number, past = false): number {
  let lo = 0;
  let hi = commits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (commits[mid].firstSeq < seq || (past && commits[mid].firstSeq === seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Commits with first seq in [max(1, from), to], oldest first (commit keys start at seq 1). */
export function commitsBetween(p: GamePartition | undefined, from: number, to: number): StoredCommit[] {
  if (Math.max(1, from) > to) throw invalid('the BETWEEN operator requires upper bound >= lower bound');
  if (!p) return [];
  const start = boundOf(p.commits, Math.max(1, from));
  return p.commits.slice(start, Math.max(start, boundOf(p.commits, to, true)));
}
