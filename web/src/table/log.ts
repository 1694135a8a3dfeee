// The event log in the server's words, grouped by day: the newest day first, each day's events
// oldest first, each line with an icon of what happened and the colour of the player it is
// about. The whole log is loaded (paged by the events cursor); it shows the latest days and
// "Earlier days" opens more, down to the game's creation. "X has to decide" lines are left out
// of a running game (the answer follows). In a replay every event shows and the current one
// is marked (aria-current) and scrolled into view: the log follows the position.
import type { Edition, GameEvent } from '../api';
import { h } from '../dom';
import { coinIcon, lootIcon, timingIcon } from '../icons';
import { roundWord } from '../words';
import { seatClass, type TableCtx } from './context';

export interface LogDay {
  key: string;
  title: string;
  events: GameEvent[];
}

/** The log cut into days (and what came before the first day, and after the last). */
export function logDays(events: GameEvent[], edition: Edition): LogDay[] {
  const out: LogDay[] = [];
  let cur: LogDay = { key: 'setup', title: 'Setting up', events: [] };
  let round = 0;
  const open = (key: string, title: string) => {
    if (cur.key === key) return;
    if (cur.events.length) out.push(cur);
    cur = { key, title, events: [] };
  };
  for (const e of events) {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'roundStart') round = Number(d.round);
    // The round's opening (cards dealt) belongs to its first day.
    if (e.type === 'roundStart' || e.type === 'dayStart') {
      const day = e.type === 'roundStart' ? 1 : Number(d.day);
      open(`d-${round}-${day}`, `${roundWord(edition)} ${round}, day ${day}`);
    } else if (e.type === 'gameEnd') open('end', 'The end');
    cur.events.push(e);
  }
  if (cur.events.length) out.push(cur);
  return out;
}

const ICONS: Record<string, () => HTMLElement> = {
  sunrise: () => timingIcon('day', 'sunrise'),
  dayStart: () => timingIcon('day', 'a new day'),
  doubloons: coinIcon,
  campaignScored: () => timingIcon('end', 'scoring'),
  voyageBanked: () => timingIcon('end', 'scoring'),
  gameEnd: () => timingIcon('end', 'game over'),
};

function icon(e: GameEvent): HTMLElement | null {
  const d = e.data as Record<string, unknown>;
  if (e.type === 'phase' && typeof d.phase === 'string') return timingIcon(d.phase, d.phase);
  if (e.type.startsWith('loot') && typeof d.kind === 'string') return lootIcon(d.kind, d.kind);
  return ICONS[e.type]?.() ?? null;
}

export interface LogPaging {
  /** How many days show (newest first). */
  days: number;
  more(): void;
}

export function logPart(ctx: TableCtx, current: number | null = null, paging?: LogPaging): HTMLElement {
  const replay = current !== null;
  const all = logDays(replay ? ctx.events : ctx.events.filter((e) => e.type !== 'prompt'), ctx.game.edition).reverse();
  const shown = replay || !paging ? all : all.slice(0, paging.days);
  return h(
    'section',
    { 'aria-labelledby': 'log-h', class: 'log', 'data-key': 'log' },
    h('h2', { id: 'log-h' }, 'Event log'),
    h(
      'p',
      { class: 'muted' },
      `By day, the newest day first; oldest first within a day (${ctx.events.length} events, ${all.length} parts${shown.length < all.length ? `, latest ${shown.length} shown` : ''}).`,
    ),
    h(
      'div',
      {
        tabindex: 0,
        class: 'log-days',
        'data-testid': 'log',
        'aria-label': 'Event log by day',
        'data-key': 'log-list',
      },
      shown.map((day) =>
        h(
          'section',
          { class: 'log-day', 'aria-label': day.title, 'data-key': `lg-${day.key}` },
          h('h3', null, day.title),
          h(
            'ol',
            null,
            day.events.map((e) => {
              const seat = Number((e.data as Record<string, unknown>).seat);
              const coloured = Number.isInteger(seat) && seat >= 0 && seat < ctx.game.seats.length;
              return h(
                'li',
                {
                  value: e.seq,
                  class: `ev ev-${e.type}${coloured ? ` by ${seatClass(seat)}` : ''}${e.seq === current ? ' current' : ''}`,
                  'aria-current': e.seq === current ? 'step' : undefined,
                  'data-key': `ev-${e.seq}`,
                },
                icon(e),
                h('span', null, e.text),
              );
            }),
          ),
        ),
      ),
    ),
    paging &&
      !replay &&
      shown.length < all.length &&
      h(
        'button',
        { type: 'button', class: 'secondary', 'data-key': 'log-more', 'data-testid': 'log-more', onclick: paging.more },
        `Earlier days (${all.length - shown.length} more)`,
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
