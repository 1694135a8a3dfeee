// Galecrest's reputation track: who sits on which space and what each space pays.
import { h } from '../dom';
import { seatClass, type TableCtx } from './context';

export function reputationPart(ctx: TableCtx): HTMLElement | null {
  const g = ctx.game;
  const track = g.galecrest?.reputation;
  if (g.edition !== 'GALECREST' || !Array.isArray(track)) return null;
  const pay = g.reputationPayouts ?? [];
  return h(
    'section',
    { 'aria-labelledby': 'rep-h', 'data-key': 'rep' },
    h('h2', { id: 'rep-h' }, 'Reputation track'),
    h(
      'p',
      { class: 'muted' },
      'Lowest to highest. Each space pays its doubloons at the start of every voyage; on identical ranks at sea the higher reputation sits to the right, and the final tie goes to the higher reputation.',
    ),
    h(
      'ol',
      { class: 'track', 'data-testid': 'reputation' },
      track.map((s, i) =>
        h(
          'li',
          {
            class: s === null ? 'empty' : `chip ${seatClass(s)}`,
            title: `Space ${i + 1}: ${pay[i] ?? '?'} doubloons at the start of each voyage`,
          },
          h('span', { class: 'space' }, `Space ${i + 1} · ${pay[i] ?? '?'} doubloons`),
          h('strong', null, s === null ? '—' : ctx.names.seat(s)),
        ),
      ),
    ),
  );
}
