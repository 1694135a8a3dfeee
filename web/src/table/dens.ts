// Each player's den (classic) or ship (Galecrest) as a row of drawn cards, their loot beside
// it; the graveyard once it is public. The numbers (doubloons, score, who decides) stay in
// the players table. A token taken since the last drawing travels there from its day space
// (or the bag) first, unless the reader asked for reduced motion.
import type { Seat } from '../api';
import type { LootFlight } from '../day';
import { h } from '../dom';
import { lootMarkup } from '../icons';
import { denWord } from '../words';
import { cardSvg } from './card-face';
import { seatClass, type TableCtx } from './context';
import { lootChip } from './loot-chip';
import { onTable, type TokenSpots } from './scene';

function lootOf(ctx: TableCtx, s: Seat): (HTMLElement | string)[] {
  if (!s.loot) return [`${s.lootCount} loot face down`];
  const held = s.loot.filter((l) => l.count > 0);
  return held.length ? held.map((l) => lootChip(ctx.game, l.kind, l.count)) : ['no loot'];
}

/** For a second drawing on the page (the replay): `id` prefixes the heading's id, `at` is added to the heading. */
export function densPart(ctx: TableCtx, o: { id?: string; at?: string } = {}): HTMLElement {
  const g = ctx.game;
  const word = denWord(g.edition);
  const heading = word === 'ship' ? 'Ships' : 'Dens';
  return h(
    'section',
    { 'aria-labelledby': `${o.id ?? ''}dens-h`, 'data-key': 'dens', 'data-testid': 'dens' },
    h('h2', { id: `${o.id ?? ''}dens-h` }, `${heading}${o.at ?? ''}`),
    h(
      'ul',
      { class: 'dens' },
      g.seats.map((s) => {
        const who = ctx.names.seat(s.seat);
        return h(
          'li',
          { class: `den-row ${seatClass(s.seat)}`, 'data-key': `den-${s.seat}`, 'data-seat': s.seat },
          h(
            'strong',
            { class: 'den-who' },
            h('span', { class: `dot ${seatClass(s.seat)}`, 'aria-hidden': 'true' }),
            `${who === 'You' ? 'Your' : `${who}'s`} ${word}`,
          ),
          h(
            'span',
            {
              class: 'den-cards',
              role: s.den.length ? 'list' : undefined,
              'aria-label': s.den.length ? `${who === 'You' ? 'Your' : `${who}'s`} ${word}` : undefined,
            },
            s.den.length
              ? s.den.map((r) =>
                  h(
                    'span',
                    { role: 'listitem', 'data-key': `dc-${s.seat}-${r}` },
                    cardSvg(g.edition, r, s.seat, { key: `den-${s.seat}-${r}`, width: 48 }),
                  ),
                )
              : h('span', { class: 'muted' }, `empty ${word}`),
          ),
          h('span', { class: 'den-loot' }, lootOf(ctx, s)),
          s.graveyard?.length && g.status === 'FINISHED'
            ? h(
                'span',
                { class: 'den-grave', role: 'list', 'aria-label': `${who === 'You' ? 'Your' : `${who}'s`} graveyard` },
                h('span', { class: 'muted' }, 'Graveyard: '),
                s.graveyard.map((r) =>
                  h(
                    'span',
                    { role: 'listitem', 'data-key': `gc-${s.seat}-${r}` },
                    cardSvg(g.edition, r, s.seat, { key: `grave-${s.seat}-${r}`, width: 36, class: 'dead' }),
                  ),
                ),
              )
            : null,
        );
      }),
    ),
  );
}

const FACE_DOWN = '<circle cx="12" cy="12" r="9" fill="#6b4a1c" stroke="#1d232a" stroke-width="1.5"/>';
/** Seconds: one token's travel, and the gap between two tokens (they leave in the order taken). */
const TRAVEL_S = 0.8;
const GAP_S = 0.3;

interface Travel {
  el: HTMLElement;
  seat: number;
  kind?: string;
  /** Page coordinates of the start, the token's size, when it may start moving (ms). */
  x: number;
  y: number;
  size: number;
  startsAt: number;
  dx: number;
  dy: number;
  timer: number;
  landed: boolean;
}
const travelling = new Set<Travel>();

/** Where a token lands in its taker's row (its kind's chip when drawn), relative to its start. */
function aim(root: HTMLElement, t: Travel): boolean {
  const loot = onTable(root, `[data-testid=dens] li[data-seat="${t.seat}"] .den-loot`);
  if (!loot) return false;
  const to = ((t.kind && loot.querySelector(`[data-kind="${t.kind}"]`)) || loot).getBoundingClientRect();
  t.dx = to.left + window.scrollX + Math.min(to.width, 24) / 2 - t.size / 2 - t.x;
  t.dy = to.top + window.scrollY + to.height / 2 - t.size / 2 - t.y;
  return true;
}

/**
 * The tokens travel in a layer over the whole page that clips them: a token on its way never
 * makes the page wider (a phone turned, a window narrowed, mid-flight). Gone when they are.
 */
function layer(): HTMLElement {
  let l = document.querySelector<HTMLElement>('body > .travel-layer');
  if (!l) {
    l = h('div', { class: 'travel-layer', 'aria-hidden': 'true' });
    document.body.append(l);
  }
  l.style.height = `${document.documentElement.scrollHeight}px`;
  return l;
}

function land(t: Travel, late: boolean): void {
  if (t.landed) return;
  t.landed = true;
  travelling.delete(t);
  clearTimeout(t.timer);
  // Late (no transitionend: a busy or throttled page): straight to the den.
  if (late) t.el.style.transition = 'none';
  t.el.style.transform = `translate(${t.dx}px, ${t.dy}px)`;
  t.el.setAttribute('data-travel', 'end');
  setTimeout(() => {
    const l = t.el.parentElement;
    t.el.remove();
    if (l && !l.firstChild) l.remove();
  }, 700);
}

function go(t: Travel): void {
  const wait = Math.max(0, t.startsAt - performance.now());
  t.el.style.setProperty('--delay', `${wait / 1000}s`);
  t.el.style.transform = `translate(${t.dx}px, ${t.dy}px)`;
  clearTimeout(t.timer);
  t.timer = window.setTimeout(() => land(t, true), wait + TRAVEL_S * 1000 + 1500);
}

/**
 * Each token taken (in the order taken: dusk right to left) travels from where it was drawn
 * to its taker's den or ship, then fades into the loot there (already drawn by the redraw).
 * Called after every redraw: a token still travelling is steered to where its den is now (the
 * day played out, opening above the dens, pushes them down). Decorative (aria-hidden): the
 * den's loot and the day played out say it in words. Nothing moves with prefers-reduced-motion
 * or in a hidden tab: the table shows the end at once.
 */
export function flyLoot(root: HTMLElement, flights: LootFlight[], before: TokenSpots | null): void {
  for (const t of travelling) {
    const { dx, dy } = t;
    if (!aim(root, t)) land(t, true);
    else if (t.el.getAttribute('data-travel') === 'moving' && (Math.abs(t.dx - dx) > 2 || Math.abs(t.dy - dy) > 2))
      go(t);
  }
  if (!before || document.hidden || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  const used = new Set<DOMRect>();
  const now = performance.now();
  flights.forEach((f, i) => {
    // Where it was: its token on the day space (of its kind when known), else the space, else the bag.
    const tokens = f.day === null ? [] : (before.days.get(f.day) ?? []).filter((t) => !used.has(t.box));
    const token = tokens.find((t) => t.kind === f.kind) ?? (f.kind === undefined ? tokens[0] : undefined);
    if (token) used.add(token.box);
    const was = token?.box ?? (f.day === null ? before.bag : before.spaces.get(f.day)) ?? null;
    if (!was) return;
    // The redraw may have moved the space (a prompt or a hand row gone above it): start from its place now.
    const spaceWas = f.day === null ? before.bag : before.spaces.get(f.day);
    const spaceNow = (
      f.day === null
        ? onTable(root, '[data-testid=bag]')
        : onTable(root, '[data-testid=loot-spaces]')?.querySelector(`g.space[data-day="${f.day}"]`)
    )?.getBoundingClientRect();
    const from =
      spaceWas && spaceNow
        ? new DOMRect(
            was.left - spaceWas.left + spaceNow.left,
            was.top - spaceWas.top + spaceNow.top,
            was.width,
            was.height,
          )
        : was;
    const kind = f.kind ?? (token?.kind || undefined);
    const size = Math.max(18, Math.min(from.width, from.height, 32));
    const el = h('div', {
      class: 'travel',
      'data-travel': 'start',
      'data-seat': f.seat,
      'data-kind': kind ?? 'face down',
      'data-seq': f.seq,
      style: `left: ${from.left + window.scrollX}px; top: ${from.top + window.scrollY}px; width: ${size}px; height: ${size}px; --travel: ${TRAVEL_S}s`,
    });
    el.innerHTML = `<svg viewBox="0 0 24 24" width="100%" height="100%" focusable="false">${kind ? lootMarkup(kind) : FACE_DOWN}</svg>`;
    const t: Travel = {
      el,
      seat: f.seat,
      kind,
      x: from.left + window.scrollX,
      y: from.top + window.scrollY,
      size,
      startsAt: now + i * GAP_S * 1000,
      dx: 0,
      dy: 0,
      timer: 0,
      landed: false,
    };
    if (!aim(root, t)) return;
    layer().append(el);
    travelling.add(t);
    el.addEventListener('transitionend', (e) => e.propertyName === 'transform' && land(t, false));
    // A transition needs its start drawn first; the timer lands it if no frame or transitionend comes.
    el.getBoundingClientRect();
    t.timer = window.setTimeout(() => land(t, true), i * GAP_S * 1000 + TRAVEL_S * 1000 + 1500);
    requestAnimationFrame(() => {
      if (t.landed) return;
      el.setAttribute('data-travel', 'moving');
      go(t);
    });
  });
}
