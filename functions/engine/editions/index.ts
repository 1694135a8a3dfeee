import type { Edition } from '../edition.js';
import type { EditionId } from '../types.js';
import { classic } from './classic/index.js';
import { classicWords } from './classic/words.js';
import { galecrest } from './galecrest/index.js';
import { galecrestWords } from './galecrest/words.js';
import type { EditionWords } from './words.js';

const EDITIONS: Partial<Record<EditionId, Edition>> = { classic, galecrest };

/**
 * Each edition's words, apart from its rules: `Edition` is what apply() reads on every step,
 * the words only what a view shows a person.
 */
const WORDS: Record<EditionId, EditionWords> = { classic: classicWords, galecrest: galecrestWords };

export function isEditionId(id: unknown): id is EditionId {
  return typeof id === 'string' && id in EDITIONS;
}

/** The editions a game can be created in, in display order. */
export const editionIds = (): EditionId[] => Object.keys(EDITIONS) as EditionId[];

export function editionOf(id: EditionId): Edition {
  const ed = EDITIONS[id];
  if (!ed) throw new Error(`edition ${id} is not available`);
  return ed;
}

/** What the edition tells a person (editions/words.ts): names, loot, ties, its own events. */
export function wordsOf(id: EditionId): EditionWords {
  const words = WORDS[id];
  if (!words) throw new Error(`edition ${id} is not available`);
  return words;
}
