// The replay: step through the log and see the table at each event, drawn with the live
// table's own parts (the island scene with the days' loot, the reputation track, the dens or
// ships with their loot) from the frame's game (replay.ts frameGame), and above them the
// viewer's own hand then as card faces. Only what the viewer saw then is in a frame: their
// own hand and loot, the others' hidden loot as a count, graveyards once the game is over.
// The log marks and follows the position.
import { h } from '../dom';
import { type Frame, frameGame } from '../replay';
import { roundWord } from '../words';
import { cardSvg } from './card-face';
import type { TableCtx } from './context';
import { densPart } from './dens';
import { playersTable } from './players';
import { reputationPart } from './reputation';
import { scenePart } from './scene';

export interface ReplayState {
  frames: Frame[];
  step: number;
  /** Moves to a step (clamped) and redraws. */
  move(to: number): void;
  /** Closes the replay (during a game); null: it stays (after the end). */
  close: (() => void) | null;
}

/** Added to the replay's headings: the live table's parts have the same ones. */
const AT = ' at this point';

/** The viewer's hand at the frame, as the card faces of the table (read-only). */
function handAt(ctx: TableCtx, f: Frame): HTMLElement | null {
  const g = ctx.game;
  if (!g.me || !f.hand) return null;
  const seat = g.me.seat;
  const n = f.hand.length;
  return h(
    'section',
    { 'aria-labelledby': 'r-hand-h', class: 'replay-hand', 'data-key': 'r-hand' },
    h('h3', { id: 'r-hand-h' }, `Your hand at this point (${n} card${n === 1 ? '' : 's'})`),
    n
      ? h(
          'ul',
          { class: 'replay-cards', 'data-testid': 'replay-hand', 'aria-labelledby': 'r-hand-h' },
          f.hand.map((r, i) =>
            h(
              'li',
              { 'data-key': `rh-${r}-${i}`, 'data-rank': r, class: f.choice === r ? 'chosen' : undefined },
              cardSvg(g.edition, r, seat, {
                key: `rhand-${r}-${i}`,
                width: 64,
                extra: f.choice === r ? 'chosen for today' : undefined,
              }),
            ),
          ),
        )
      : h('p', { class: 'muted', 'data-testid': 'replay-hand' }, 'No cards in hand.'),
  );
}

export function replayPart(ctx: TableCtx, r: ReplayState): HTMLElement | null {
  const { frames, step, move } = r;
  const g = ctx.game;
  if (frames.length === 0) return null;
  const f = frames[Math.min(step, frames.length - 1)];
  const last = frames.length - 1;
  const nextDay = () => {
    const i = frames.findIndex((x, k) => k > step && x.event.type === 'sunrise');
    move(i < 0 ? last : i);
  };
  // The table's parts drawn from the game as it was at this event.
  const fg = frameGame(f, g);
  const fctx: TableCtx = { ...ctx, game: fg, events: ctx.events.filter((e) => e.seq <= f.seq) };
  const live = g.status !== 'FINISHED';
  return h(
    'section',
    {
      'aria-labelledby': 'replay-h',
      class: 'replay',
      'data-testid': 'replay',
      'data-key': 'replay',
      'data-seq': f.seq,
    },
    h('h2', { id: 'replay-h' }, live ? 'Replay of the game so far' : 'Replay'),
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
      r.close &&
        h(
          'button',
          { type: 'button', class: 'secondary', 'data-key': 'r-close', onclick: r.close },
          'Close the replay',
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
    handAt(ctx, f),
    fg.status !== 'LOBBY' && scenePart(fctx, { id: 'r-', at: AT, bag: false }),
    fg.status !== 'LOBBY' && reputationPart(fctx, { id: 'r-', at: AT }),
    fg.status !== 'LOBBY' && densPart(fctx, { id: 'r-', at: AT }),
    h('h3', null, 'Players at this point'),
    playersTable(
      fctx,
      fg.seats.map((seat) => ({ seat })),
      { label: 'Players at this point', key: 'r-players', live: false },
    ),
  );
}
