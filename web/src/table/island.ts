// The island (classic) / the sea (Galecrest) as a list, for the replay: characters in rank
// order, each with its owner's colour, its rules one tap away and (classic) its tie-break mark.
// The live table draws it as a scene (scene.ts).
import type { Edition, IslandCard } from '../api';
import { h } from '../dom';
import type { Names } from '../words';
import { cardRef } from './card-ref';
import { seatClass } from './context';

export function islandList(edition: Edition, island: IslandCard[], names: Names, prefix = 'isle'): HTMLElement {
  return h(
    'ol',
    { class: 'island', 'data-testid': 'island' },
    island.map((c, i) =>
      h(
        'li',
        { class: `chip ${seatClass(c.seat)}`, 'data-key': `${prefix}-${c.seat}-${c.rank}` },
        cardRef(edition, c.rank, c.seat, `${prefix}-ref-${c.seat}-${c.rank}-${i}`, names.seat(c.seat)),
      ),
    ),
  );
}
