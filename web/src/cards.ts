// Character names and rules text by rank, loaded once per edition from the public
// `characters(edition)` query (the API is the one source of the card tables).
import type { Edition } from './api';
import { request } from './api';
import { CharactersDocument } from './generated';

export type CardTable = Record<number, [name: string, text: string, timings: string[], tieBreaks: number[] | null]>;

const tables: Partial<Record<Edition, CardTable>> = {};

export function cardTable(edition: Edition): CardTable | undefined {
  return tables[edition];
}

/** Loads both editions' characters (public data, no token needed); safe to call again. */
export async function loadCards(): Promise<void> {
  const editions: Edition[] = ['CLASSIC', 'GALECREST'];
  await Promise.all(
    editions
      .filter((e) => !tables[e])
      .map(async (edition) => {
        const r = await request(CharactersDocument, { e: edition });
        tables[edition] = Object.fromEntries(
          r.characters.map((c) => [c.rank, [c.name, c.text, c.timings, c.tieBreaks]]),
        );
      }),
  );
}
