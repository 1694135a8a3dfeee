// Short-list helpers of the hot path (hands, dens, the island, day loot: a few dozen items at
// most). Plain functions with no engine imports, so the core and the effects can both use them.

/**
 * `list.indexOf(v)` for the engine's short lists of ranks (a hand, a den): a loop the compiler
 * inlines, where the built-in is a call per search. (For lists of loot kind names the built-in
 * stays faster: measured, its string comparisons beat the loop's.)
 */
export function indexIn(list: readonly number[], v: number): number {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return i;
  return -1;
}

/**
 * Removes element i, keeping the order: `list.splice(i, 1)` without the array splice returns
 * (the engine removes a card or token on almost every step).
 */
export function removeAt<T>(list: T[], i: number): void {
  const last = list.length - 1;
  for (let j = i; j < last; j++) list[j] = list[j + 1];
  list.pop();
}

/** Inserts v at index i, keeping the order: `list.splice(i, 0, v)` without the returned array. */
export function insertAt<T>(list: T[], i: number, v: T): void {
  let j = list.length;
  list.push(v);
  for (; j > i; j--) list[j] = list[j - 1];
  list[i] = v;
}

/**
 * A sorted copy of a few ranks (a den, a hand: at most a few dozen). Insertion sort: for such
 * short lists it beats Array.prototype.sort, which calls a comparator per comparison.
 */
export function sortedCopy(xs: readonly number[]): number[] {
  return sortNumbers(xs.slice());
}

/** Sorts a short list of numbers in place, ascending (insertion sort, see sortedCopy). */
export function sortNumbers(out: number[]): number[] {
  for (let i = 1; i < out.length; i++) {
    const v = out[i];
    let j = i - 1;
    while (j >= 0 && out[j] > v) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = v;
  }
  return out;
}
