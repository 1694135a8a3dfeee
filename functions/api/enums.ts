// The schema's enums are upper case (CLASSIC, GREEDY, CALM), the engine's strings lower case
// (classic, greedy, calm): one typed spelling each way, so no caller restates either union.
import type { EditionId } from '../engine/index.js';
import type { Edition } from './schema.types.generated.js';

/** The schema's value of an engine string (`classic` -> `CLASSIC`). */
export const upper = <T extends string>(s: T): Uppercase<T> => s.toUpperCase() as Uppercase<T>;

/** The engine's string of a schema value (`GREEDY` -> `greedy`). */
export const lower = <T extends string>(s: T): Lowercase<T> => s.toLowerCase() as Lowercase<T>;

/** The schema's Edition of an edition id as the store keeps it (a plain string there: the store knows no engine). */
export const editionEnum = (id: string): Edition => upper(id as EditionId);
