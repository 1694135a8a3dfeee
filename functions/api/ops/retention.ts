// Retention of finished games: what a game that is over keeps for good, and what goes.
//
// When a game ends (FINISHED, or CANCELLED) its snapshot is written with `archiveAt` (fold, in
// commit.ts), which lists it in the due-work index (kind LOG). The sweep then, for each such
// game: writes the archive item (the commands since the start, with their seqs: what the
// scenario and replays need), gives every commit item a TTL of RETENTION_DAYS, and takes the
// snapshot out of the index. DynamoDB deletes the commit items after that (the events, recipes
// and notices: the bulk of a game); the snapshot (summary, ranking, final state), the archive
// (scenario, replays) and the membership items (the players' game lists) stay. Request claims
// and deliveries have their own short TTL (7 days) from the start.
//
// Every step is idempotent and the index entry goes last, so a sweep that stops half-way is
// finished by the next one. A commit after the archive (e.g. a rematch link) writes a new
// snapshot with its own `archiveAt`: the game comes back to the sweep and its new commits get
// a TTL too.
import { type CommitRec, commandsOf, isOver, load, repair } from '../play/commit.js';
import type { Services } from '../services.js';
import { rateGame } from '../community/ratings.js';
import { countGame } from '../community/profile.js';
import type { LoggedCommand } from '../doc.js';

/** Days a finished game's log (events, commit items) is kept after the game ends. */
export const RETENTION_DAYS = 90;

/** What the archive item holds. */
export interface Archive {
  /** The version of the game when archived (newer commits are archived again). */
  version: number;
  /** The commands since the start, each with the seq of its last event (replays, scenario). */
  commands: LoggedCommand[];
}

/** The epoch-seconds TTL of a log archived at `now`. */
export const expiryOf = (now: Date): number => Math.floor(now.getTime() / 1000) + RETENTION_DAYS * 86_400;

/** Archives a game's log (see above). False if there was nothing to do (not over, or gone). */
export async function archiveLog(services: Services, gameId: string): Promise<boolean> {
  const cur = await load(services, gameId);
  if (!cur) return false;
  // The snapshot must hold everything before the log may go.
  if (cur.tail.length > 0) await repair(services, gameId, cur);
  const rec = cur.rec;
  if (!isOver(rec.status)) return false;
  // Ratings before the log goes: a game whose end a crash left unrated is rated here (idempotent).
  await rateGame(services, rec);
  await countGame(services, rec);
  const recipes = (await services.store.log.listRecipes(gameId)) as CommitRec[];
  const archive: Archive = { version: rec.version, commands: commandsOf(recipes) };
  // One clock reading for the whole step: the chat must expire with the log to the second.
  const now = services.now();
  await services.store.ops.saveArchive(gameId, archive, now.toISOString());
  await services.store.ops.expireCommits(
    gameId,
    recipes.map((c) => c.firstSeq),
    expiryOf(now),
  );
  // The chat goes with the log (the same TTL), before the snapshot leaves the due-work index.
  await services.store.ops.expireChat(gameId, expiryOf(now));
  await services.store.ops.markArchived(gameId, rec.version);
  return true;
}
