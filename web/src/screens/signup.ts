// Sign up: a pirate name, then back to where the player was going.
import { api } from '../api';
import { h, render } from '../dom';
import { saveSession } from '../session';
import { go, header, message } from '../shell';

export function signUpScreen(root: HTMLElement, next: string): void {
  let error = '';
  const draw = () =>
    render(
      root,
      header('Sign up'),
      h(
        'main',
        { class: 'narrow' },
        h('p', null, 'Pick a pirate name to play Libertalia (classic or Winds of Galecrest) against friends and bots. No password: your session stays in this browser.'),
        h(
          'form',
          { onsubmit: submit, 'aria-label': 'Sign up' },
          h('label', { for: 'name' }, 'Your name'),
          h('input', { id: 'name', name: 'name', required: true, maxlength: 40, autocomplete: 'nickname', 'data-key': 'name' }),
          h('button', { type: 'submit', 'data-key': 'signup' }, 'Sign up'),
        ),
        h('p', { role: 'alert', class: 'error' }, error),
      ),
    );
  async function submit(ev: Event) {
    ev.preventDefault();
    const name = (root.querySelector('#name') as HTMLInputElement).value.trim();
    if (!name) return;
    try {
      saveSession(await api.signUp(name));
      go(next);
    } catch (e) {
      error = message(e);
      draw();
    }
  }
  draw();
  (root.querySelector('#name') as HTMLInputElement).focus();
}
