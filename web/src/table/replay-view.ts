// A finished game's replay: step through the log and see the table at each event, drawn with
// the table's own parts (island, players); the log marks and follows the position.
import { h } from '../dom';
import type { Frame } from '../replay';
import { islandWords, roundWord } from '../words';
import type { TableCtx } from './context';
import { islandList } from './island';
import { playersTable } from './players';

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
  const last = frames.length - 1;
  const nextDay = () => {
    const i = frames.findIndex((x, k) => k > step && x.event.type === 'sunrise');
    move(i < 0 ? last : i);
  };
  const rows = g.seats.map((s, i) => ({
    seat: {
      ...s,
      den: f.seats[i].den,
      doubloons: f.seats[i].doubloons,
      score: f.seats[i].score,
      reputation: f.seats[i].reputation,
      loot: null,
    },
    lootCount: f.seats[i].loot,
  }));
  return h(
    'section',
    { 'aria-labelledby': 'replay-h', class: 'replay', 'data-testid': 'replay', 'data-key': 'replay' },
    h('h2', { id: 'replay-h' }, 'Replay'),
    h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': 'Replay controls' },
      h('button', { type: 'button', 'data-key': 'r-first', disabled: step === 0, onclick: () => move(0) }, '« First'),
      h(
        'button',
        { type: 'button', 'data-key': 'r-prev', disabled: step === 0, onclick: () => move(step - 1) },
        '◀ Back',
      ),
      h(
        'button',
        { type: 'button', 'data-key': 'r-next', disabled: step === last, onclick: () => move(step + 1) },
        'Next ▶',
      ),
      h('button', { type: 'button', 'data-key': 'r-day', disabled: step === last, onclick: nextDay }, 'Next sunrise »'),
      h(
        'button',
        { type: 'button', 'data-key': 'r-last', disabled: step === last, onclick: () => move(last) },
        'Last »',
      ),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'replay-step' }, `Event ${step + 1} of ${frames.length}`),
      h('input', {
        id: 'replay-step',
        type: 'range',
        min: 0,
        max: last,
        value: step,
        'data-key': 'r-range',
        oninput: (e: Event) => move(Number((e.target as HTMLInputElement).value)),
      }),
    ),
    h(
      'p',
      { class: 'replay-event', 'aria-live': 'polite', 'data-testid': 'replay-event' },
      `${roundWord(g.edition)} ${f.round}, day ${f.day}: ${f.event.text}`,
    ),
    h('h3', null, islandWords(g.edition).heading),
    f.island.length
      ? islandList(g.edition, f.island, ctx.names, 'r-isle')
      : h('p', { class: 'muted' }, islandWords(g.edition).empty),
    h('h3', null, 'Players at this point'),
    playersTable(ctx, rows, { label: 'Players at this point', key: 'r-players', live: false }),
  );
}
