// A decision the viewer owes: the prompt's text and one button per option.
import { api, type Prompt } from '../api';
import { h } from '../dom';
import { cardName, when } from '../words';
import type { TableCtx } from './context';

export function promptPart(ctx: TableCtx, p: Prompt): HTMLElement {
  const g = ctx.game;
  return h(
    'section',
    { class: 'prompt', 'aria-labelledby': `prompt-${p.id}`, 'data-testid': 'prompt' },
    h('h2', { id: `prompt-${p.id}` }, 'Your decision'),
    h('p', { class: 'prompt-text' }, p.text),
    p.deadline && h('p', { class: 'deadline' }, `Answer by ${when(p.deadline)}.`),
    h(
      'div',
      { class: 'options', role: 'group', 'aria-label': p.text },
      p.options.map((o) =>
        h(
          'button',
          { type: 'button', 'data-key': `opt-${o.id}`, 'data-option': o.id, disabled: ctx.busy, onclick: () => ctx.act(() => api.answerPrompt(g.id, p.id, o.id)) },
          optionLabel(ctx, p, o.label, o.id),
        ),
      ),
    ),
  );
}

function optionLabel(ctx: TableCtx, p: Prompt, label: string, optionId: string): string {
  // Character options are "<seat>:<rank>": say whose card it is.
  const m = /^(-?\d+):(\d+(?:\.\d+)?)$/.exec(optionId);
  if (p.kind === 'character' && m) return `${ctx.names.seat(Number(m[1]))}: ${cardName(ctx.game.edition, Number(m[2]))}`;
  return label;
}
