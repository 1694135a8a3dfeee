// Replays: a game is its options, its seed and its commands, read from its commit items.
// `replayState` re-runs the commands through the engine up to a point of the event log; the
// scenario of a finished game is the same data in the engine's scenario format
// (`npm run sim -- play`).
import { applyInPlace, createGame, type GameEvent, type GameState, type Scenario } from '../../engine/index.js';
import type { Player } from '../accounts/auth.js';
import { canWatch } from './access.js';
import {
  archivedCommands,
  type CommitRec,
  commandsOf,
  type GameRec,
  historyOf,
  loadOrNotFound,
} from '../play/commit.js';
import type { Services } from '../services.js';
import { lastSeqOf } from '../../store/records.js';
import { engineOptions, type GameDoc, type LoggedCommand } from '../doc.js';
import { ApiError } from '../errors.js';

/**
 * The engine state right after event `at`: every command whose events all come at or before
 * `at` is applied (a move that ran a whole day shows once its last event is reached, so the
 * snapshot never shows anything logged after `at`).
 */
export function replayState(doc: GameDoc, log: LoggedCommand[], at: number): GameState {
  const g = createGame(engineOptions(doc));
  const events: GameEvent[] | null = null;
  for (const { c, seq } of log) {
    if (seq > at) break;
    applyInPlace(g, c, events);
  }
  return g;
}

/**
 * Commit recipes already read, per game (a prefix of its log: commits never change once
 * written, so a prefix read once stays true). Games most recently replayed are kept.
 */
const prefixes = new Map<string, CommitRec[]>();
const PREFIX_GAMES = 100;

/** The commits that start at or before event `at` (read once per process, then only the new ones). */
async function commitsUpTo(services: Services, gameId: string, at: number): Promise<CommitRec[]> {
  const known = prefixes.get(gameId) ?? [];
  const last = known[known.length - 1];
  const next = last ? last.firstSeq + last.events.length : 1;
  let commits = known;
  if (next <= at) commits = [...known, ...((await services.store.log.listRecipes(gameId, next, at)) as CommitRec[])];
  prefixes.delete(gameId);
  prefixes.set(gameId, commits);
  if (prefixes.size > PREFIX_GAMES) prefixes.delete(prefixes.keys().next().value!);
  return commits.filter((c) => c.firstSeq <= at);
}

/** The commands up to event `at` (of a game that is over: from its archive once there is one, its commit items may be gone). */
async function commandsUpTo(
  services: Services,
  rec: GameRec,
  at: number,
  commits: CommitRec[],
): Promise<LoggedCommand[]> {
  const archived = await archivedCommands(services, rec);
  if (archived) return archived.filter((l) => l.seq <= at);
  return commandsOf(commits);
}

/**
 * The version and time of the game right after event `at`: those of the last commit whose events
 * all come at or before `at` (the one the replayed state ends with; at 0, before anything:
 * version 0 at the creation). Once a finished game's commit items have expired (90 days after
 * the end, retention.ts) only the final ones are known.
 */
function versionAt(rec: GameRec, commits: CommitRec[], at: number): { version: number; updatedAt: string } {
  if (at > 0 && commits.length === 0) return { version: rec.version, updatedAt: rec.updatedAt };
  const done = commits.filter((c) => lastSeqOf(c) <= at);
  const last = done[done.length - 1];
  return last ? { version: last.version, updatedAt: last.at } : { version: 0, updatedAt: rec.createdAt };
}

/** The game as the caller saw it after event `at` (a record to render, with its state, version and time replaced). */
export async function replay(services: Services, player: Player | null, gameId: string, at: number): Promise<GameRec> {
  const rec = await loadOrNotFound(services, gameId);
  canWatch(rec, player);
  if (!Number.isInteger(at) || at < 0 || at > rec.lastSeq)
    throw new ApiError('BAD_USER_INPUT', `at is a seq, 0-${rec.lastSeq}`);
  const commits = at > 0 ? await commitsUpTo(services, rec.id, at) : [];
  const started =
    rec.status !== 'LOBBY' && rec.status !== 'CANCELLED' && at >= (rec.doc.startSeq ?? Number.POSITIVE_INFINITY);
  // Before the start: the lobby, without a deal (as it was shown then).
  const state = started ? replayState(rec.doc, await commandsUpTo(services, rec, at, commits), at) : undefined;
  const status = !started ? 'LOBBY' : state!.finished ? 'FINISHED' : 'ACTIVE';
  // No deadlines in a replay: nothing is pending any more.
  return {
    ...rec,
    ...versionAt(rec, commits, at),
    status,
    lastSeq: at,
    dueAt: null,
    doc: { ...rec.doc, state, pending: {} },
  };
}

/** The finished game as a scenario (seed and every command), for whoever may look at the game; null before the end. */
export async function scenarioOf(rec: GameRec): Promise<Scenario | null> {
  if (rec.status !== 'FINISHED') return null;
  const history = historyOf(rec);
  if (!history) return null;
  return { ...engineOptions(rec.doc), commands: (await history()).map((l) => l.c) };
}
