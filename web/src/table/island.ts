// The island (classic) / the sea (Galecrest): today's characters in rank order.
import { h } from '../dom';
import { cardName, cardText } from '../words';
import { seatClass, type TableCtx } from './context';

export function islandPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  return h(
    'section',
    { 'aria-labelledby': 'island-h' },
    h('h2', { id: 'island-h' }, 'Island (rank order, left to right)'),
    g.island.length === 0
      ? h('p', { class: 'muted' }, 'Nobody is ashore.')
      : h(
          'ol',
          { class: 'island', 'data-testid': 'island' },
          g.island.map((c) => h('li', { class: `chip ${seatClass(c.seat)}`, title: cardText(g.edition, c.rank) }, h('strong', null, cardName(g.edition, c.rank)), h('span', null, ctx.names.seat(c.seat)))),
        ),
  );
}
