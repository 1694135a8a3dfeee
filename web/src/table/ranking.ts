// The final ranking of a finished game.
import { h } from '../dom';
import type { TableCtx } from './context';

export function rankingPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  return h(
    'section',
    { 'aria-labelledby': 'rank-h', class: 'ranking' },
    h('h2', { id: 'rank-h' }, 'Final ranking'),
    h(
      'ol',
      { 'data-testid': 'ranking' },
      g.ranking.map((r) => h('li', null, h('strong', null, `${r.place}. ${r.name ?? `Seat ${r.seat + 1}`}${r.seat === g.me?.seat ? ' (you)' : ''}`), ` — ${r.score} points`)),
    ),
    g.seed && h('p', { class: 'muted' }, `Seed: ${g.seed}`),
  );
}
