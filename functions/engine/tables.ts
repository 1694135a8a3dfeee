// Per-edition tables computed once and reused by every game of that edition (option objects,
// ability arrays...). The engine runs one edition for many commands in a row, so the last
// edition asked for is remembered and most calls do no lookup at all.
import type { Edition } from './edition.js';

/** Memoizes `make(ed)` per edition. */
export function perEdition<T>(make: (ed: Edition) => T): (ed: Edition) => T {
  const tables = new Map<Edition, T>();
  let lastEd: Edition | undefined;
  let last: T | undefined;
  return (ed) => {
    if (ed === lastEd) return last as T;
    let t = tables.get(ed);
    if (t === undefined) {
      t = make(ed);
      tables.set(ed, t);
    }
    lastEd = ed;
    last = t;
    return t;
  };
}
