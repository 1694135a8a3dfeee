// "Since your last visit": the days played and each player's changes since the last event
// this browser showed, with a way to watch the last day played out.
import type { Digest } from '../day';
import { h } from '../dom';
import type { TableCtx } from './context';
import { deltaList } from './day-replay';

export function digestPart(
  ctx: TableCtx,
  d: Digest,
  replayLast: (() => void) | null,
  dismiss: () => void,
): HTMLElement {
  const g = ctx.game;
  const days = d.days.map((x) => `day ${x.day}`);
  const mine = g.me && (g.awaiting.includes(g.me.seat) || g.me.prompts.length > 0);
  return h(
    'section',
    { class: 'digest', 'aria-labelledby': 'digest-h', 'data-testid': 'digest', 'data-key': 'digest' },
    h('h2', { id: 'digest-h' }, 'Since your last visit'),
    h(
      'p',
      null,
      `${d.events} new event${d.events === 1 ? '' : 's'}`,
      days.length
        ? `; ${days.length === 1 ? days[0] : `${days.slice(0, -1).join(', ')} and ${days[days.length - 1]}`} played`
        : '',
      '.',
      mine ? ' It is your turn.' : '',
    ),
    deltaList(ctx, d.deltas, 'digest-deltas'),
    h(
      'div',
      { class: 'actions' },
      replayLast &&
        h('button', { type: 'button', 'data-key': 'digest-replay', onclick: replayLast }, 'Watch the last day'),
      h('button', { type: 'button', class: 'secondary', 'data-key': 'digest-close', onclick: dismiss }, 'Dismiss'),
    ),
  );
}
