// A character card drawn by the project (no printed art): its owner's colour as a band, the
// rank in a disc, the name, an icon per timing of its ability (day, dusk, night, end of round)
// and, in classic, the tie-break mark of that colour's copy. One SVG group, labelled in words.
import type { Edition } from '../api';
import { s } from '../dom';
import { TIMING_MARKUP } from '../icons';
import { cardTable } from '../cards';
import { cardTimings, tieBreakMark, timingWord } from '../words';
import { seatClass } from './context';

export const CARD_W = 100;
export const CARD_H = 140;

/** The printed name without the rank ("Parrot"), split into at most two lines. */
function nameLines(edition: Edition, rank: number): string[] {
  const name = Number.isInteger(rank) ? (cardTable(edition)?.[rank]?.[0] ?? `Character ${rank}`) : 'Midshipman';
  if (name.length <= 12) return [name];
  const words = name.split(' ');
  let best = [name];
  for (let i = 1; i < words.length; i++) {
    const a = words.slice(0, i).join(' ');
    const b = words.slice(i).join(' ');
    if (Math.max(a.length, b.length) < Math.max(...best.map((l) => l.length))) best = [a, b];
  }
  return best;
}

/** The words a screen reader hears for a card. */
export function cardLabel(edition: Edition, rank: number, seat: number, owner?: string, extra?: string): string {
  const mark = tieBreakMark(edition, rank, seat);
  const t = cardTimings(edition, rank);
  const rankWord = Number.isInteger(rank) ? String(rank) : `${Math.floor(rank)}½`;
  return [
    `${nameLines(edition, rank).join(' ')}, rank ${rankWord}`,
    owner && (seat < 0 ? 'neutral' : `${owner === 'You' ? 'your' : `${owner}'s`} card`),
    mark !== null && `tie-break mark ${mark}`,
    t.length ? `acts: ${t.map((x) => timingWord(edition, x).toLowerCase()).join(', ')}` : 'no ability',
    extra,
  ]
    .filter(Boolean)
    .join(', ');
}

export interface FaceOpts {
  owner?: string;
  key: string;
  /** Extra words for the label ("left the island"). */
  extra?: string;
  class?: string;
  style?: string;
}

/** The card as an SVG group of CARD_W x CARD_H user units at the origin. */
export function cardFace(edition: Edition, rank: number, seat: number, o: FaceOpts): SVGElement {
  const mark = tieBreakMark(edition, rank, seat);
  const lines = nameLines(edition, rank);
  const timings = cardTimings(edition, rank);
  const rankText = Number.isInteger(rank) ? String(rank) : `${Math.floor(rank)}½`;
  return s(
    'g',
    {
      class: `face ${seatClass(seat)}${o.class ? ` ${o.class}` : ''}`,
      role: 'img',
      'aria-label': cardLabel(edition, rank, seat, o.owner, o.extra),
      'data-key': o.key,
      'data-rank': rank,
      'data-seat': seat,
      style: o.style,
    },
    s('rect', { class: 'face-body', x: 1, y: 1, width: CARD_W - 2, height: CARD_H - 2, rx: 8 }),
    s('rect', { class: 'face-band', x: 1, y: 1, width: CARD_W - 2, height: 30, rx: 8 }),
    s('circle', { class: 'face-disc', cx: 20, cy: 22, r: 15 }),
    s('text', { class: 'face-rank', x: 20, y: 27, 'text-anchor': 'middle' }, rankText),
    timings.map((t, i) => [
      s('circle', { class: 'face-disc', cx: CARD_W - 16 - i * 24, cy: 16, r: 11 }),
      drawing(TIMING_MARKUP[t] ?? '', CARD_W - 25 - i * 24, 7, 18, 'face-timing'),
    ]),
    s(
      'text',
      { class: 'face-name', x: CARD_W / 2, y: lines.length > 1 ? 62 : 70, 'text-anchor': 'middle' },
      lines.map((l, i) => s('tspan', { x: CARD_W / 2, dy: i ? 15 : 0, ...squeeze(l) }, l)),
    ),
    mark !== null &&
      s(
        'g',
        { class: 'face-mark', transform: `translate(8 ${CARD_H - 34})` },
        s('path', { d: 'M12 2l9 5v10l-9 5-9-5V7z' }),
        s('text', { x: 12, y: 16.5, 'text-anchor': 'middle' }, String(mark)),
      ),
    s('text', { class: 'face-gone', x: CARD_W / 2, y: 102, 'text-anchor': 'middle' }, 'left'),
    o.owner && s('text', { class: 'face-owner', x: CARD_W - 8, y: CARD_H - 12, 'text-anchor': 'end' }, short(o.owner)),
  );
}

/** A word too long for the card ("Quartermaster") is squeezed to the card's width, not cut. */
const squeeze = (line: string) =>
  line.length > NAME_FITS ? { textLength: CARD_W - 12, lengthAdjust: 'spacingAndGlyphs' } : {};
/** Letters of the name font (13 px semibold) that fit across a card without squeezing. */
const NAME_FITS = 10;

const short = (name: string) => (name.length > 11 ? `${name.slice(0, 10)}…` : name);

/** A 24x24 drawing of this code's own (icons.ts) placed at x, y in a scene. */
export function drawing(markup: string, x: number, y: number, size: number, cls = ''): SVGElement {
  const el = s('svg', { x, y, width: size, height: size, viewBox: '0 0 24 24', class: cls, 'aria-hidden': 'true' });
  el.innerHTML = markup;
  return el;
}

/** A card on its own (a den, a ship, the hand): an inline SVG at the given width. */
export function cardSvg(edition: Edition, rank: number, seat: number, o: FaceOpts & { width: number }): SVGElement {
  return s(
    'svg',
    {
      class: 'card-svg',
      viewBox: `0 0 ${CARD_W} ${CARD_H}`,
      width: o.width,
      height: Math.round((o.width * CARD_H) / CARD_W),
      'data-key': `svg-${o.key}`,
    },
    cardFace(edition, rank, seat, { ...o, style: undefined }),
  );
}
