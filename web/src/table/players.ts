// The players table: doubloons, score, hand size, den / ship, loot, reputation, who is deciding.
import { h } from '../dom';
import { denWord, when } from '../words';
import { card, seatClass, type TableCtx } from './context';

export function playersPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const gal = g.edition === 'GALECREST';
  const cols = ['Player', 'Doubloons', 'Score', 'Hand', denWord(g.edition) === 'ship' ? 'Ship' : 'Den', 'Loot', ...(gal ? ['Reputation'] : []), 'Now'];
  return h(
    'section',
    { 'aria-labelledby': 'seats-h' },
    h('h2', { id: 'seats-h' }, 'Players'),
    h(
      'div',
      { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'Players table' },
      h(
        'table',
        { 'data-testid': 'seats' },
        h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col' }, c)))),
        h(
          'tbody',
          null,
          g.seats.map((s) =>
            h(
              'tr',
              { class: s.seat === g.me?.seat ? 'me' : '' },
              h('th', { scope: 'row' }, h('span', { class: `dot ${seatClass(s.seat)}` }), `${s.name ?? 'free seat'}${s.isBot ? ' (bot)' : ''}${s.seat === g.me?.seat ? ' (you)' : ''}`),
              h('td', null, String(s.doubloons)),
              h('td', null, String(s.score)),
              h('td', null, String(s.handSize)),
              h('td', null, s.den.length ? s.den.map((r) => card(ctx, r)).join(', ') : '—'),
              h('td', null, s.loot ? s.loot.filter((l) => l.count > 0).map((l) => `${l.count} ${l.kind}`).join(', ') || '—' : `${s.lootCount} face down`),
              gal && h('td', null, s.reputation === null ? '—' : String(s.reputation)),
              h('td', null, s.awaited ? (s.deadline ? `deciding (due ${when(s.deadline)})` : 'deciding') : g.phase === 'CHOOSE' && s.hasChosen ? 'has chosen' : ''),
            ),
          ),
        ),
      ),
    ),
  );
}
