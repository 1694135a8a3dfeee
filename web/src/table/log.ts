// The event log in words, newest first.
import { h } from '../dom';
import { describe } from '../words';
import type { TableCtx } from './context';

export function logPart(ctx: TableCtx): HTMLElement {
  const { events, names } = ctx;
  const shown = events.slice(-200).reverse();
  return h(
    'section',
    { 'aria-labelledby': 'log-h', class: 'log' },
    h('h2', { id: 'log-h' }, 'Event log'),
    h('p', { class: 'muted' }, `Newest first (${events.length} events${events.length > shown.length ? `, last ${shown.length} shown` : ''}).`),
    h(
      'ol',
      { reversed: true, tabindex: 0, 'data-scroll': 'log', 'data-testid': 'log', 'aria-label': 'Event log, newest first' },
      shown.map((e) => h('li', { value: e.seq, class: `ev ev-${e.type}` }, describe(e, names))),
    ),
  );
}
