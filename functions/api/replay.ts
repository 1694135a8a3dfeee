// Replays: a game is its options, its seed and its command log. `replayState` re-runs the log
// through the engine up to a point of the event log; the scenario of a finished game is the
// same data in the engine's scenario format (`npm run sim -- play`).
import { applyInPlace, createGame, type GameEvent, type GameState, type Scenario } from '../engine/index.js';
import type { Player } from './auth.js';
import { canWatch } from './access.js';
import { type GameRec, loadOrNotFound } from './commit.js';
import type { Services } from './context.js';
import { engineOptions, type GameDoc } from './doc.js';
import { ApiError } from './errors.js';

/**
 * The engine state right after event `at`: every command whose events all come at or before
 * `at` is applied (a move that ran a whole day shows once its last event is reached, so the
 * snapshot never shows anything logged after `at`).
 */
export function replayState(doc: GameDoc, at: number): GameState {
  const g = createGame(engineOptions(doc));
  const events: GameEvent[] | null = null;
  for (const { c, seq } of doc.log ?? []) {
    if (seq > at) break;
    applyInPlace(g, c, events);
  }
  return g;
}

/** The game as the caller saw it after event `at` (a record to render, with its state replaced). */
export async function replay(services: Services, player: Player | null, gameId: string, at: number): Promise<GameRec> {
  const rec = await loadOrNotFound(services, gameId);
  canWatch(rec, player);
  if (!Number.isInteger(at) || at < 0 || at > rec.lastSeq) throw new ApiError('BAD_USER_INPUT', `at is a seq, 0-${rec.lastSeq}`);
  if (rec.doc.log === undefined) throw new ApiError('NOT_AVAILABLE', 'this game was started before command logs were kept');
  const state = replayState(rec.doc, at);
  const started = rec.status !== 'LOBBY' && rec.status !== 'CANCELLED' && at >= (rec.doc.startSeq ?? Number.POSITIVE_INFINITY);
  const status = !started ? 'LOBBY' : state.finished ? 'FINISHED' : 'ACTIVE';
  // No deadlines in a replay: nothing is pending any more.
  return { ...rec, status, lastSeq: at, dueAt: null, doc: { ...rec.doc, state, pending: {} } };
}

/** The finished game as a scenario (seed and every command), for whoever may look at the game. */
export function scenarioOf(rec: GameRec): Scenario | null {
  if (rec.status !== 'FINISHED' || rec.doc.log === undefined) return null;
  return { ...engineOptions(rec.doc), commands: (rec.doc.log ?? []).map((l) => l.c) };
}
