// A decision the viewer owes: the server's text and one button per option, labelled as the
// server wrote them (players by name), with the time left to answer.
import { api, type Prompt } from '../api';
import { h } from '../dom';
import { timeLeft, when } from '../words';
import { press, type TableCtx } from './context';

export function promptPart(ctx: TableCtx, p: Prompt): HTMLElement {
  const g = ctx.game;
  return h(
    'section',
    { class: 'prompt', 'aria-labelledby': `prompt-${p.id}`, 'data-testid': 'prompt', 'data-key': `prompt-${p.id}` },
    h('h2', { id: `prompt-${p.id}` }, 'Your decision'),
    h('p', { class: 'prompt-text' }, p.text),
    p.deadline &&
      h(
        'p',
        { class: 'deadline', title: when(p.deadline) },
        `Answer by ${when(p.deadline)} (${timeLeft(p.deadline, ctx.now)}).`,
      ),
    h(
      'div',
      { class: `options${p.options.length > 4 ? ' many' : ''}`, role: 'group', 'aria-label': p.text },
      p.options.map((o, i) =>
        h(
          'button',
          {
            ...press(ctx, () => api.answerPrompt(g.id, p.id, o.id)),
            'data-key': `opt-${p.id}-${o.id}`,
            'data-option': o.id,
            'data-focus-next': i === 0 ? '' : undefined,
          },
          o.label,
        ),
      ),
    ),
  );
}
