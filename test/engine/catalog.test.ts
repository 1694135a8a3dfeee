import { describe, expect, it } from 'vitest';
import { characters, editionShape } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { objectsOf } from './states.js';

describe('the character catalog', () => {
  it('lists the 30 classic characters by rank with their timings', () => {
    const list = characters('classic');
    expect(list.map((c) => c.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(list[13]).toMatchObject({ rank: 14, name: 'Brute', timings: ['day'] });
    expect(list[5]).toMatchObject({ rank: 6, name: 'Preacher', timings: ['day', 'end'] });
    expect(list[6].timings).toEqual(['night']); // Barkeep
  });

  it('lists the 40 Galecrest characters, and each edition’s shape', () => {
    expect(characters('galecrest')).toHaveLength(40);
    expect(editionShape('galecrest').daysPerRound).toEqual([4, 5, 6]);
    expect(editionShape('classic')).toMatchObject({
      daysPerRound: [6, 6, 6],
      dealPerRound: [9, 6, 6],
      minPlayers: 2,
      maxPlayers: 6,
    });
  });

  it.each(['classic', 'galecrest'] as const)('%s: hands out copies (editing them changes no rule)', (id) => {
    const edition = objectsOf(editionOf(id));
    for (const answer of [characters(id), editionShape(id)])
      expect([...objectsOf(answer)].filter((o) => edition.has(o))).toEqual([]);
  });
});
