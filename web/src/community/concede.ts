// Conceding (Mutation.concede): only a seated player who has not conceded, in an ACTIVE game.
// Two steps, so one slip of a finger does not give the game away: a bot plays the seat to the
// end and it ranks last.
import { request, requestId } from '../api';
import { h } from '../dom';
import { ConcedeDocument } from '../generated';
import { press, type TableCtx } from '../table/context';
import { registerSidePanel } from '../table/side-panels';

let asking: string | null = null; // the game whose confirmation is open

export function concedePanel(ctx: TableCtx): HTMLElement | null {
  const g = ctx.game;
  const seat = g.me ? g.seats[g.me.seat] : undefined;
  if (g.status !== 'ACTIVE' || !seat || seat.conceded || seat.isBot) return null;
  const toggle = (open: boolean) => () => {
    asking = open ? g.id : null;
    ctx.redraw();
  };
  const confirming = asking === g.id;
  return h(
    'section',
    { 'aria-label': 'Concede', class: 'concede' },
    confirming
      ? h(
          'div',
          { role: 'group', 'aria-labelledby': 'concede-q' },
          h('p', { id: 'concede-q' }, 'Concede this game? Your seat ranks last and a bot plays it to the end.'),
          h(
            'button',
            {
              ...press(ctx, async () => {
                asking = null;
                await request(ConcedeDocument, { g: g.id, q: requestId() });
              }),
              'data-key': 'concede-yes',
              'data-focus-next': '',
            },
            'Yes, concede',
          ),
          h('button', { type: 'button', 'data-key': 'concede-no', onclick: toggle(false) }, 'Keep playing'),
        )
      : h('button', { type: 'button', 'data-key': 'concede', onclick: toggle(true) }, 'Concede…'),
  );
}

registerSidePanel('concede', concedePanel);
