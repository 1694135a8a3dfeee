// The event log in the server's words, newest first. In a replay the current event is
// marked (aria-current) and scrolled into view: the log follows the position.
import { h } from '../dom';
import type { TableCtx } from './context';

export function logPart(ctx: TableCtx, current: number | null = null): HTMLElement {
  const { events } = ctx;
  // A replay needs every event in the log; a running game shows the latest 200.
  const shown = (current === null ? events.slice(-200) : events).slice().reverse();
  return h(
    'section',
    { 'aria-labelledby': 'log-h', class: 'log', 'data-key': 'log' },
    h('h2', { id: 'log-h' }, 'Event log'),
    h(
      'p',
      { class: 'muted' },
      `Newest first (${events.length} events${events.length > shown.length ? `, last ${shown.length} shown` : ''}).`,
    ),
    h(
      'ol',
      {
        reversed: true,
        tabindex: 0,
        'data-testid': 'log',
        'aria-label': 'Event log, newest first',
        'data-key': 'log-list',
      },
      shown.map((e) =>
        h(
          'li',
          {
            value: e.seq,
            class: `ev ev-${e.type}${e.seq === current ? ' current' : ''}`,
            'aria-current': e.seq === current ? 'step' : undefined,
            'data-key': `ev-${e.seq}`,
          },
          e.text,
        ),
      ),
    ),
  );
}

/** Scrolls the log so the current replay event shows (inside the log box only). */
export function followLog(root: HTMLElement): void {
  const list = root.querySelector<HTMLElement>('[data-testid=log]');
  const cur = list?.querySelector<HTMLElement>('li.current');
  if (!list || !cur) return;
  const top = cur.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight)
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
}
