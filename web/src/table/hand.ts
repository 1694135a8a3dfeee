// The viewer's hand: one button per card; choosing one plays it for the day.
import { api, type Edition } from '../api';
import { h } from '../dom';
import { markIcon, timingIcon } from '../icons';
import { cardText, cardTimings, tieBreakMark, timeLeft, timingWord, when } from '../words';
import { card, press, type TableCtx } from './context';

export function handPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const me = g.me!;
  const choosing =
    g.status === 'ACTIVE' && g.phase === 'CHOOSE' && (g.awaiting.includes(me.seat) || me.choice !== null);
  let first = choosing;
  return h(
    'section',
    { 'aria-labelledby': 'hand-h', class: 'hand', 'data-key': 'hand' },
    h('h2', { id: 'hand-h' }, `Your hand (${me.hand.length} card${me.hand.length === 1 ? '' : 's'})`),
    choosing
      ? h(
          'p',
          { id: 'hand-hint' },
          me.choice === null
            ? `Choose the character you send ashore on day ${g.day}.`
            : 'You may change your choice until the last player has chosen.',
          me.choiceDeadline
            ? h(
                'span',
                { class: 'deadline', title: when(me.choiceDeadline) },
                ` ${timeLeft(me.choiceDeadline, ctx.now)}.`,
              )
            : '',
        )
      : h('p', { id: 'hand-hint' }, g.status === 'ACTIVE' ? 'Cards are chosen at the start of each day.' : ''),
    h(
      'ul',
      { class: 'cards', 'data-testid': 'hand', 'aria-describedby': 'hand-hint' },
      me.hand.map((r) => {
        const focusNext = first;
        first = false;
        return h(
          'li',
          { 'data-key': `li-${r}` },
          h(
            'button',
            {
              ...press(ctx, () => api.playCard(g.id, r), !choosing),
              class: 'card',
              'data-key': `card-${r}`,
              'data-rank': r,
              'data-focus-next': focusNext ? '' : undefined,
              'aria-pressed': me.choice === r ? 'true' : 'false',
            },
            h('strong', null, card(ctx, r)),
            handMarks(g.edition, r, me.seat),
            h('small', null, cardText(g.edition, r)),
          ),
        );
      }),
    ),
  );
}

/** The tie-break mark of the viewer's copy (classic) and when the card acts, as icons. */
function handMarks(edition: Edition, rank: number, seat: number): HTMLElement {
  const mark = tieBreakMark(edition, rank, seat);
  return h(
    'span',
    { class: 'card-marks' },
    mark !== null && markIcon(mark),
    cardTimings(edition, rank).map((t) => timingIcon(t, timingWord(edition, t))),
  );
}
