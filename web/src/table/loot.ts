// The loot laid out for today and the round's other days.
import { h } from '../dom';
import { roundWord } from '../words';
import type { TableCtx } from './context';

export function lootPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const today = g.days[g.day - 1] ?? [];
  return h(
    'section',
    { 'aria-labelledby': 'loot-h' },
    h('h2', { id: 'loot-h' }, 'Loot'),
    h('p', null, h('strong', null, `Day ${g.day}: `), today.length ? today.join(', ') : 'taken'),
    h(
      'details',
      null,
      h('summary', { 'data-key': 'loot-more' }, `The ${roundWord(g.edition).toLowerCase()}’s other days (bag: ${g.bagSize} tokens)`),
      h(
        'ol',
        null,
        g.days.map((d, i) => h('li', null, `Day ${i + 1}: ${d.length ? d.join(', ') : '—'}`)),
      ),
    ),
  );
}
