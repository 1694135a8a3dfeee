import type { Edition } from '../edition.js';
import type { EditionId } from '../types.js';
import { classic } from './classic/index.js';
import { galecrest } from './galecrest/index.js';

const EDITIONS: Partial<Record<EditionId, Edition>> = { classic, galecrest };

export function isEditionId(id: unknown): id is EditionId {
  return typeof id === 'string' && id in EDITIONS;
}

export function editionOf(id: EditionId): Edition {
  const ed = EDITIONS[id];
  if (!ed) throw new Error(`edition ${id} is not available`);
  return ed;
}
