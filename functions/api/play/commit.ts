// The commit loop on the store's log: load (the snapshot and the commits past it, folded) ->
// change -> append the commit item (a conditional put: the first writer of a version wins), its
// notices in the same item as its outbox -> write the snapshot when due, and hand the notices to
// the notice queue meanwhile. A queue that fails is logged, never the move's failure: the notices
// stay in the commit's outbox, and the sweep hands them again once they are older than a short
// age (notify/notices.ts; the notice worker empties an outbox once it has handled it). On a lost
// race reload and apply again (secret card choices commute, so nobody's choice is lost). A
// requestId makes a change happen at most once and answers its retries the same (from the log).
//
// A commit item says how to get the next document from the previous one (`CommitBody`: engine
// commands, the few other fields that changed, a fresh set-up at the start); `fold` is the one
// function that applies it, used both to make the new snapshot and to read commits a crash left
// past the snapshot, so the two can never disagree (checked on every commit).
import { randomUUID } from 'node:crypto';
import { applyInPlace, createGame as engineCreateGame, type GameEvent } from '../../engine/index.js';
import type { GameLog } from '../../store/ports.js';
import { type CommitRecord, type GameHead, type GameStatus, HEAD_COMMITS, lastSeqOf } from '../../store/records.js';
import { awaitedBot, runBots } from './bots.js';
import type { Actor, Committed, Notice, Services } from '../services.js';
import {
  dealt,
  engineOptions,
  type GameDoc,
  type GameRec,
  type LoggedCommand,
  nextDeadline,
  refreshPending,
} from '../doc.js';
import { ApiError, fromEngine } from '../errors.js';
import { count, logger, METRIC, noteRequest } from '../http/telemetry.js';

export type { GameRec } from '../doc.js';

/** How a commit changes the document (stored in the commit item; replayed by `fold`). */
export interface CommitBody {
  /** The first commit: the whole document (there is nothing before it). */
  doc?: GameDoc;
  /** Top-level fields set (the engine state and `pending` excepted). */
  set?: Partial<GameDoc>;
  /** Top-level fields removed. */
  del?: string[];
  /** The engine state was set up afresh from the options (the start), before `cmds`. */
  reset?: true;
  /** Engine commands applied, in order, each with the seq of its last event (replays). */
  cmds?: LoggedCommand[];
}

export type CommitRec = CommitRecord<CommitBody, Notice>;

/**
 * What the commit loop is handed: the few services it uses and, of the store, the game log
 * alone. Typed so, tsc refuses a reach into any other port (test/architecture/commit-loop.test.ts
 * keeps it so); callers pass their whole `Services`.
 */
export type CommitServices = Pick<Services, 'now' | 'actor' | 'notices' | 'onCommit'> & { store: { log: GameLog } };

/** Lost races tolerated before answering CONFLICT (six seats racing need at most five). */
export const MAX_COMMIT_ATTEMPTS = 12;

/**
 * The snapshot is written at least every this many commits. Commits that change the status or
 * bring a deadline forward always write it (the indexes live on it); others leave it for a
 * later commit. At most HEAD_COMMITS + 1, so that one query reads the snapshot and every commit
 * past it.
 */
export const SNAPSHOT_EVERY = HEAD_COMMITS + 1;

export interface Change {
  /** Mutates the document (a private copy) and returns the new events; throws to refuse. */
  apply: (doc: GameDoc, rec: GameRec) => GameEvent[];
  /** False: nothing to do on this version (e.g. no bot awaited any more); no commit. */
  needed?: (rec: GameRec) => boolean;
  /** The status after the change (default: the engine's finished flag decides). */
  status?: (doc: GameDoc, rec: GameRec) => GameStatus;
}

export interface Idempotency {
  /** Who asked (a request id is scoped to its caller). */
  scope: string;
  requestId: string;
  /** The command itself: a reused request id with another command is a CONFLICT. */
  fingerprint: string;
}

/** A game as loaded: the folded record, the snapshot as stored and the commits past it. */
export interface Loaded {
  rec: GameRec;
  snapshot: GameRec | null;
  tail: CommitRec[];
}

const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));

