// A finished game's replay: step through the log, see the table at each event.
import { h } from '../dom';
import type { Frame } from '../replay';
import { cardName, denWord, describe, roundWord } from '../words';
import type { TableCtx } from './context';

export interface ReplayState {
  frames: Frame[];
  step: number;
  /** Moves to a step (clamped) and redraws. */
  move(to: number): void;
}

export function replayPart(ctx: TableCtx, r: ReplayState): HTMLElement | null {
  const { frames, step, move } = r;
  const g = ctx.game;
  if (frames.length === 0) return null;
  const f = frames[step];
  const n = ctx.names;
  const nextDay = () => {
    const i = frames.findIndex((x, k) => k > step && x.event.type === 'sunrise');
    move(i < 0 ? frames.length - 1 : i);
  };
  return h(
    'section',
    { 'aria-labelledby': 'replay-h', class: 'replay', 'data-testid': 'replay' },
    h('h2', { id: 'replay-h' }, 'Replay'),
    h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': 'Replay controls' },
      h('button', { type: 'button', 'data-key': 'r-first', disabled: step === 0, onclick: () => move(0) }, '« First'),
      h('button', { type: 'button', 'data-key': 'r-prev', disabled: step === 0, onclick: () => move(step - 1) }, '◀ Back'),
      h('button', { type: 'button', 'data-key': 'r-next', disabled: step === frames.length - 1, onclick: () => move(step + 1) }, 'Next ▶'),
      h('button', { type: 'button', 'data-key': 'r-day', disabled: step === frames.length - 1, onclick: nextDay }, 'Next sunrise »'),
      h('button', { type: 'button', 'data-key': 'r-last', disabled: step === frames.length - 1, onclick: () => move(frames.length - 1) }, 'Last »'),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'replay-step' }, `Event ${step + 1} of ${frames.length}`),
      h('input', { id: 'replay-step', type: 'range', min: 0, max: frames.length - 1, value: step, 'data-key': 'r-range', oninput: (e: Event) => move(Number((e.target as HTMLInputElement).value)) }),
    ),
    h('p', { class: 'replay-event', 'aria-live': 'polite', 'data-testid': 'replay-event' }, `${roundWord(g.edition)} ${f.round}, day ${f.day}: ${describe(f.event, n)}`),
    h('p', null, h('strong', null, 'Island: '), f.island.length ? f.island.map((c) => `${cardName(g.edition, c.rank)} (${n.seat(c.seat)})`).join(', ') : 'nobody ashore'),
    h(
      'div',
      { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'Players at this point' },
      h(
        'table',
        null,
        h('thead', null, h('tr', null, ['Player', 'Doubloons', 'Score', denWord(g.edition) === 'ship' ? 'Ship' : 'Den', 'Loot tokens', ...(g.edition === 'GALECREST' ? ['Reputation'] : [])].map((c) => h('th', { scope: 'col' }, c)))),
        h(
          'tbody',
          null,
          f.seats.map((s, i) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, n.seat(i)),
              h('td', null, String(s.doubloons)),
              h('td', null, String(s.score)),
              h('td', null, s.den.length ? s.den.map((r) => cardName(g.edition, r)).join(', ') : '—'),
              h('td', null, String(s.loot)),
              g.edition === 'GALECREST' && h('td', null, s.reputation === null ? '—' : String(s.reputation)),
            ),
          ),
        ),
      ),
    ),
  );
}
