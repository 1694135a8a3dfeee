// The loot laid out for today and the round's other days, with icons and tooltips.
import { h } from '../dom';
import { roundWord } from '../words';
import type { TableCtx } from './context';
import { lootChip } from './loot-chip';

export function lootPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const today = g.days[g.day - 1] ?? [];
  const tokens = (d: string[]) => (d.length ? d.map((k) => lootChip(g, k)) : '—');
  return h(
    'section',
    { 'aria-labelledby': 'loot-h', 'data-key': 'loot' },
    h('h2', { id: 'loot-h' }, 'Loot'),
    h('p', { class: 'tokens' }, h('strong', null, `Day ${g.day}: `), today.length ? tokens(today) : 'taken'),
    h(
      'details',
      { 'data-key': 'loot-more' },
      h('summary', null, `The ${roundWord(g.edition).toLowerCase()}’s other days (bag: ${g.bagSize} tokens)`),
      h(
        'ol',
        null,
        g.days.map((d, i) => h('li', { class: 'tokens' }, `Day ${i + 1}: `, tokens(d))),
      ),
    ),
  );
}