/** Fields of the document a commit may set directly (the rest: `state` by commands, `pending` by fold). */
const DERIVED = new Set(['state', 'pending', 'log']);

/** Finished games' command history, for their scenario (read from the log on demand). */
const histories = new WeakMap<GameRec, () => Promise<LoggedCommand[]>>();

/** The commands since the start of the game a record was read from; null for records not read from the store. */
export function historyOf(rec: GameRec): (() => Promise<LoggedCommand[]>) | null {
  return histories.get(rec) ?? null;
}

/** The commands applied since the start (the last fresh set-up), in order, each with the seq of its last event. */
export function commandsOf(commits: CommitRec[]): LoggedCommand[] {
  let out: LoggedCommand[] = [];
  for (const c of commits) {
    if (c.body.reset) out = [];
    out.push(...(c.body.cmds ?? []));
  }
  return out;
}

/** Games that are over: their log is archived and its commit items expire (retention.ts). */
export const isOver = (status: GameStatus): boolean => status === 'FINISHED' || status === 'CANCELLED';

/** The archived commands of a game that is over (retention.ts), or null: not over, or not archived yet. */
export async function archivedCommands(services: CommitServices, rec: GameRec): Promise<LoggedCommand[] | null> {
  if (!isOver(rec.status)) return null;
  return (await services.store.log.getArchive<{ commands: LoggedCommand[] }>(rec.id))?.commands ?? null;
}

/**
 * The commands since the start of a game: from its archive once it is over and archived (its
 * commit items may be gone by TTL); else from its commit items.
 */
export async function commandsSinceStart(services: CommitServices, rec: GameRec): Promise<LoggedCommand[]> {
  return (
    (await archivedCommands(services, rec)) ?? commandsOf((await services.store.log.listRecipes(rec.id)) as CommitRec[])
  );
}

function remember(services: CommitServices, rec: GameRec): void {
  histories.set(rec, () => commandsSinceStart(services, rec));
}

/**
 * Applies one commit to the game before it (null for the first commit). Pure, unless `owned`:
 * then `prev` is a record nobody else holds (an intermediate of a fold over several commits) and
 * its document is changed in place rather than copied (one copy per load, not one per commit).
 */
export function fold(prev: GameRec | null, c: CommitRec, id: string, owned = false): GameRec {
  const b = c.body;
  let doc: GameDoc;
  if (b.doc) doc = structuredClone(b.doc);
  else if (prev) doc = owned ? prev.doc : structuredClone(prev.doc);
  else throw new Error(`game ${id}: commit ${c.version} has nothing to apply to`);
  if (b.set) Object.assign(doc, structuredClone(b.set));
  for (const k of b.del ?? []) delete (doc as unknown as Record<string, unknown>)[k];
  if (b.reset) doc.state = engineCreateGame(engineOptions(doc));
  for (const { c: cmd } of b.cmds ?? []) applyInPlace(dealt(doc), cmd, null);
  refreshPending(doc, c.status === 'ACTIVE', new Date(c.at));
  return {
    id,
    version: c.version,
    status: c.status,
    createdAt: prev?.createdAt ?? c.at,
    updatedAt: c.at,
    doc,
    lastSeq: lastSeqOf(c),
    dueAt: c.status === 'ACTIVE' ? nextDeadline(doc) : null,
    // Over: the sweep archives its log and gives the commit items a TTL (retention.ts).
    ...(isOver(c.status) ? { archiveAt: c.at } : {}),
  };
}

/** The head folded: the snapshot with the commits past it applied. */
export function foldHead(services: CommitServices, id: string, head: GameHead<GameDoc>): Loaded {
  const tail = head.tail as CommitRec[];
  let rec: GameRec | null = head.game;
  for (const c of tail) rec = fold(rec, c, id, rec !== head.game);
  if (!rec) throw new Error(`game ${id} has neither a snapshot nor commits`);
  remember(services, rec);
  return { rec, snapshot: head.game, tail };
}

export async function load(services: CommitServices, gameId: string): Promise<Loaded | null> {
  const head = await services.store.log.loadGame<GameDoc>(gameId);
  return head ? foldHead(services, gameId, head) : null;
}

