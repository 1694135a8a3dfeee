// Inline SVG icons (no external assets): one per loot kind of both editions, and the marks
// used in legends. Each is a 24x24 drawing; the words next to it carry the meaning.
import { svg } from './dom';

const wrap = (body: string) =>
  `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">${body}</svg>`;

const LOOT: Record<string, string> = {
  chest:
    '<rect x="3" y="9" width="18" height="11" rx="1.5" fill="#8a5a2b"/><path d="M3 10a9 5 0 0 1 18 0z" fill="#a8713a"/><rect x="10.5" y="11" width="3" height="4" fill="#f2c14e"/>',
  jewel:
    '<path d="M6 4h12l4 6-10 11L2 10z" fill="#2a7fb8"/><path d="M2 10h20M12 21 8 10l4-6 4 6z" stroke="#cde9ff" stroke-width="1" fill="none"/>',
  goods:
    '<ellipse cx="12" cy="12" rx="7" ry="9" fill="#9c6b35"/><path d="M5 8h14M5 16h14" stroke="#4b2e12" stroke-width="1.6"/>',
  barrel:
    '<ellipse cx="12" cy="12" rx="7" ry="9" fill="#9c6b35"/><path d="M5 8h14M5 16h14" stroke="#4b2e12" stroke-width="1.6"/>',
  map: '<path d="M3 5l6-2 6 2 6-2v16l-6 2-6-2-6 2z" fill="#e9d8a6"/><path d="M9 3v16M15 5v16" stroke="#b59b5d"/><path d="M11 10l3 3m0-3-3 3" stroke="#b3261e" stroke-width="1.8"/>',
  relic:
    '<circle cx="12" cy="10" r="7" fill="#5b6770"/><circle cx="9.5" cy="9.5" r="1.7" fill="#111"/><circle cx="14.5" cy="9.5" r="1.7" fill="#111"/><rect x="8.5" y="15" width="7" height="5" rx="1" fill="#5b6770"/>',
  saber:
    '<path d="M5 19 18 4l1.5 1.5L7 20z" fill="#9aa5ad"/><path d="M4 17l3 3M3 21l3-1-2-2z" stroke="#6b4a1c" stroke-width="2"/>',
  officer:
    '<path d="M4 14c0-5 3.6-9 8-9s8 4 8 9z" fill="#b3261e"/><rect x="3" y="14" width="18" height="3" fill="#7a1a14"/><circle cx="12" cy="9" r="1.6" fill="#f2c14e"/>',
  amulet:
    '<path d="M7 3q5 6 10 0" stroke="#b59b5d" stroke-width="1.6" fill="none"/><circle cx="12" cy="14" r="6" fill="#6a3fa0"/><circle cx="12" cy="14" r="2.5" fill="#e6d3ff"/>',
  hook: '<path d="M13 2v11a5 5 0 1 1-10 0" stroke="#5b6770" stroke-width="2.6" fill="none"/><path d="M3 13l-1-3 3 1z" fill="#5b6770"/><rect x="10" y="1" width="6" height="4" rx="1" fill="#6b4a1c"/>',
};

/** The drawing of a loot kind (24x24), for the SVG scenes. */
export const lootMarkup = (kind: string) => LOOT[kind] ?? '<circle cx="12" cy="12" r="8" fill="#888"/>';

export function lootIcon(kind: string, name: string): HTMLElement {
  return svg(wrap(lootMarkup(kind)), name);
}

/** When a character acts (24x24): day a sun, dusk a sun on the horizon, night a moon, end of round a flag. */
export const TIMING_MARKUP: Record<string, string> = {
  day: '<circle cx="12" cy="12" r="5" fill="#d9a520"/><path d="M12 2v4M12 18v4M2 12h4M18 12h4M5 5l3 3M16 16l3 3M5 19l3-3M16 8l3-3" stroke="#8a6410" stroke-width="2"/>',
  dusk: '<path d="M5 16a7 7 0 0 1 14 0z" fill="#d9822b"/><path d="M2 17h20" stroke="#6b3a10" stroke-width="2"/><path d="M12 4v4M4 9l2.5 2.5M20 9l-2.5 2.5" stroke="#6b3a10" stroke-width="2"/>',
  night: '<path d="M15 3a9 9 0 1 0 6 14A7 7 0 0 1 15 3z" fill="#34407a"/>',
  end: '<path d="M6 21V3" stroke="#1d232a" stroke-width="2"/><path d="M7 4h12l-3 4 3 4H7z" fill="#b3261e"/>',
};

export function timingIcon(timing: string, label: string): HTMLElement {
  return svg(wrap(TIMING_MARKUP[timing] ?? ''), label);
}

/** Classic: the small tie-break number printed on a card. */
export function markIcon(mark: number): HTMLElement {
  return svg(
    wrap(
      `<path d="M12 2l9 5v10l-9 5-9-5V7z" fill="#14324a"/><text x="12" y="16.5" font-size="12" text-anchor="middle" fill="#fff" font-family="sans-serif">${mark}</text>`,
    ),
    `tie-break mark ${mark}`,
  );
}

export function coinIcon(): HTMLElement {
  return svg(
    wrap(
      '<circle cx="12" cy="12" r="9" fill="#d9a520"/><circle cx="12" cy="12" r="6" fill="none" stroke="#8a6410" stroke-width="1.5"/>',
    ),
    'doubloons',
  );
}
