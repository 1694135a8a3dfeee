// The side column's slot for panels other features add (chat, profile, leaderboard, reminder
// settings): each registers a function drawing its panel for the table, or null to stay out.
// The game screen draws them under the legend, in registration order, each keyed by name.
import type { TableCtx } from './context';

export type SidePanel = (ctx: TableCtx) => HTMLElement | null;

const panels: { name: string; draw: SidePanel }[] = [];

/** Adds a panel to the table's side column (once per name). */
export function registerSidePanel(name: string, draw: SidePanel): void {
  if (!panels.some((p) => p.name === name)) panels.push({ name, draw });
}

export function sidePanels(ctx: TableCtx): HTMLElement[] {
  return panels.flatMap((p) => {
    const el = p.draw(ctx);
    if (el && !el.hasAttribute('data-key')) el.setAttribute('data-key', `side-${p.name}`);
    return el ? [el] : [];
  });
}
