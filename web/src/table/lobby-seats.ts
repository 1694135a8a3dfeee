// A game still in the lobby: its seats, and start / join / leave.
import { api } from '../api';
import { h } from '../dom';
import { loadSession } from '../session';
import { go } from '../shell';
import type { TableCtx } from './context';

export function lobbySeats(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const { busy, act } = ctx;
  const id = g.id;
  const me = g.me;
  const session = loadSession();
  const full = g.seats.every((s) => !s.isOpen);
  const isCreator = session?.playerId === g.creatorId;
  return h(
    'section',
    { 'aria-labelledby': 'lobby-h' },
    h('h2', { id: 'lobby-h' }, 'Seats'),
    h(
      'ol',
      { class: 'seats-list' },
      g.seats.map((s) =>
        h(
          'li',
          null,
          s.isOpen ? 'free seat' : `${s.name ?? '?'}${s.isBot ? ' (bot)' : ''}${me?.seat === s.seat ? ' (you)' : ''}`,
        ),
      ),
    ),
    g.decisionTimeLimitHours
      ? h('p', null, `Each decision may take ${g.decisionTimeLimitHours} hours.`)
      : h('p', null, 'No time limit.'),
    h(
      'div',
      { class: 'actions' },
      isCreator &&
        h(
          'button',
          { type: 'button', 'data-key': 'start', disabled: busy || !full, onclick: () => act(() => api.startGame(id)) },
          'Start game',
        ),
      isCreator && !full && h('p', null, 'Share this page’s address. When every seat is taken, press Start game.'),
      !me &&
        g.seats.some((s) => s.isOpen) &&
        h(
          'button',
          { type: 'button', 'data-key': 'join', disabled: busy, onclick: () => act(() => api.joinGame(id)) },
          'Join this game',
        ),
      me &&
        !isCreator &&
        h(
          'button',
          {
            type: 'button',
            'data-key': 'leave',
            disabled: busy,
            onclick: () => act(() => api.leaveGame(id)).then(() => go('#/')),
          },
          'Leave',
        ),
    ),
  );
}
