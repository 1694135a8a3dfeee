// A character named with its rules one tap away (per-card rules popover, from the API's
// `characters` query), its owner's colour and, in classic, its tie-break mark.
import type { Edition } from '../api';
import { h } from '../dom';
import { markIcon } from '../icons';
import { cardName, cardText, cardTimings, tieBreakMark, timingWord } from '../words';

/** The rules; the timings lead unless the text already starts with one ("Day: …"). */
export function cardRules(edition: Edition, rank: number): HTMLElement {
  const t = cardTimings(edition, rank);
  const text = cardText(edition, rank);
  const lead = t.length && !/^(Day|Dusk|Night|End[^:]*):/.test(text);
  return h(
    'span',
    { class: 'rules' },
    lead ? h('strong', null, `${t.map((x) => timingWord(edition, x)).join(', ')}: `) : '',
    text || 'No ability.',
  );
}

/** <details> with the card's name as summary: tap or Enter shows its rules. */
export function cardRef(edition: Edition, rank: number, seat: number, key: string, owner?: string): HTMLElement {
  const mark = tieBreakMark(edition, rank, seat);
  return h(
    'details',
    { class: 'card-ref', 'data-key': key },
    h(
      'summary',
      { title: cardText(edition, rank) },
      h('strong', null, cardName(edition, rank)),
      mark !== null && markIcon(mark),
      owner && h('span', { class: 'owner' }, owner),
    ),
    h(
      'div',
      { class: 'pop' },
      cardRules(edition, rank),
      mark !== null &&
        h('small', null, ` Tie-break mark ${mark} on this colour: the lower mark sits left of an identical rank.`),
    ),
  );
}
