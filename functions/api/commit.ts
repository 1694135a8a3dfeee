// The commit loop: load -> change -> conditional commit on the version; on a lost race reload
// and apply the change again (secret card choices commute, so nobody's choice is lost).
// A requestId makes a change happen at most once and answers its retries the same.
import type { GameEvent } from '../engine/index.js';
import type { GameRecord, GameStatus, StoredEvent } from '../store/index.js';
import { awaitedBot, runBots } from './bots.js';
import type { Services } from './context.js';
import { type GameDoc, nextDeadline, refreshPending } from './doc.js';
import { ApiError, fromEngine } from './errors.js';
import { afterCommit } from './notify.js';
import { count, METRIC, noteRequest } from './telemetry.js';

export type GameRec = GameRecord<GameDoc>;

/** Lost races tolerated before answering CONFLICT (six seats racing need at most five). */
export const MAX_COMMIT_ATTEMPTS = 12;

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

const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));

function nextStatus(doc: GameDoc, rec: GameRec, change: Change): GameStatus {
  if (change.status) return change.status(doc, rec);
  if (rec.status === 'LOBBY') return 'LOBBY';
  return doc.state.finished ? 'FINISHED' : 'ACTIVE';
}

/** The `actor` of the events a request writes: its player and OAuth client (none for the sweep). */
export function actorOf(services: Services): Pick<StoredEvent, 'actor'> {
  const a = services.actor;
  return a ? { actor: { playerId: a.playerId, clientId: a.clientId } } : {};
}

/** One attempt's record: the new document, status, version and the events in the outbox. */
function build(services: Services, rec: GameRec, change: Change, idem?: Idempotency): GameRec {
  const doc = structuredClone(rec.doc);
  let events: GameEvent[];
  try {
    events = change.apply(doc, rec);
  } catch (e) {
    throw fromEngine(e);
  }
  const status = nextStatus(doc, rec, change);
  if (status === 'ACTIVE') runBots(rec.id, doc, events, rec.lastSeq);
  const now = services.now();
  refreshPending(doc, status === 'ACTIVE', now);
  const at = now.toISOString();
  const outbox: StoredEvent[] = events.map((e, i) => ({ seq: rec.lastSeq + 1 + i, at, ...e, ...actorOf(services) }));
  const version = rec.version + 1;
  const finalStatus = doc.state.finished && status === 'ACTIVE' ? 'FINISHED' : status;
  return {
    ...rec,
    version,
    status: finalStatus,
    dueAt: finalStatus === 'ACTIVE' ? nextDeadline(doc) : null,
    updatedAt: at,
    doc,
    lastSeq: rec.lastSeq + events.length,
    outbox,
    requests: idem ? { ...rec.requests, [`${idem.scope}#${idem.requestId}`]: version } : rec.requests,
  };
}

/** The answer snapshot kept for retries: the record without its (already copied) outbox. */
const snapshot = (r: GameRec): GameRec => ({ ...r, outbox: [] });

export async function loadOrNotFound(services: Services, gameId: string): Promise<GameRec> {
  noteRequest({ gameId });
  const rec = await services.store.loadGame<GameDoc>(gameId);
  if (!rec) throw new ApiError('NOT_FOUND', `no game ${gameId}`);
  return rec;
}

/** Applies `change` to the game and commits it (then any bot moves left); returns the change's record. */
export async function commitChange(services: Services, gameId: string, change: Change, idem?: Idempotency): Promise<GameRec> {
  const rec = await commitOnce(services, gameId, change, idem);
  if (rec.outbox.length > 0) count(METRIC.moves);
  if (rec.outbox.length > 0) await continueBots(services, rec); // only after a commit of ours
  return rec;
}

async function commitOnce(services: Services, gameId: string, change: Change, idem?: Idempotency): Promise<GameRec> {
  const { store } = services;
  if (idem) {
    const done = await store.getRequest<GameRec>(gameId, idem.scope, idem.requestId);
    if (done) {
      if (done.fingerprint !== idem.fingerprint) throw new ApiError('CONFLICT', `requestId ${idem.requestId} was used for another command`);
      return done.answer;
    }
  }
  for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
    const rec = await loadOrNotFound(services, gameId);
    // Applied by a concurrent duplicate whose record is not written yet: never apply twice.
    if (idem && rec.requests[`${idem.scope}#${idem.requestId}`] !== undefined) {
      // If that call failed before writing the record, write it now (this version is its answer):
      // once the game item forgets the id, a later retry must still find it.
      if (rec.requests[`${idem.scope}#${idem.requestId}`] === rec.version) {
        await store.putRequest(gameId, idem.scope, idem.requestId, { fingerprint: idem.fingerprint, version: rec.version, answer: snapshot(rec) }, services.now());
      }
      return rec;
    }
    if (change.needed && !change.needed(rec)) return rec;
    const next = build(services, rec, change, idem);
    if (await store.commitGame(next)) {
      if (idem) await store.putRequest(gameId, idem.scope, idem.requestId, { fingerprint: idem.fingerprint, version: next.version, answer: snapshot(next) }, services.now());
      count(METRIC.commits);
      const s0 = rec.doc.state;
      const s1 = next.doc.state;
      if (s0 && s1 && (s0.round !== s1.round || s0.day !== s1.day || next.status !== rec.status)) count(METRIC.advances);
      await afterCommit(services, rec, next);
      return next;
    }
    count(METRIC.commitRetries);
    await pause(attempt);
  }
  throw new ApiError('CONFLICT', 'the game is busy; try again');
}

/**
 * Continues a bot run that reached a per-commit bound (long runs of bot moves). Also used by
 * the sweep to finish bot moves an interrupted request left undone. Returns our commits.
 */
export async function continueBots(services: Services, rec: GameRec): Promise<number> {
  let commits = 0;
  let cur = rec;
  while (cur.status === 'ACTIVE' && awaitedBot(cur.doc) !== undefined) {
    cur = await commitOnce(services, cur.id, { apply: () => [], needed: (r) => r.status === 'ACTIVE' && awaitedBot(r.doc) !== undefined });
    if (cur.outbox.length === 0) break; // not committed by us: someone else moved the bots already
    commits++;
    if (commits > 100) break; // a rules bug must not spin forever
  }
  return commits;
}
