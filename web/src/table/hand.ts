// The viewer's hand: one button per card; choosing one plays it for the day.
import { api } from '../api';
import { h } from '../dom';
import { cardText, when } from '../words';
import { card, type TableCtx } from './context';

export function handPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const me = g.me!;
  const choosing = g.status === 'ACTIVE' && g.phase === 'CHOOSE' && (g.awaiting.includes(me.seat) || me.choice !== null);
  return h(
    'section',
    { 'aria-labelledby': 'hand-h', class: 'hand' },
    h('h2', { id: 'hand-h' }, `Your hand (${me.hand.length} card${me.hand.length === 1 ? '' : 's'})`),
    choosing
      ? h(
          'p',
          { id: 'hand-hint' },
          me.choice === null ? `Choose the character you send ashore on day ${g.day}.` : 'You may change your choice until the last player has chosen.',
          me.choiceDeadline ? ` Due ${when(me.choiceDeadline)}.` : '',
        )
      : h('p', { id: 'hand-hint' }, g.status === 'ACTIVE' ? 'Cards are chosen at the start of each day.' : ''),
    h(
      'ul',
      { class: 'cards', 'data-testid': 'hand', 'aria-describedby': 'hand-hint' },
      me.hand.map((r) =>
        h(
          'li',
          null,
          h(
            'button',
            {
              type: 'button',
              class: 'card',
              'data-key': `card-${r}`,
              'data-rank': r,
              'aria-pressed': me.choice === r ? 'true' : 'false',
              disabled: !choosing || ctx.busy,
              onclick: () => ctx.act(() => api.playCard(g.id, r)),
            },
            h('strong', null, card(ctx, r)),
            h('small', null, cardText(g.edition, r)),
          ),
        ),
      ),
    ),
  );
}
