// The players table: doubloons, score, hand size, loot, graveyard, reputation, who is
// deciding. At phone width each player becomes a block of labelled lines (no sideways scroll).
// The replay draws the same table from a replay frame (its dens and ships as cards: dens.ts).
import type { Seat } from '../api';
import { h } from '../dom';
import { timeLeft, when } from '../words';
import { cardRef } from './card-ref';
import { seatClass, type TableCtx } from './context';
import { lootChip } from './loot-chip';
import { ratingText } from '../community/seat-ratings';

export interface PlayerRow {
  seat: Seat;
  /** "Now" column: null leaves it out (replay). */
  now?: HTMLElement | string | null;
}

export function playersTable(
  ctx: TableCtx,
  rows: PlayerRow[],
  opts: { testid?: string; label: string; key: string; live: boolean },
): HTMLElement {
  const g = ctx.game;
  const gal = g.edition === 'GALECREST';
  const cols = [
    'Player',
    'Doubloons',
    'Score',
    ...(opts.live ? ['Hand'] : []),
    'Loot',
    ...(opts.live ? ['Graveyard'] : []),
    ...(gal ? ['Reputation'] : []),
    ...(opts.live ? ['Now'] : []),
  ];
  const cell = (label: string, ...content: (Node | string)[]) => h('td', { 'data-label': label }, ...content);
  return h(
    'table',
    { class: 'stack', 'data-testid': opts.testid, 'aria-label': opts.label, 'data-key': opts.key },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        cols.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map(({ seat: s, now }) =>
        h(
          'tr',
          {
            class: `${s.seat === g.me?.seat ? 'me ' : ''}${seatClass(s.seat)}`,
            'data-key': `${opts.key}-row-${s.seat}`,
          },
          h(
            'th',
            { scope: 'row' },
            h('span', { class: `dot ${seatClass(s.seat)}`, 'aria-hidden': 'true' }),
            `${s.name ?? 'free seat'}${s.isBot ? ' (bot)' : ''}${s.seat === g.me?.seat ? ' (you)' : ''}`,
            h('span', { class: 'muted colour' }, ` · ${s.colour.toLowerCase()}`),
            opts.live && h('span', { class: 'muted', 'data-testid': 'seat-rating' }, ratingText(ctx, s.playerId)),
            s.conceded && h('span', { class: 'muted' }, ' (conceded)'),
          ),
          cell('Doubloons', String(s.doubloons)),
          cell('Score', String(s.score)),
          ...(opts.live ? [cell('Hand', String(s.handSize))] : []),
          cell(
            'Loot',
            ...(s.loot
              ? s.loot.filter((l) => l.count > 0).length
                ? s.loot.filter((l) => l.count > 0).map((l) => lootChip(g, l.kind, l.count))
                : ['—']
              : [`${s.lootCount} face down`]),
          ),
          ...(opts.live
            ? [
                cell(
                  'Graveyard',
                  ...(s.graveyard
                    ? s.graveyard.length
                      ? s.graveyard.map((r) => cardRef(g.edition, r, s.seat, `${opts.key}-grave-${s.seat}-${r}`))
                      : ['—']
                    : [s.graveyardSize ? `${s.graveyardSize} face down` : '—']),
                ),
              ]
            : []),
          ...(gal ? [cell('Reputation', s.reputation === null ? '—' : `space ${s.reputation + 1}`)] : []),
          ...(opts.live ? [cell('Now', now ?? '')] : []),
        ),
      ),
    ),
  );
}

export function playersPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const now = (s: Seat) =>
    s.awaited
      ? s.deadline
        ? h('span', { title: `due ${when(s.deadline)}` }, `deciding, ${timeLeft(s.deadline, ctx.now)}`)
        : 'deciding'
      : g.phase === 'CHOOSE' && g.status === 'ACTIVE' && s.hasChosen
        ? 'has chosen'
        : '';
  return h(
    'section',
    { 'aria-labelledby': 'seats-h', 'data-key': 'players' },
    h('h2', { id: 'seats-h' }, 'Players'),
    playersTable(
      ctx,
      g.seats.map((s) => ({ seat: s, now: now(s) })),
      { testid: 'seats', label: 'Players', key: 'players', live: true },
    ),
  );
}
