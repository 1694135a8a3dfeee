// Display names are unique across every player (guests too, by their confusable skeleton: issue
// 23), so a harness that signs up "Anne" twice on one table gets "Anne", then "Anne 2". Tests that
// are about names sign up through `gql` and see the CONFLICT themselves.
import { nameKey } from '../../functions/api/accounts/names.js';

/** A namer for one table: the base name the first time, then the base with a number no one holds. */
export function uniqueNames(): (base: string) => string {
  const taken = new Set<string>();
  return (base) => {
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base} ${n}`;
      const key = nameKey(name);
      if (!taken.has(key)) {
        taken.add(key);
        return name;
      }
    }
  };
}
