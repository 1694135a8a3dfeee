// The day played out, step by step: sunrise (ties explained), day abilities, each dusk pick
// with what it gave, night, the round's scoring when the day closed it, then the doubloons,
// reputation and loot each player won or lost. Plays by itself; Next, Show all, Close.
import type { Game } from '../api';
import type { DayStory, SeatDelta } from '../day';
import { h } from '../dom';
import { roundWord } from '../words';
import { seatClass, type TableCtx } from './context';
import { lootChip } from './loot-chip';

export interface DayReplayState {
  story: DayStory;
  /** Steps shown so far (1 = sunrise only). */
  shown: number;
  next(): void;
  all(): void;
  close(): void;
}

const TITLES = (g: Game): Record<string, string> => ({
  sunrise: 'Sunrise',
  day: 'Day abilities (left to right)',
  dusk: 'Dusk: loot, right to left',
  night: 'Night',
  scoring: g.edition === 'GALECREST' ? 'Anchor: the voyage is scored' : 'End of the campaign',
});

const signed = (k: number) => (k > 0 ? `+${k}` : k < 0 ? `−${-k}` : '±0');

export function deltaList(ctx: TableCtx, deltas: Record<number, SeatDelta>, testid: string): HTMLElement {
  const g = ctx.game;
  return h(
    'ul',
    { class: 'deltas', 'data-testid': testid },
    g.seats.map((s) => {
      const d = deltas[s.seat] ?? { doubloons: 0, reputation: 0, loot: {} };
      const loot = Object.entries(d.loot);
      return h(
        'li',
        { class: `chip ${seatClass(s.seat)}` },
        h('strong', null, ctx.names.seat(s.seat)),
        h(
          'span',
          null,
          `${signed(d.doubloons)} doubloons`,
          g.edition === 'GALECREST' && d.reputation ? `, reputation ${signed(d.reputation)}` : '',
        ),
        loot.length > 0 &&
          h(
            'span',
            { class: 'tokens' },
            loot.map(([k, n]) => (k === 'face down' ? `${n} face down ` : lootChip(g, k, n))),
          ),
      );
    }),
  );
}

export function dayReplayPart(ctx: TableCtx, r: DayReplayState): HTMLElement {
  const g = ctx.game;
  const { story } = r;
  const titles = TITLES(g);
  const done = r.shown >= story.steps.length;
  return h(
    'section',
    {
      class: 'day-replay',
      'aria-labelledby': 'dayr-h',
      'data-testid': 'day-replay',
      'data-key': 'day-replay',
      'data-day': `${story.round}-${story.day}`,
    },
    h('h2', { id: 'dayr-h' }, `Day ${story.day} of ${roundWord(g.edition).toLowerCase()} ${story.round}, played out`),
    h(
      'ol',
      { class: 'day-steps', 'aria-live': 'polite' },
      story.steps.slice(0, r.shown).map((s, i) =>
        h(
          'li',
          { 'data-testid': 'day-step', 'data-step': s.kind, 'data-key': `dstep-${i}` },
          h('h3', null, titles[s.kind]),
          s.lines.length
            ? h(
                'ul',
                null,
                s.lines.map((l) => h('li', null, l)),
              )
            : h('p', { class: 'muted' }, 'Nothing happens.'),
        ),
      ),
    ),
    done && h('h3', null, 'This day for each player'),
    done && deltaList(ctx, story.deltas, 'day-deltas'),
    h(
      'div',
      { class: 'actions' },
      !done &&
        h(
          'button',
          { type: 'button', 'data-key': 'dayr-next', onclick: r.next },
          `Next step (${r.shown} of ${story.steps.length})`,
        ),
      !done && h('button', { type: 'button', class: 'secondary', 'data-key': 'dayr-all', onclick: r.all }, 'Show all'),
      h('button', { type: 'button', class: 'secondary', 'data-key': 'dayr-close', onclick: r.close }, 'Close'),
    ),
  );
}
