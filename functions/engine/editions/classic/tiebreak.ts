// Per-colour tie-break numbers printed on each card (docs/rules/reference/classic-characters.md, table from E).
// Seat i plays colour i: red, yellow, green, blue, black, white (editions/words.ts seatColour).
// Lower goes left.
// Data: TIEBREAK[rank - 1][colour].
const TIEBREAK: readonly (readonly number[])[] = [
  [2, 1, 4, 3, 5, 6],
  [3, 2, 5, 4, 6, 1],
  [4, 3, 6, 5, 1, 2],
  [5, 4, 1, 6, 2, 3],
  [6, 5, 2, 1, 3, 4],
  [1, 6, 3, 2, 4, 5],
  [1, 6, 3, 2, 4, 5],
  [2, 1, 4, 3, 5, 6],
  [3, 2, 5, 4, 6, 1],
  [4, 3, 6, 5, 1, 2],
  [5, 4, 1, 6, 2, 3],
  [6, 5, 2, 1, 3, 4],
  [6, 5, 2, 1, 3, 4],
  [1, 6, 3, 2, 4, 5],
  [2, 1, 4, 3, 5, 6],
  [3, 2, 5, 4, 6, 1],
  [4, 3, 6, 5, 1, 2],
  [5, 4, 1, 6, 2, 3],
  [5, 4, 1, 6, 2, 3],
  [6, 5, 2, 1, 3, 4],
  [1, 6, 3, 2, 4, 5],
  [2, 1, 4, 3, 5, 6],
  [3, 2, 5, 4, 6, 1],
  [4, 3, 6, 5, 1, 2],
  [4, 3, 6, 5, 1, 2],
  [5, 4, 1, 6, 2, 3],
  [6, 5, 2, 1, 3, 4],
  [1, 6, 3, 2, 4, 5],
  [2, 1, 4, 3, 5, 6],
  [3, 2, 5, 4, 6, 1],
];

/** TIEBREAK flattened, index (rank - 1) * 6 + colour: one array read per card at sunrise. */
const FLAT: readonly number[] = TIEBREAK.flat();

export function tieBreak(_g: unknown, seat: number, rank: number): number {
  return FLAT[(rank - 1) * 6 + seat];
}
