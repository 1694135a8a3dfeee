// The edition picker of the leaderboard and the profile's rating history (each edition is rated
// on its own).
import type { Edition } from '../api';
import { h } from '../dom';
import { editionName } from '../words';

export function editionSelect(id: string, label: string, value: Edition, pick: (e: Edition) => void): HTMLElement {
  return h(
    'div',
    null,
    h('label', { for: id }, `${label} `),
    h(
      'select',
      { id, value, onchange: (e: Event) => pick((e.target as HTMLSelectElement).value as Edition) },
      (['CLASSIC', 'GALECREST'] as Edition[]).map((e) => h('option', { value: e }, editionName(e, null))),
    ),
  );
}
