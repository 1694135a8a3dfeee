// Issue 23: the comparison key of names (functions/api/accounts/names.ts, skeleton.ts). The key is
// a fixed point of itself, look-alikes from Unicode's confusables.txt collide, and the digit and
// letter swaps a player reads as the same name (B1ll / Bill, 0 / O, rn / m) collide too.
import fc from 'fast-check';
import confusables from 'unhomoglyph/data.json';
import { describe, expect, it } from 'vitest';
import { nameKey, normaliseName } from '../../../functions/api/accounts/names.js';
import { confusablesTable } from '../../../functions/api/accounts/skeleton.js';

const table = confusables as Record<string, string>;
/** Every character whose UTS #39 prototype is one given Latin letter (either case): its look-alikes. */
const lookAlikes = new Map<string, string[]>();
for (const [from, to] of Object.entries(table)) {
  if (!/^[A-Za-z]$/.test(to) || !/^\p{L}$/u.test(from)) continue;
  const letter = to.toLowerCase();
  lookAlikes.set(letter, [...(lookAlikes.get(letter) ?? []), from]);
}

describe('the confusables table', () => {
  it("decodes (confusables.generated.ts, grouped by prototype) to unhomoglyph's data.json exactly", () => {
    expect(Object.fromEntries(confusablesTable())).toEqual(table);
    expect(confusablesTable().size).toBe(Object.keys(table).length);
  });
});

describe('the comparison key of a name', () => {
  it('is its own key (idempotent), for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        const k = nameKey(s);
        expect(nameKey(k)).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });

  it('does not change when letters are swapped for their confusables.txt look-alikes', () => {
    const latin = fc.constantFrom(...[...lookAlikes.keys()]);
    const word = fc.array(latin, { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(word, fc.infiniteStream(fc.nat()), (letters, picks) => {
        const original = letters.join('');
        const swapped = letters
          .map((c) => {
            const options = [c, c.toUpperCase(), ...(lookAlikes.get(c) ?? [])];
            return options[picks.next().value % options.length];
          })
          .join('');
        expect(nameKey(swapped), `${original} / ${swapped}`).toBe(nameKey(original));
      }),
      { numRuns: 1000 },
    );
  });

  it('catches digit and letter swaps: B1ll, BILL, B|ll and Bıll are Bill; 0 is O; rn is m', () => {
    const same: [string, string][] = [
      ['B1ll', 'Bill'],
      ['BILL', 'Bill'],
      ['B|ll', 'Bill'],
      ['B\u0131ll', 'Bill'], // dotless ı
      ['Bl1I', 'Bill'],
      ['0scar', 'Oscar'],
      ['B0B', 'Bob'],
      ['Jack R0ckham', 'Jack Rockham'],
      ['Sarn', 'Sam'],
      ['Wi11iarn', 'William'],
    ];
    for (const [a, b] of same) expect(nameKey(a), `${a} / ${b}`).toBe(nameKey(b));
  });

  it('keeps names apart that only a leet reading joins (5/S, 8/B, 3/E are not look-alikes)', () => {
    const apart: [string, string][] = [
      ['5am', 'Sam'],
      ['8ob', 'Bob'],
      ['Ann3', 'Anne'],
      ['Jill', 'Bill'],
      ['Anne', 'Anna'],
    ];
    for (const [a, b] of apart) expect(nameKey(a), `${a} / ${b}`).not.toBe(nameKey(b));
  });

  it('reads a bot-like first word through the swaps too', () => {
    for (const n of ['B0t Kidd', 'BOT Read', 'b\u1d0ft'])
      expect(() => normaliseName(n), n).toThrow(/reserved for bots/);
  });
});
