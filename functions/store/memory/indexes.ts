// The DynamoDB adapter's sparse indexes, computed from the records in memory: the status index
// (GSI2, `<createdAt>#<id>`), the due-work index (GSI3, `<at>#<id>`) and their pages. Sort keys
// and cursors are the same texts the DynamoDB adapter answers, compared the same way (by code
// unit, as its merge of the shards does), so pages and cursors match page for page.
import type { GameTables, StoredSnapshot } from './game-items.js';
import { dueFirst, type Entry, pageOf } from './pages.js';

/** The status index holds a snapshot while it is listed and lobby, active or finished. */
const listedAs = (s: StoredSnapshot) => (s.unlisted || s.status === 'CANCELLED' ? null : s.status);

export function statusPage(
  t: GameTables,
  status: 'LOBBY' | 'ACTIVE' | 'FINISHED',
  limit: number,
  before: string | null | undefined,
  oldestFirst: boolean,
): { ids: string[]; cursor: string | null; createdAt: string[] } {
  const entries: Entry[] = [];
  for (const { snapshot: s } of t.games.values())
    if (s && listedAs(s) === status) entries.push({ key: `${s.createdAt}#${s.id}`, id: s.id });
  const { page, cursor } = pageOf(entries, limit, before, !oldestFirst);
  return { ids: page.map((e) => e.id), createdAt: page.map((e) => e.key.split('#')[0]), cursor };
}

/** A snapshot's due-work entry: GAME at its deadline, else LOG at its archive time (none once archived). */
function dueOf(s: StoredSnapshot): { kind: 'GAME' | 'LOG'; at: string } | null {
  if (s.dueAt) return { kind: 'GAME', at: s.dueAt };
  return s.archiveAt ? { kind: 'LOG', at: s.archiveAt } : null;
}

function dueEntries(t: GameTables, kind: 'GAME' | 'LOG' | 'OUTBOX'): Entry[] {
  const entries: Entry[] = [];
  if (kind === 'OUTBOX') {
    for (const [id, c] of t.outboxes) entries.push({ key: `${c.at}#${id}`, id });
    return entries;
  }
  for (const { snapshot: s } of t.games.values()) {
    const due = s ? dueOf(s) : null;
    if (s && due?.kind === kind) entries.push({ key: `${due.at}#${s.id}`, id: s.id });
  }
  return entries;
}

/** Ids of `kind` due at or before `now`, earliest first, at most `limit` (the id as the index key holds it). */
export function dueIds(t: GameTables, kind: 'GAME' | 'LOG' | 'OUTBOX', now: Date, limit: number): string[] {
  return dueFirst(dueEntries(t, kind), now, limit);
}
