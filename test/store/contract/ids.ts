// Ids unique within a contract file's store (a file shares one store per adapter across cases).
import { randomUUID } from 'node:crypto';

export const uid = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Every page of a paged list, following its cursor until null; each page at most `limit` long. */
export async function allPages<T>(
  limit: number,
  page: (cursor: string | null) => Promise<{ items: T[]; cursor: string | null }>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const p: { items: T[]; cursor: string | null } = await page(cursor);
    if (p.items.length > limit) throw new Error(`a page of ${p.items.length} items, over its limit ${limit}`);
    items.push(...p.items);
    cursor = p.cursor;
    if (++pages > 1000) throw new Error('the cursor never ends');
  } while (cursor);
  return { items, pages };
}
