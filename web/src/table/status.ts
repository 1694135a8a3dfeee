// The one-line status: whose turn it is and what the viewer should do (a live region: with
// incremental updates it is announced when its words change).
import { h } from '../dom';
import { timeLeft, turnText } from '../words';
import { card, type TableCtx } from './context';

export function statusText(ctx: TableCtx): string {
  const g = ctx.game;
  const seatName = ctx.names.seat;
  const me = g.me;
  if (g.status === 'LOBBY') return turnText(g, me?.seat ?? null);
  if (g.status === 'FINISHED')
    return `Game over: ${g.ranking[0] ? seatName(g.ranking[0].seat) : '?'} ${g.ranking[0]?.seat === me?.seat ? 'win' : 'wins'}.`;
  if (me && me.prompts.length) return 'Your turn: answer the decision below.';
  if (me && g.phase === 'CHOOSE' && g.awaiting.includes(me.seat))
    return `Your turn: choose your character for day ${g.day}.`;
  if (me && g.phase === 'CHOOSE' && me.choice !== null)
    return `You chose ${card(ctx, me.choice)}. Waiting for ${g.awaiting.map(seatName).join(', ')}.`;
  return turnText(g, me?.seat ?? null);
}

/** The viewer's turn: a card to choose or a prompt to answer. */
export const isMyTurn = (ctx: TableCtx) => {
  const { game: g } = ctx;
  return g.status === 'ACTIVE' && !!g.me && (g.me.prompts.length > 0 || g.awaiting.includes(g.me.seat));
};

export function statusLine(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const due = g.status === 'ACTIVE' && g.nextDeadline ? ` Next deadline: ${timeLeft(g.nextDeadline, ctx.now)}.` : '';
  return h(
    'p',
    {
      class: `status${isMyTurn(ctx) ? ' my-turn' : ''}`,
      role: 'status',
      'data-testid': 'status',
      tabindex: -1,
      'data-focus-home': '',
      'data-key': 'status',
    },
    statusText(ctx),
    due && h('span', { class: 'deadline' }, due),
  );
}