/**
 * Several games, folded (any order; missing ones left out): snapshots in a batch, tails only where
 * there are some. `consistent: false` for lists (half the read units; a second's staleness is fine).
 */
export async function loadGames(services: CommitServices, ids: string[], consistent = true): Promise<GameRec[]> {
  const heads = await services.store.log.getGames<GameDoc>(ids, consistent);
  return heads.map((h) => foldHead(services, h.game!.id, h).rec);
}

export async function loadOrNotFound(services: CommitServices, gameId: string): Promise<GameRec> {
  noteRequest({ gameId });
  const l = await load(services, gameId);
  if (!l) throw new ApiError('NOT_FOUND', `no game ${gameId}`);
  return l.rec;
}

/** The game right after commit `target` (a retry's answer): from the head if it is there, else from the whole log. */
async function gameAt(services: CommitServices, gameId: string, cur: Loaded, target: CommitRec): Promise<GameRec> {
  if (target.version === cur.rec.version) return cur.rec;
  const i = cur.tail.findIndex((c) => c.version === target.version);
  let rec: GameRec | null = cur.snapshot;
  let commits: CommitRec[];
  if (i >= 0) commits = cur.tail.slice(0, i + 1);
  else {
    rec = null;
    commits = (await services.store.log.listCommits(gameId, 1, target.firstSeq)) as CommitRec[];
  }
  const first = rec;
  for (const c of commits) rec = fold(rec, c, gameId, rec !== null && rec !== first);
  remember(services, rec!);
  return rec!;
}

function nextStatus(doc: GameDoc, rec: GameRec, change: Change): GameStatus {
  if (change.status) return change.status(doc, rec);
  if (rec.status === 'LOBBY') return 'LOBBY';
  return doc.state?.finished ? 'FINISHED' : 'ACTIVE';
}

/** The `actor` of a request's commit (its events and notices): its player and OAuth client (none for the sweep). */
export function actorOf(services: CommitServices): { actor?: Actor } {
  const a = services.actor;
  return a ? { actor: { playerId: a.playerId, clientId: a.clientId } } : {};
}

/** One attempt: runs the change on a copy, records what it did as a commit, and folds it. */
export function build(
  services: CommitServices,
  rec: GameRec,
  change: Change,
  request?: string,
): { commit: CommitRec; next: GameRec } {
  const doc: GameDoc = { ...structuredClone(rec.doc), log: [] };
  const stateBefore = doc.state;
  let events: GameEvent[];
  try {
    events = change.apply(doc, rec);
  } catch (e) {
    throw fromEngine(e);
  }
  const status = nextStatus(doc, rec, change);
  if (status === 'ACTIVE') runBots(rec.id, doc, events, rec.lastSeq);
  const finalStatus: GameStatus = doc.state?.finished && status === 'ACTIVE' ? 'FINISHED' : status;
  const body: CommitBody = {};
  if (doc.state !== stateBefore) body.reset = true;
  if (doc.log && doc.log.length > 0) body.cmds = doc.log;
  const before = rec.doc as unknown as Record<string, unknown>;
  const after = doc as unknown as Record<string, unknown>;
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (DERIVED.has(k)) continue;
    if (after[k] === undefined) {
      if (before[k] !== undefined) (body.del ??= []).push(k);
    } else if (JSON.stringify(after[k]) !== JSON.stringify(before[k]))
      (body.set ??= {})[k as keyof GameDoc] = after[k] as never;
  }
  const commit: CommitRec = {
    version: rec.version + 1,
    firstSeq: rec.lastSeq + 1,
    at: services.now().toISOString(),
    status: finalStatus,
    events,
    body,
    notices: [],
    ...(request ? { request } : {}),
    ...actorOf(services),
  };
  const next = fold(rec, commit, rec.id);
  // The log must replay to exactly what was computed: never store a commit that does not.
  if (JSON.stringify(next.doc.state) !== JSON.stringify(doc.state))
    throw new Error(`game ${rec.id}: commit ${commit.version} does not replay to the state computed`);
  commit.notices = services.onCommit.noticesOf(rec, next).map((n) => ({ ...n, ...actorOf(services) }));
  if (commit.notices.length > 0) commit.cid = randomUUID();
  return { commit, next };
}

