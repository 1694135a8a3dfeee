// Galecrest's reputation track drawn as a track: one space per step, lowest left, what it pays,
// and each player's token (their colour) on its space.
import { h } from '../dom';
import { seatClass, type TableCtx } from './context';

/** For a second drawing on the page (the replay): `id` prefixes the heading's id, `at` is added to the heading. */
export function reputationPart(ctx: TableCtx, o: { id?: string; at?: string } = {}): HTMLElement | null {
  const g = ctx.game;
  const track = g.galecrest?.reputation;
  if (g.edition !== 'GALECREST' || !Array.isArray(track)) return null;
  const pay = g.reputationPayouts ?? [];
  return h(
    'section',
    { 'aria-labelledby': `${o.id ?? ''}rep-h`, 'data-key': 'rep' },
    h('h2', { id: `${o.id ?? ''}rep-h` }, `Reputation track${o.at ?? ''}`),
    h(
      'p',
      { class: 'muted' },
      'Lowest to highest. Each space pays its doubloons at the start of every voyage; on identical ranks at sea the higher reputation sits to the right, and the final tie goes to the higher reputation.',
    ),
    h(
      'ol',
      { class: 'track', 'data-testid': 'reputation', 'aria-label': 'Reputation track, lowest space first' },
      track.map((s, i) =>
        h(
          'li',
          {
            class: `space${s === null ? ' empty' : ` ${seatClass(s)}`}`,
            'data-key': `rep-${i}`,
            title: `Space ${i + 1}: ${pay[i] ?? '?'} doubloons at the start of each voyage`,
          },
          h('span', { class: 'space-no' }, `Space ${i + 1}`),
          h('span', { class: 'space-pay' }, `${pay[i] ?? '?'} doubloons`),
          s === null
            ? h('span', { class: 'muted' }, 'empty')
            : h(
                'span',
                { class: `token ${seatClass(s)}`, 'data-seat': s },
                h('span', { class: 'token-disc', 'aria-hidden': 'true' }),
                h('strong', null, ctx.names.seat(s)),
              ),
        ),
      ),
    ),
  );
}
