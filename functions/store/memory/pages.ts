// What the in-memory adapters share: copies in and out (a caller never holds a stored record),
// DynamoDB's order of string keys, the pages the DynamoDB adapter reads by sort key, and its
// due-work lists.

/** A deep copy: what a caller holds never aliases what the store keeps. */
export const copy = <T>(value: T): T => structuredClone(value);

/** DynamoDB's order of string keys (by code unit: the same for the ids this service makes). */
export const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** An index entry: its sort key and the id it points at. */
export interface Entry {
  key: string;
  id: string;
}

/** The error DynamoDB answers a request it cannot run (a key range upside down, a limit under 1). */
export function invalid(message: string): Error {
  return Object.assign(new Error(message), { name: 'ValidationException' });
}

/**
 * One page of `entries` sorted by key (`newestFirst`: descending), strictly after the cursor
 * `before`; the cursor is the page's last key when another page follows, else null: every page
 * of the twin, as the DynamoDB adapter's Query pages are.
 */
export function pageOf<E extends { key: string }>(
  entries: E[],
  limit: number,
  before: string | null | undefined,
  newestFirst: boolean,
): { page: E[]; cursor: string | null } {
  const after = before ? entries.filter((e) => (newestFirst ? e.key < before : e.key > before)) : [...entries];
  // DynamoDB refuses a negative page, and fails a page of 0 where one more entry was found.
  if (limit < 0 || (limit < 1 && after.length > 0)) throw invalid(`a page of ${limit} entries`);
  after.sort((a, b) => byKey(a.key, b.key));
  if (newestFirst) after.reverse();
  const page = after.slice(0, limit);
  return { page, cursor: after.length > limit ? page[page.length - 1].key : null };
}

/**
 * One page of `entries` (sort key -> record) whose keys begin with `prefix`, newest (greatest
 * key) first, below the cursor `before`: the twin of the DynamoDB adapter's `newestFirstPage`.
 */
export function newestFirst<T>(
  entries: Iterable<readonly [string, T]>,
  prefix: string,
  limit: number,
  before?: string | null,
): { items: T[]; cursor: string | null } {
  const listed = [...entries].filter(([k]) => k.startsWith(prefix)).map(([key, value]) => ({ key, value }));
  const { page, cursor } = pageOf(listed, limit, before, true);
  return { items: page.map((e) => copy(e.value)), cursor };
}

/** Ids of the entries (keys `<at>#<id>`) due at or before `now`, earliest first (then by id), at most `limit`. */
export function dueFirst(entries: Entry[], now: Date, limit: number): string[] {
  if (!(limit >= 1)) throw invalid(`a page of ${limit} entries`);
  const to = `${now.toISOString()}#\uffff`;
  return entries
    .filter((e) => e.key <= to)
    .sort((a, b) => byKey(a.key, b.key))
    .slice(0, limit)
    .map((e) => e.id);
}

/**
 * One page of a scan over `keys` (maintenance scripts): `limit` records after the cursor, in key
 * order; the cursor (opaque, as the DynamoDB adapter's) is null on the last page.
 */
export function scanPage<T>(
  records: Map<string, T>,
  limit: number,
  cursor: string | null,
): { items: T[]; cursor: string | null } {
  const after = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k: string }).k : null;
  const keys = [...records.keys()].filter((k) => after === null || k > after).sort(byKey);
  const page = keys.slice(0, limit);
  const next =
    keys.length > limit ? Buffer.from(JSON.stringify({ k: page[page.length - 1] })).toString('base64url') : null;
  return { items: page.map((k) => copy(records.get(k) as T)), cursor: next };
}

/**
 * The due-work index of one kind (the DynamoDB adapter's GSI3 keys `<at>#<id>`): ids due at or
 * before `now`, earliest first (then by id), at most `limit`.
 */
export function dueIndex() {
  const at = new Map<string, string>();
  return {
    set: (id: string, when: string | null | undefined) => (when ? at.set(id, when) : at.delete(id)),
    has: (id: string) => at.has(id),
    due: async (now: Date, limit: number): Promise<string[]> =>
      dueFirst(
        [...at].map(([id, when]) => ({ id, key: `${when}#${id}` })),
        now,
        limit,
      ),
  };
}
