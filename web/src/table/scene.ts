// The island (classic) / the sea (Galecrest) drawn as a scene: the day's characters as card
// faces in rank order from sunrise, each kept on its place through the day (a card that left
// fades there, right to left at dusk, so the day's steps show in order), and below it the
// loot of every day of the round on its space. CSS transitions move the parts; with
// prefers-reduced-motion they jump (style.css).
import type { Game } from '../api';
import { h, s } from '../dom';
import { lootMarkup } from '../icons';
import { islandSlots, type Slot } from '../slots';
import { denWord, islandWords, roundWord } from '../words';
import { CARD_H, CARD_W, cardFace, drawing } from './card-face';
import type { TableCtx } from './context';

const GAP = 10;

function islandSvg(ctx: TableCtx, slots: Slot[]): SVGElement {
  const g = ctx.game;
  const width = slots.length * (CARD_W + GAP) + GAP;
  let departed = 0;
  // Dusk picks go right to left: the rightmost card that left goes first.
  const order = slots.map((c) => (c.here ? 0 : departed++)).map((k) => departed - 1 - k);
  return s(
    'svg',
    {
      class: `scene${g.edition === 'GALECREST' ? ' sea' : ''}`,
      viewBox: `0 0 ${width} ${CARD_H + 2 * GAP}`,
      style: `max-width: ${width * 1.25}px`,
      role: 'group',
      'aria-label': `${islandWords(g.edition).heading}, in rank order from left to right`,
      'data-testid': 'island-scene',
      'data-key': 'island-svg',
    },
    s('rect', { class: 'scene-ground', x: 0, y: 0, width, height: CARD_H + 2 * GAP, rx: 12 }),
    slots.map((c, i) => {
      const inDen = g.seats[c.seat]?.den.includes(c.rank);
      return cardFace(g.edition, c.rank, c.seat, {
        key: `scene-${c.seat}-${c.rank}`,
        owner: ctx.names.seat(c.seat),
        class: `scene-card${c.here ? '' : ' gone'}`,
        extra: c.here ? undefined : inDen ? `gone to the ${denWord(g.edition)}` : 'left today',
        style: `transform: translate(${GAP + i * (CARD_W + GAP)}px, ${GAP}px); --i: ${c.here ? 0 : order[i]}`,
      });
    }),
  );
}

const TOKEN = 26;

/** Every day of the round as a space with its loot tokens (taken ones are gone). */
function lootSvg(g: Game): SVGElement {
  const perRow = 2;
  const rows = Math.max(1, ...g.days.map((d) => Math.ceil(d.length / perRow)));
  const w = perRow * TOKEN + 14;
  const height = rows * TOKEN + 30;
  const name = (k: string) => g.lootLegend.find((l) => l.kind === k)?.name ?? k;
  return s(
    'svg',
    {
      class: 'scene loot-spaces',
      viewBox: `0 0 ${g.days.length * (w + 6)} ${height}`,
      style: `max-width: ${g.days.length * (w + 6) * 1.4}px`,
      role: 'group',
      'aria-label': `Loot of the ${roundWord(g.edition).toLowerCase()}'s days`,
      'data-testid': 'loot-spaces',
      'data-key': 'loot-svg',
    },
    g.days.map((tokens, d) =>
      s(
        'g',
        {
          class: `space${d === g.day - 1 ? ' today' : d < g.day - 1 ? ' past' : ''}`,
          transform: `translate(${d * (w + 6) + 3} 0)`,
          role: 'img',
          'aria-label': `Day ${d + 1}${d === g.day - 1 ? ' (today)' : ''}: ${tokens.length ? tokens.map(name).join(', ') : 'no loot left'}`,
          'data-key': `space-${d}`,
        },
        s('rect', { x: 0, y: 1, width: w, height: height - 2, rx: 6 }),
        s('text', { x: w / 2, y: 17, 'text-anchor': 'middle' }, `Day ${d + 1}`),
        tokens.map((k, i) =>
          drawing(lootMarkup(k), 7 + (i % perRow) * TOKEN, 24 + Math.floor(i / perRow) * TOKEN, TOKEN - 2, 'token'),
        ),
      ),
    ),
  );
}

/**
 * For a second scene on the page (the replay): `id` prefixes the heading's id, `at` is added
 * to the heading (" at this point"); `bag: false` leaves out the bag (a replay frame does not know it).
 */
export function scenePart(ctx: TableCtx, o: { id?: string; at?: string; bag?: boolean } = {}): HTMLElement {
  const g = ctx.game;
  const w = islandWords(g.edition);
  const slots = islandSlots(g, ctx.events);
  const id = `${o.id ?? ''}island-h`;
  return h(
    'section',
    { 'aria-labelledby': id, class: 'scene-box', 'data-key': 'island', 'data-testid': 'island-box' },
    h('h2', { id }, `${w.heading}${o.at ?? ''} (rank order, left to right)`),
    slots.length
      ? islandSvg(ctx, slots)
      : h('p', { class: 'muted', 'data-key': 'island-wait' }, g.phase === 'CHOOSE' ? w.waiting : w.empty),
    h(
      'h3',
      null,
      `Loot of the ${roundWord(g.edition).toLowerCase()}${o.bag === false ? '' : ` (bag: ${g.bagSize} tokens)`}`,
    ),
    lootSvg(g),
  );
}
