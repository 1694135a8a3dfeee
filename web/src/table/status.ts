// The one-line status: whose turn it is and what the viewer should do.
import { h } from '../dom';
import { turnText } from '../words';
import { card, type TableCtx } from './context';

export function statusLine(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const seatName = ctx.names.seat;
  let text: string;
  const me = g.me;
  if (g.status === 'LOBBY') text = turnText(g, me?.seat ?? null);
  else if (g.status === 'FINISHED') text = `Game over: ${g.ranking[0] ? seatName(g.ranking[0].seat) : '?'} ${g.ranking[0]?.seat === me?.seat ? 'win' : 'wins'}.`;
  else if (me && me.prompts.length) text = 'Your turn: answer the decision below.';
  else if (me && g.phase === 'CHOOSE' && g.awaiting.includes(me.seat)) text = `Your turn: choose your character for day ${g.day}.`;
  else if (me && g.phase === 'CHOOSE' && me.choice !== null) text = `You chose ${card(ctx, me.choice)}. Waiting for ${g.awaiting.map(seatName).join(', ')}.`;
  else text = turnText(g, me?.seat ?? null);
  return h('p', { class: 'status', role: 'status', 'data-testid': 'status' }, text);
}
