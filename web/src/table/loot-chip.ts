// A loot token in words with its icon; its worth and effect as the tooltip.
import type { Game } from '../api';
import { h } from '../dom';
import { lootIcon } from '../icons';

export function lootChip(g: Game, kind: string, count = 1): HTMLElement {
  const info = g.lootLegend.find((l) => l.kind === kind);
  const name = info?.name ?? kind;
  const help = info
    ? `${info.name}: ${info.worth === '0' ? 'worth nothing' : `worth ${info.worth}`}${info.effect ? `; ${info.effect}` : ''}`
    : kind;
  return h(
    'span',
    { class: 'loot', title: help, 'data-kind': kind },
    lootIcon(kind, name),
    count === 1 ? name : `${count} × ${name}`,
  );
}
