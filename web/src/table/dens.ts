// Each player's den (classic) or ship (Galecrest) as a row of drawn cards, their loot beside
// it; the graveyard once it is public. The numbers (doubloons, score, who decides) stay in
// the players table.
import type { Seat } from '../api';
import { h } from '../dom';
import { denWord } from '../words';
import { cardSvg } from './card-face';
import { seatClass, type TableCtx } from './context';
import { lootChip } from './loot-chip';

function lootOf(ctx: TableCtx, s: Seat): (HTMLElement | string)[] {
  if (!s.loot) return [`${s.lootCount} loot face down`];
  const held = s.loot.filter((l) => l.count > 0);
  return held.length ? held.map((l) => lootChip(ctx.game, l.kind, l.count)) : ['no loot'];
}

/** For a second drawing on the page (the replay): `id` prefixes the heading's id, `at` is added to the heading. */
export function densPart(ctx: TableCtx, o: { id?: string; at?: string } = {}): HTMLElement {
  const g = ctx.game;
  const word = denWord(g.edition);
  const heading = word === 'ship' ? 'Ships' : 'Dens';
  return h(
    'section',
    { 'aria-labelledby': `${o.id ?? ''}dens-h`, 'data-key': 'dens', 'data-testid': 'dens' },
    h('h2', { id: `${o.id ?? ''}dens-h` }, `${heading}${o.at ?? ''}`),
    h(
      'ul',
      { class: 'dens' },
      g.seats.map((s) => {
        const who = ctx.names.seat(s.seat);
        return h(
          'li',
          { class: `den-row ${seatClass(s.seat)}`, 'data-key': `den-${s.seat}`, 'data-seat': s.seat },
          h(
            'strong',
            { class: 'den-who' },
            h('span', { class: `dot ${seatClass(s.seat)}`, 'aria-hidden': 'true' }),
            `${who === 'You' ? 'Your' : `${who}'s`} ${word}`,
          ),
          h(
            'span',
            {
              class: 'den-cards',
              role: s.den.length ? 'list' : undefined,
              'aria-label': s.den.length ? `${who === 'You' ? 'Your' : `${who}'s`} ${word}` : undefined,
            },
            s.den.length
              ? s.den.map((r) =>
                  h(
                    'span',
                    { role: 'listitem', 'data-key': `dc-${s.seat}-${r}` },
                    cardSvg(g.edition, r, s.seat, { key: `den-${s.seat}-${r}`, width: 48 }),
                  ),
                )
              : h('span', { class: 'muted' }, `empty ${word}`),
          ),
          h('span', { class: 'den-loot' }, lootOf(ctx, s)),
          s.graveyard?.length && g.status === 'FINISHED'
            ? h(
                'span',
                { class: 'den-grave', role: 'list', 'aria-label': `${who === 'You' ? 'Your' : `${who}'s`} graveyard` },
                h('span', { class: 'muted' }, 'Graveyard: '),
                s.graveyard.map((r) =>
                  h(
                    'span',
                    { role: 'listitem', 'data-key': `gc-${s.seat}-${r}` },
                    cardSvg(g.edition, r, s.seat, { key: `grave-${s.seat}-${r}`, width: 36, class: 'dead' }),
                  ),
                ),
              )
            : null,
        );
      }),
    ),
  );
}
