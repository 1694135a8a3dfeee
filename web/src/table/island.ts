// The island (classic) / the sea (Galecrest): characters in rank order, each with its owner's
// colour, its rules one tap away and (classic) the tie-break mark that placed it.
import type { Edition, IslandCard } from '../api';
import { h } from '../dom';
import { islandWords, type Names } from '../words';
import { cardRef } from './card-ref';
import { seatClass, type TableCtx } from './context';

export function islandList(edition: Edition, island: IslandCard[], names: Names, prefix = 'isle'): HTMLElement {
  return h(
    'ol',
    { class: 'island', 'data-testid': 'island' },
    island.map((c, i) =>
      h(
        'li',
        { class: `chip ${seatClass(c.seat)}`, 'data-key': `${prefix}-${c.seat}-${c.rank}` },
        cardRef(edition, c.rank, c.seat, `${prefix}-ref-${c.seat}-${c.rank}-${i}`, names.seat(c.seat)),
      ),
    ),
  );
}

export function islandPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const w = islandWords(g.edition);
  return h(
    'section',
    { 'aria-labelledby': 'island-h', 'data-key': 'island' },
    h('h2', { id: 'island-h' }, `${w.heading} (rank order, left to right)`),
    g.island.length === 0
      ? h('p', { class: 'muted' }, g.phase === 'CHOOSE' ? w.waiting : w.empty)
      : islandList(g.edition, g.island, ctx.names),
  );
}
