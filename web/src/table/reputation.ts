// Galecrest's reputation track: who sits on which space.
import { h } from '../dom';
import { seatClass, type TableCtx } from './context';

export function reputationPart(ctx: TableCtx): HTMLElement | null {
  const g = ctx.game;
  const track = g.boardInfo.reputation;
  if (g.edition !== 'GALECREST' || !Array.isArray(track)) return null;
  return h(
    'section',
    { 'aria-labelledby': 'rep-h' },
    h('h2', { id: 'rep-h' }, 'Reputation track'),
    h('p', { class: 'muted' }, 'Lowest to highest. Equal ranks on the island: the higher reputation sits to the right.'),
    h(
      'ol',
      { class: 'track', start: 0, 'data-testid': 'reputation' },
      track.map((s, i) => h('li', { class: s === null ? 'empty' : `chip ${seatClass(s)}` }, h('span', { class: 'space' }, `Space ${i}`), h('strong', null, s === null ? '—' : ctx.names.seat(s)))),
    ),
  );
}
