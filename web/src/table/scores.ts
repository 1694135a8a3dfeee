// End of game: the score of every round explained per player (doubloons held, end-of-round
// abilities, loot by kind and its worth, reputation pay, banked, running score), read from
// the event log; and the final ranking with the tie-break that decided each tie.
import type { GameEvent } from '../api';
import { h } from '../dom';
import { roundWord } from '../words';
import { seatClass, type TableCtx } from './context';
import { lootChip } from './loot-chip';

interface RoundScore {
  reputationPay: number;
  abilities: number;
  abilityNames: string[];
  loot: { kind: string; count: number }[];
  lootValue: number;
  banked: number;
  score: number;
}

/** Per round, per seat: what made the banked doubloons. */
export function roundScores(events: GameEvent[], seats: number): RoundScore[][] {
  const rounds: RoundScore[][] = [];
  let cur: RoundScore[] | null = null;
  let scoring = false;
  let opening = false;
  for (const e of events) {
    const d = e.data as Record<string, unknown>;
    const s = Number(d.seat);
    if (e.type === 'roundStart') {
      cur = Array.from({ length: seats }, () => ({
        reputationPay: 0,
        abilities: 0,
        abilityNames: [],
        loot: [],
        lootValue: 0,
        banked: 0,
        score: 0,
      }));
      rounds.push(cur);
      scoring = false;
      opening = true;
      continue;
    }
    if (!cur) continue;
    if (e.type === 'sunrise') opening = false;
    if (e.type === 'phase' && d.phase === 'anchor') scoring = true;
    const r = cur[s];
    if (!r) continue;
    if (e.type === 'doubloons' && opening && d.reason === 'reputation') r.reputationPay += Number(d.delta);
    else if (
      e.type === 'doubloons' &&
      scoring &&
      d.reason !== 'booty' &&
      d.reason !== 'anchor' &&
      d.reason !== 'reputation overflow'
    ) {
      r.abilities += Number(d.delta);
      if (d.reason) r.abilityNames.push(String(d.reason));
    } else if (e.type === 'anchorAbility') {
      r.abilities += Number(d.value);
    } else if (e.type === 'anchorLoot') {
      r.loot.push({ kind: String(d.kind), count: Number(d.count) });
      r.lootValue += Number(d.value);
    } else if (e.type === 'campaignScored') {
      const booty = (d.booty ?? {}) as Record<string, number>;
      r.loot = Object.entries(booty)
        .filter(([, n]) => n > 0)
        .map(([kind, count]) => ({ kind, count }));
      r.lootValue = Number(d.value);
      r.banked = Number(d.banked);
      r.score = Number(d.score);
    } else if (e.type === 'voyageBanked') {
      r.banked = Number(d.banked);
      r.score = Number(d.score);
    }
  }
  return rounds.filter((r) => r.some((x) => x.score > 0 || x.banked > 0));
}

const signed = (k: number) => (k > 0 ? `+${k}` : k < 0 ? `−${-k}` : '0');

export function scoresPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const gal = g.edition === 'GALECREST';
  const rounds = roundScores(ctx.events, g.seats.length);
  const cols = [
    'Player',
    ...(gal ? ['Reputation pay'] : []),
    'Held before scoring',
    gal ? 'Anchor abilities' : 'End-of-campaign abilities',
    'Loot',
    'Loot worth',
    'Banked',
    'Score',
  ];
  return h(
    'section',
    { 'aria-labelledby': 'scores-h', class: 'scores', 'data-testid': 'breakdown', 'data-key': 'scores' },
    h('h2', { id: 'scores-h' }, 'Scores explained'),
    rounds.map((round, i) =>
      h(
        'table',
        { class: 'stack', 'data-key': `score-round-${i}` },
        h('caption', null, `${roundWord(g.edition)} ${i + 1}`),
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
          round.map((r, seat) => {
            const held = r.banked - r.abilities - r.lootValue;
            return h(
              'tr',
              { class: seatClass(seat) },
              h(
                'th',
                { scope: 'row' },
                h('span', { class: `dot ${seatClass(seat)}`, 'aria-hidden': 'true' }),
                ctx.names.seat(seat),
              ),
              gal && h('td', { 'data-label': 'Reputation pay' }, `+${r.reputationPay}`),
              h('td', { 'data-label': 'Held before scoring' }, String(held)),
              h(
                'td',
                { 'data-label': cols[gal ? 3 : 2], title: r.abilityNames.join(', ') },
                signed(r.abilities),
                r.abilityNames.length ? ` (${[...new Set(r.abilityNames)].join(', ')})` : '',
              ),
              h(
                'td',
                { 'data-label': 'Loot', class: 'tokens' },
                r.loot.length ? r.loot.map((l) => lootChip(g, l.kind, l.count)) : '—',
              ),
              h('td', { 'data-label': 'Loot worth' }, signed(r.lootValue)),
              h('td', { 'data-label': 'Banked' }, String(r.banked)),
              h('td', { 'data-label': 'Score' }, h('strong', null, String(r.score))),
            );
          }),
        ),
      ),
    ),
  );
}

export function rankingPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const rule =
    g.edition === 'GALECREST'
      ? 'Equal scores: the higher reputation ranks higher.'
      : 'Equal scores: more cards left in hand ranks higher, then more booty tokens, then more doubloons at the end.';
  return h(
    'section',
    { 'aria-labelledby': 'rank-h', class: 'ranking', 'data-key': 'ranking' },
    h('h2', { id: 'rank-h' }, 'Final ranking'),
    h(
      'ol',
      { 'data-testid': 'ranking' },
      g.ranking.map((r) =>
        h(
          'li',
          { class: `chip ${seatClass(r.seat)}` },
          h('strong', null, `${r.place}. ${r.name ?? 'a player'}${r.seat === g.me?.seat ? ' (you)' : ''}`),
          ` — ${r.score} points`,
          r.tieBreak && h('span', { class: 'tie', 'data-testid': 'tie-reason' }, r.tieBreak),
        ),
      ),
    ),
    h('p', { class: 'muted', 'data-testid': 'tie-rule' }, rule),
    g.seed && h('p', { class: 'muted seed' }, `Seed: ${g.seed}`),
  );
}