/** Whether this commit writes the snapshot (see SNAPSHOT_EVERY). */
function snapshotDue(cur: Loaded, commit: CommitRec, next: GameRec): boolean {
  const snap = cur.snapshot;
  if (!snap || cur.tail.length + 1 >= SNAPSHOT_EVERY) return true;
  if (commit.status !== 'ACTIVE' || snap.status !== 'ACTIVE') return true;
  // The due-work index must never promise a later deadline than the game has.
  if (next.dueAt && (!snap.dueAt || next.dueAt < snap.dueAt)) return true;
  return false;
}

/** How long a move waits for the queue to take its notices (then they wait in the outbox for the sweep). */
export const NOTICE_HANDOFF_MS = 1000;

/**
 * Hands the notices of a written commit to the queue, naming the commit (its key and id). A
 * failure, or a queue slower than NOTICE_HANDOFF_MS, is logged and counted, never thrown: the
 * notices wait in the commit's outbox for the sweep (notify/notices.ts `resendOutboxes`); a late
 * hand-off that lands after all is delivered once anyway.
 */
async function handNotices(services: CommitServices, gameId: string, commit: CommitRec): Promise<void> {
  if (commit.notices.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    const sent = services.notices.send([
      { type: 'notices', gameId, firstSeq: commit.firstSeq, cid: commit.cid!, notices: commit.notices, written: true },
    ]);
    const late = new Promise<'late'>((ok) => {
      timer = setTimeout(() => ok('late'), NOTICE_HANDOFF_MS);
      timer.unref?.();
    });
    sent.catch(() => {}); // a late failure is covered by the outbox
    if ((await Promise.race([sent, late])) === 'late') throw new Error(`no answer within ${NOTICE_HANDOFF_MS} ms`);
  } catch (e) {
    count(METRIC.noticeHandOffFailures);
    logger.warn('notices left in the outbox: the queue did not take them', {
      gameId,
      version: commit.version,
      error: e as Error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Tells the commit's listeners (registered by the composition root: live subscriptions, push,
 * the lobby cache), in order; a listener's failure is logged, never the commit's.
 */
async function tell(services: CommitServices, c: Committed): Promise<void> {
  const told = services.onCommit.listeners.map(async (listener) => {
    try {
      await listener(c);
    } catch (e) {
      logger.error('a commit listener failed', { gameId: c.after.id, version: c.after.version, error: e as Error });
    }
  });
  await Promise.all(told);
}

/**
 * After our commit: write the snapshot if due, and meanwhile hand the notices to the queue
 * (handNotices: never fails) and tell the listeners (push hands its fan-out off while the
 * snapshot is written; the lobby cache waits for `saved`).
 */
async function finish(services: CommitServices, cur: Loaded, commit: CommitRec, next: GameRec): Promise<void> {
  count(METRIC.commits);
  const s0 = cur.rec.doc.state;
  const s1 = next.doc.state;
  if (s0 && s1 && (s0.round !== s1.round || s0.day !== s1.day || next.status !== cur.rec.status))
    count(METRIC.advances);
  const saving: Promise<unknown> = snapshotDue(cur, commit, next)
    ? services.store.log.saveSnapshot(next)
    : Promise.resolve();
  const told = Promise.all([
    handNotices(services, next.id, commit),
    tell(services, {
      before: cur.rec,
      after: next,
      saved: saving.then(
        () => {},
        () => {},
      ),
    }),
  ]);
  try {
    await saving;
  } finally {
    await told;
  }
}

/**
 * Brings a game's snapshot up to its log (the sweep, after a crash between a commit and its
 * snapshot, or to move the due-work index on). False if it was current.
 */
export async function repair(services: CommitServices, gameId: string, loaded?: Loaded): Promise<boolean> {
  const cur = loaded ?? (await load(services, gameId));
  if (!cur || cur.tail.length === 0) return false;
  await services.store.log.saveSnapshot(cur.rec);
  return true;
}

/** A call's answer: the game after the change, and whether this call committed it. */
type Answer = { rec: GameRec; mine: boolean };

/** Applies `change` to the game and commits it (then any bot moves left); returns the change's record. */
export async function commitChange(
  services: CommitServices,
  gameId: string,
  change: Change,
  idem?: Idempotency,
): Promise<GameRec> {
  return (await commitChangeResult(services, gameId, change, idem)).rec;
}

/** As commitChange, and whether this call committed (false: nothing needed, or a retry answered). */
export async function commitChangeResult(
  services: CommitServices,
  gameId: string,
  change: Change,
  idem?: Idempotency,
): Promise<Answer> {
  const r = await commitOnce(services, gameId, change, idem);
  if (r.mine) count(METRIC.moves);
  if (r.mine) await continueBots(services, r.rec); // only after a commit of ours
  return r;
}

/**
 * Commits to one game from one process (one app's store), one after the other. Moves that
 * arrive together (the card choices of a day) would otherwise all compute on the same version,
 * and all but one lose the race: each loser pays a pause, a reload and a second computation,
 * and the last of N pays N. Queued, each loads the version the one before it wrote and wins at
 * once. Writers in other processes (other Lambda instances) still race, and the conditional
 * write keeps that correct; this only spares the retries within a process.
 */
const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

async function oneAtATime<T>(services: CommitServices, gameId: string, run: () => Promise<T>): Promise<T> {
  let byGame = queues.get(services.store);
  if (!byGame) queues.set(services.store, (byGame = new Map()));
  const mine = (byGame.get(gameId) ?? Promise.resolve()).then(run);
  const settled = mine.catch(() => undefined);
  byGame.set(gameId, settled);
  try {
    return await mine;
  } finally {
    if (byGame.get(gameId) === settled) byGame.delete(gameId);
  }
}

function commitOnce(services: CommitServices, gameId: string, change: Change, idem?: Idempotency): Promise<Answer> {
  return oneAtATime(services, gameId, () => commitAttempts(services, gameId, change, idem));
}

/** A request id across the attempts of one call (none without a requestId). */
interface Claim {
  idem: Idempotency;
  /** `<scope>#<id>`, as the request's commit records it. */
  request: string;
  /** Set once the request id is claimed (by us or an earlier call): its commit comes after this seq. */
  after: number | null;
}

/** The commit that applied the claimed request since the claim, if any. */
async function appliedCommit(
  log: GameLog,
  gameId: string,
  claim: Claim | null,
  cur: Loaded,
): Promise<CommitRec | null> {
  const after = claim?.after ?? null;
  if (claim === null || after === null) return null;
  if ((cur.snapshot?.lastSeq ?? 0) <= after)
    return cur.tail.find((c) => c.request === claim.request && c.firstSeq > after) ?? null;
  return (await log.findRequestCommit(gameId, after, claim.request)) as CommitRec | null;
}

/** A retry: the request was claimed before. CONFLICT for another command; else its commit if there is one. */
async function adopt(log: GameLog, gameId: string, claim: Claim, cur: Loaded): Promise<CommitRec | null> {
  const { scope, requestId, fingerprint } = claim.idem;
  const rec = await log.getRequest(gameId, scope, requestId);
  if (rec && rec.fingerprint !== fingerprint)
    throw new ApiError('CONFLICT', `requestId ${requestId} was used for another command`);
  claim.after = rec ? rec.after : 0;
  return appliedCommit(log, gameId, claim, cur);
}

/** The answer of a call whose change an earlier commit made (a retry). */
const answered = async (services: CommitServices, gameId: string, cur: Loaded, c: CommitRec): Promise<Answer> => ({
  rec: await gameAt(services, gameId, cur, c),
  mine: false,
});

/**
 * The change refused on this version (`e`). A retry of a request that was applied may no longer
 * be legal: answered from its commit; anything else throws `e`.
 */
async function answerRefusal(
  services: CommitServices,
  gameId: string,
  claim: Claim | null,
  cur: Loaded,
  e: unknown,
): Promise<Answer> {
  const { log } = services.store;
  if (claim && claim.after === null && e instanceof ApiError) {
    const { scope, requestId } = claim.idem;
    if (await log.getRequest(gameId, scope, requestId)) {
      const earlier = await adopt(log, gameId, claim, cur);
      if (earlier) return answered(services, gameId, cur, earlier);
    }
  }
  throw e;
}

/**
 * Claims the request id before the first write (null: claimed now). Claimed before, this call
 * is a retry: answered from the earlier commit; or, claimed but not applied (the first call may
 * still be at it, or it stopped), 'again': applied by a later attempt, the commit key and
 * `appliedCommit` making sure only one of us does.
 */
async function claimRequest(
  services: CommitServices,
  gameId: string,
  claim: Claim,
  cur: Loaded,
): Promise<Answer | 'again' | null> {
  const { log } = services.store;
  const { scope, requestId, fingerprint } = claim.idem;
  const after = cur.rec.lastSeq;
  if (await log.claimRequest(gameId, scope, requestId, { fingerprint, after }, services.now())) {
    claim.after = after;
    return null;
  }
  const earlier = await adopt(log, gameId, claim, cur);
  return earlier ? answered(services, gameId, cur, earlier) : 'again';
}

/** One attempt on the version loaded now: an answer, 'again' at once, or 'lost' (another writer won: pause first). */
async function attemptCommit(
  services: CommitServices,
  gameId: string,
  change: Change,
  claim: Claim | null,
): Promise<Answer | 'again' | 'lost'> {
  const cur = await load(services, gameId);
  if (!cur) throw new ApiError('NOT_FOUND', `no game ${gameId}`);
  const done = await appliedCommit(services.store.log, gameId, claim, cur);
  if (done) return answered(services, gameId, cur, done);
  if (change.needed && !change.needed(cur.rec)) return { rec: cur.rec, mine: false };
  let built: { commit: CommitRec; next: GameRec };
  try {
    built = build(services, cur.rec, change, claim?.request);
  } catch (e) {
    return answerRefusal(services, gameId, claim, cur, e);
  }
  if (claim && claim.after === null) {
    const retry = await claimRequest(services, gameId, claim, cur);
    if (retry !== null) return retry;
  }
  if (!(await services.store.log.appendCommit(gameId, built.commit))) return 'lost';
  await finish(services, cur, built.commit, built.next);
  remember(services, built.next);
  return { rec: built.next, mine: true };
}

async function commitAttempts(
  services: CommitServices,
  gameId: string,
  change: Change,
  idem?: Idempotency,
): Promise<Answer> {
  const claim: Claim | null = idem ? { idem, request: `${idem.scope}#${idem.requestId}`, after: null } : null;
  for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
    const outcome = await attemptCommit(services, gameId, change, claim);
    if (outcome === 'lost') {
      count(METRIC.commitRetries);
      await pause(attempt);
    } else if (outcome !== 'again') return outcome;
  }
  throw new ApiError('CONFLICT', 'the game is busy; try again');
}

/**
 * Continues a bot run that reached a per-commit bound (long runs of bot moves). Also used by
 * the sweep to finish bot moves an interrupted request left undone. Returns our commits.
 */
export async function continueBots(services: CommitServices, rec: GameRec): Promise<number> {
  let commits = 0;
  let cur = rec;
  while (cur.status === 'ACTIVE' && awaitedBot(cur.doc) !== undefined) {
    const r = await commitOnce(services, cur.id, {
      apply: () => [],
      needed: (x) => x.status === 'ACTIVE' && awaitedBot(x.doc) !== undefined,
    });
    if (!r.mine) break; // someone else moved the bots already
    cur = r.rec;
    commits++;
    if (commits > 100) break; // a rules bug must not spin forever
  }
  return commits;
}

/**
 * Writes a new game (LOBBY, version 1): its first commit carries the whole document and the
 * creation events. Returns the record, or null if the id is taken.
 */
export async function insertNewGame(
  services: CommitServices,
  id: string,
  doc: GameDoc,
  events: GameEvent[],
  at: string,
): Promise<GameRec | null> {
  const commit: CommitRec = {
    version: 1,
    firstSeq: 1,
    at,
    status: 'LOBBY',
    events,
    body: { doc },
    notices: [],
    ...actorOf(services),
  };
  const rec = fold(null, commit, id);
  if (!(await services.store.log.insertGame(rec, commit))) return null;
  await tell(services, { before: null, after: rec, saved: Promise.resolve() });
  remember(services, rec);
  return rec;
}
