// Each edition's words (functions/engine/editions/*/words.ts) cover what the edition has: a
// noun for every loot kind, a legend entry for every kind in the bag's order, a name for every
// card, a payout per reputation space where there is a track, a printed mark per deck colour
// where there are marks, and boards only where a game can choose one.
import { describe, expect, it } from 'vitest';
import { characters, editionIds, editionShape, wordsOf } from '../../functions/engine/index.js';

describe.each(editionIds())('the words of %s', (id) => {
  const words = wordsOf(id);
  const shape = editionShape(id);

  it('names every loot kind, and only those', () => {
    expect(Object.keys(words.lootNouns).sort()).toEqual([...shape.lootKinds].sort());
    for (const kind of shape.lootKinds) {
      expect(words.isLoot(kind)).toBe(true);
      expect(words.lootWords(kind)).toMatch(/^an? [a-zA-Z ]+$/);
    }
    expect(words.isLoot('nothing')).toBe(false);
    expect(words.lootWords('nothing', 2)).toBe('2 nothings');
  });

  it('has a legend entry with worth or effect for every kind, in the order of the loot kinds', () => {
    const legend = words.legend({});
    expect(legend.map((l) => l.kind)).toEqual(shape.lootKinds);
    for (const l of legend) {
      expect(l.name).toBe(words.lootName(l.kind));
      expect(l.tokens).toBeGreaterThan(0);
    }
  });

  it('names every card by its name and rank', () => {
    for (const c of characters(id)) expect(words.card(c.rank)).toBe(`${c.name} (${c.rank})`);
    expect(words.card(99)).toBe('Character 99');
  });

  it('says a card of a seat with its holder, the neutral seat with "the"', () => {
    const names = { seat: (s: number) => (s === 0 ? 'You' : 'Mary') };
    const [a] = characters(id);
    expect(words.seatCard(names, 0, a.rank)).toBe(`Your ${a.name} (${a.rank})`);
    expect(words.seatCard(names, 1, a.rank)).toBe(`Mary's ${a.name} (${a.rank})`);
    expect(words.seatCard(names, -1, a.rank)).toBe(`the ${a.name} (${a.rank})`);
  });
});

describe('what differs between the editions', () => {
  it('classic prints a tie-break mark per deck colour, each of 1-6 once; Galecrest has none', () => {
    for (const c of characters('classic'))
      expect([...wordsOf('classic').tieBreakMarks(c.rank)!].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(wordsOf('galecrest').tieBreakMarks(1)).toBeNull();
  });

  it('Galecrest pays each of its six reputation spaces and has boards; classic neither', () => {
    expect(wordsOf('galecrest').reputationPayouts()).toEqual([12, 11, 10, 9, 8, 7]);
    expect(wordsOf('galecrest').boards()[0]).toBe('calm');
    expect(wordsOf('classic').reputationPayouts()).toBeNull();
    expect(wordsOf('classic').boards()).toEqual([]);
  });

  it('Galecrest names the 2-player Midshipman, between two ranks', () => {
    expect(wordsOf('galecrest').card(20.5)).toBe('Midshipman (20½)');
    expect(wordsOf('galecrest').seatCard({ seat: () => 'Anne' }, -1, 20.5)).toBe('the Midshipman (20½)');
  });
});
