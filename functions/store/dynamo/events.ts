// The event feed: events live in the commit items that produced them (one item per commit,
// keyed by the seq of its first event), so a page is a query over a few commit items.
import { type Db, queryItems } from './db.js';
import { listCommits } from './games.js';
import { keys } from './table.js';
import { eventsOf, type StoredEvent } from '../records.js';

/** The first seq of the commit holding event `seq` (the newest commit starting at or before it), or null. */
async function commitHolding(db: Db, gameId: string, seq: number): Promise<number | null> {
  const r = await queryItems(db, {
    TableName: db.table,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.game(gameId).PK, ':from': keys.commitSk(1), ':to': keys.commitSk(seq) },
    ScanIndexForward: false,
    ConsistentRead: true,
    Limit: 1,
    ProjectionExpression: 'SK',
  });
  const it = r.Items?.[0];
  return it ? Number((it.SK as string).slice('COMMIT#'.length)) : null;
}

/**
 * Events with seq > after, oldest first, at most `limit`; `hasMore` if the log goes on.
 * A page that starts on a commit boundary (the usual poll: `after` = the last seq seen) is one
 * query; one that starts inside a commit first finds that commit (a keys-only query).
 */
export async function listEvents(
  db: Db,
  gameId: string,
  after: number,
  limit: number,
): Promise<{ events: StoredEvent[]; hasMore: boolean }> {
  // Commits are small (usually 1-30 events): a few items make a page.
  const batch = Math.max(2, Math.min(25, Math.ceil(limit / 4)));
  let from = after + 1;
  let commits = await listCommits(db, gameId, from, 9_999_999_999, batch);
  if (commits[0]?.firstSeq !== from) {
    const holder = await commitHolding(db, gameId, from);
    if (holder !== null && holder !== commits[0]?.firstSeq) {
      from = holder;
      commits = await listCommits(db, gameId, from, 9_999_999_999, batch);
    }
  }
  const out: StoredEvent[] = eventsOf(commits).filter((e) => e.seq > after);
  let exhausted = commits.length < batch;
  while (!exhausted && out.length <= limit) {
    const last = commits[commits.length - 1];
    commits = await listCommits(db, gameId, last.firstSeq + last.events.length, 9_999_999_999, batch);
    out.push(...eventsOf(commits));
    exhausted = commits.length < batch;
  }
  return { events: out.slice(0, limit), hasMore: out.length > limit };
}
