// The loot prompt's options: one per distinct kind on offer, in the edition's order, whatever
// the tokens' order and repeats (kindOptions finds a token's kind by its first letter, checked
// against the kind itself).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindOptions } from '../../functions/engine/actions.js';
import { playCtx as newCtx } from '../../functions/engine/core.js';
import { createGame } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';

describe.each(['classic', 'galecrest'] as const)('kindOptions (%s)', (edition) => {
  const ed = editionOf(edition);
  const x = newCtx(
    createGame({ edition, players: 3, seed: 'kinds', board: edition === 'galecrest' ? 'calm' : undefined }),
    null,
  );
  // Not kinds of the edition, one sharing a first letter with a real kind: offered tokens never
  // hold these, and they give no option.
  const strangers = ['cheese', 'zebra', ''];

  it('offers each distinct kind once, in lootKinds order, and nothing for unknown tokens', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ed.lootKinds, ...strangers), { maxLength: 12 }), (tokens) => {
        const ids = kindOptions(x, tokens).map((o) => o.id);
        expect(ids).toEqual(ed.lootKinds.filter((k) => tokens.includes(k)));
      }),
      { numRuns: 300 },
    );
  });
});
