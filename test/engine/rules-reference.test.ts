// The card tables against the project's rules references (`docs/rules/reference/*-characters.md`,
// the research the engine was written from, with its sources): every rank has the reference's
// name and timings, and each card's rules text (shown to players) names the same timings, in
// the same order.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EditionId } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import type { GalecrestCard } from '../../functions/engine/editions/galecrest/cards.js';

const RULES = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/rules/reference');

const FILES: Record<EditionId, string> = { classic: 'classic-characters.md', galecrest: 'galecrest-characters.md' };

type Timing = 'day' | 'dusk' | 'night' | 'end';
const WORDS: Record<string, Timing> = {
  Day: 'day',
  Daytime: 'day',
  Dusk: 'dusk',
  Night: 'night',
  End: 'end',
  Anchor: 'end',
};

/** The reference's character table: rank -> name and timings. */
function reference(edition: EditionId): Map<number, { name: string; timings: Timing[] }> {
  const text = readFileSync(resolve(RULES, FILES[edition]), 'utf8');
  const section = text.slice(text.search(/^## The \d+ characters/m));
  const out = new Map<number, { name: string; timings: Timing[] }>();
  for (const line of section.split('\n')) {
    const m = /^\| (\d+) \| ([^|]+) \| ([^|]+) \|/.exec(line);
    if (!m) continue;
    const timings = m[3].split('+').map((w) => {
      const t = WORDS[w.trim()];
      if (!t) throw new Error(`${FILES[edition]}: unknown timing "${w.trim()}" for rank ${m[1]}`);
      return t;
    });
    out.set(Number(m[1]), { name: m[2].trim(), timings });
  }
  return out;
}

/** The timings a card of the engine's table has, in rules order. */
function engineTimings(c: GalecrestCard): Timing[] {
  const has: Record<Timing, boolean> = {
    day: !!c.day,
    // A card that takes other than one loot token at dusk (Cabin Boy, classic Cook) has a dusk rule.
    dusk: !!c.dusk || c.loot !== undefined,
    night: !!c.night,
    end: !!c.end || !!c.anchor || !!c.countsDouble || !!c.backToHand,
  };
  return (['day', 'dusk', 'night', 'end'] as const).filter((t) => has[t]);
}

/** The timings a card's rules text names ("Day: ... End of campaign: ..."), in order. */
function textTimings(text: string): Timing[] {
  const out: Timing[] = [];
  for (const m of text.matchAll(/(?:^|\. )(Day|Dusk|Night|End of campaign|Anchor)(?: \([^)]*\))?:/g))
    out.push(WORDS[m[1].split(' ')[0]]);
  return out;
}

describe.each(['classic', 'galecrest'] as const)('%s card table against the rules reference', (edition) => {
  const ed = editionOf(edition);

  it('every rank has the reference’s name and timings', () => {
    const ref = reference(edition);
    expect(ref.size).toBe(ed.ranks);
    for (let r = 1; r <= ed.ranks; r++) {
      const c = ed.cards[r] as GalecrestCard;
      expect({ rank: c.rank, name: c.name, timings: engineTimings(c) }).toEqual({ rank: r, ...ref.get(r) });
    }
  });

  it('every rules text names the card’s timings, in order, each followed by what it does', () => {
    for (let r = 1; r <= ed.ranks; r++) {
      const c = ed.cards[r] as GalecrestCard;
      expect({ rank: r, timings: textTimings(c.text) }).toEqual({ rank: r, timings: engineTimings(c) });
      expect(c.text).toMatch(/^(Day|Dusk|Night|End of campaign|Anchor)( \([^)]*\))?: \S.*\.$/);
    }
  });
});
