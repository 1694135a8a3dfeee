// Rank and den option lists (actions.ts): built from a scratch buffer sorted by insertion, they
// must equal the plain definition (sort a copy, filter, map to the shared options), whatever
// the order of the ranks; character ids read back digit by digit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allDenOptions,
  charId,
  charOption,
  denOptions,
  denOptionsWith,
  idRank,
  idSeat,
  ownDenOptions,
  rankOption,
  rankOptions,
} from '../../functions/engine/actions.js';
import { playCtx } from '../../functions/engine/core.js';
import { createGame } from '../../functions/engine/index.js';

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
// A seat holds one card of each rank: lists of distinct ranks, in any order.
const ranks = fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 40 });

describe('option lists without a sorted copy', () => {
  const x = playCtx(createGame({ edition: 'galecrest', players: 3, seed: 'options', board: 'calm' }), null);

  it('rankOptions: the shared option of each rank, lowest first', () => {
    fc.assert(
      fc.property(ranks, (rs) => {
        expect(rankOptions(x, rs)).toEqual(sorted(rs).map((r) => rankOption(x, r)));
      }),
      { numRuns: 300 },
    );
  });

  it('den options: each den by rank, seats in order; denOptionsWith keeps only ranks with an ability, the copier left out', () => {
    fc.assert(
      fc.property(fc.tuple(ranks, ranks, ranks), fc.integer({ min: 1, max: 40 }), (dens, except) => {
        dens.forEach((d, s) => (x.g.seats[s].den = d));
        const plain = (s: number) => sorted(dens[s]).map((r) => charOption(x, s, r));
        expect(allDenOptions(x)).toEqual([...plain(0), ...plain(1), ...plain(2)]);
        expect(denOptions(x, [2, 0])).toEqual([...plain(2), ...plain(0)]);
        expect(ownDenOptions(x, 1)).toEqual(plain(1));
        const day = x.fx.day;
        expect(denOptionsWith(x, 1, day, except)).toEqual(
          sorted(dens[1].filter((r) => r !== except && day[r] !== undefined)).map((r) => charOption(x, 1, r)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a list longer than the scratch buffer is refused, not cut short', () => {
    expect(() =>
      rankOptions(
        x,
        Array.from({ length: 65 }, (_, i) => i),
      ),
    ).toThrow(/more than 64 ranks/);
  });

  it('idSeat and idRank read back what charId wrote', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 63 }), (seat, rank) => {
        const id = charId(seat, rank);
        expect([idSeat(id), idRank(id)]).toEqual([seat, rank]);
      }),
    );
  });
});
