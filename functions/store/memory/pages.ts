// What the in-memory adapters share: copies in and out (a caller never holds a stored record),
// DynamoDB's order of string keys, and the pages the DynamoDB adapter reads by sort key.

/** A deep copy: what a caller holds never aliases what the store keeps. */
export const copy = <T>(value: T): T => structuredClone(value);

/** DynamoDB's order of string keys (by code unit: the same for the ids this service makes). */
export const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One page of `entries` (sort key -> record) whose keys begin with `prefix`, newest (greatest
 * key) first, below the cursor `before` (the last key of the previous page); the cursor is given
 * only when another page follows: the twin of the DynamoDB adapter's `newestFirstPage`.
 */
export function newestFirst<T>(
  entries: Iterable<readonly [string, T]>,
  prefix: string,
  limit: number,
  before?: string | null,
): { items: T[]; cursor: string | null } {
  const keys = [...entries]
    .filter(([k]) => k.startsWith(prefix) && (!before || k < before))
    .sort(([a], [b]) => byKey(b, a));
  const page = keys.slice(0, limit);
  return { items: page.map(([, v]) => copy(v)), cursor: keys.length > limit ? page[page.length - 1][0] : null };
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
    async due(now: Date, limit: number): Promise<string[]> {
      const to = `${now.toISOString()}#\uffff`;
      return [...at]
        .map(([id, when]) => ({ id, key: `${when}#${id}` }))
        .filter((e) => e.key <= to)
        .sort((a, b) => byKey(a.key, b.key))
        .slice(0, limit)
        .map((e) => e.id);
    },
  };
}
