// Legends and help: every loot kind of this game (icon, tokens, worth, effect; Galecrest: the
// tile side in play), the classic tie-break mark, the reputation spaces, the day's order.
import { h } from '../dom';
import { lootIcon, markIcon } from '../icons';
import { denWord, roundWord } from '../words';
import type { TableCtx } from './context';

export function legendPart(ctx: TableCtx): HTMLElement {
  const g = ctx.game;
  const gal = g.edition === 'GALECREST';
  const pay = g.reputationPayouts ?? [];
  return h(
    'section',
    { 'aria-labelledby': 'legend-h', class: 'legend', 'data-key': 'legend', 'data-testid': 'legend' },
    h('h2', { id: 'legend-h' }, 'Legend'),
    h(
      'details',
      { 'data-key': 'legend-loot', open: true },
      h('summary', null, gal ? `Loot tiles (${g.board?.toLowerCase() ?? 'calm'} board)` : 'Booty tokens'),
      h(
        'ul',
        { class: 'legend-list', 'data-testid': 'loot-legend' },
        g.lootLegend.map((l) =>
          h(
            'li',
            { 'data-kind': l.kind, 'data-key': `legend-${l.kind}` },
            lootIcon(l.kind, l.name),
            h(
              'div',
              null,
              h('strong', null, l.name),
              h('span', { class: 'muted' }, ` · ${l.tokens} tokens${l.side ? ` · ${l.side} side` : ''}`),
              h('br'),
              `${gal ? 'At anchor' : 'When the campaign ends'}: ${l.worth === '0' ? 'worth nothing' : l.worth}.`,
              l.effect && h('br'),
              l.effect && `${l.effect.charAt(0).toUpperCase()}${l.effect.slice(1)}.`,
            ),
          ),
        ),
      ),
    ),
    h(
      'details',
      { 'data-key': 'legend-rules' },
      h('summary', null, 'How a day runs, ties and scoring'),
      h(
        'ul',
        { class: 'legend-list' },
        h(
          'li',
          null,
          h(
            'div',
            null,
            h('strong', null, 'Sunrise: '),
            `every chosen character is revealed and placed by rank, lowest on the left.`,
          ),
        ),
        gal
          ? h(
              'li',
              null,
              h(
                'div',
                null,
                h('strong', null, 'Identical ranks: '),
                'the player with the higher reputation sits to the right (acts later by day, picks loot first at dusk).',
              ),
            )
          : h(
              'li',
              null,
              markIcon(3),
              h(
                'div',
                null,
                h('strong', null, 'Tie-break mark: '),
                'each colour’s copy of a card carries a number from 1 to 6. On identical ranks the lower mark sits to the left; the higher picks its booty first at dusk.',
              ),
            ),
        h(
          'li',
          null,
          h(
            'div',
            null,
            h('strong', null, 'Day: '),
            'day abilities act from left to right. ',
            h('strong', null, 'Dusk: '),
            `from right to left each character takes one loot token, then goes to its owner’s ${denWord(g.edition)}. `,
            h('strong', null, 'Night: '),
            `abilities in every ${denWord(g.edition)}.`,
          ),
        ),
        gal &&
          pay.length > 0 &&
          h(
            'li',
            null,
            h(
              'div',
              null,
              h('strong', null, 'Reputation spaces: '),
              pay.map((p, i) => `space ${i + 1} pays ${p}`).join(', '),
              ' doubloons at the start of each voyage. Moving past the top gains 1 doubloon per step, past the bottom loses 1.',
            ),
          ),
        h(
          'li',
          null,
          h(
            'div',
            null,
            h('strong', null, `End of each ${roundWord(g.edition).toLowerCase()}: `),
            gal
              ? 'anchor abilities and loot tiles are scored, then doubloons are banked on the score track.'
              : 'end-of-campaign abilities, then the booty is sold and all doubloons are banked.',
            ' Tap a character’s name to read its rules.',
          ),
        ),
      ),
    ),
  );
}
