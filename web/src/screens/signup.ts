// Sign in: with an account (the OpenID Provider the API names, authorization code + PKCE: see
// auth.ts), or quick play as a guest (a name, no password; link it to an account later). After
// a first sign-in the account chooses its display name, or keeps this browser's guest and games.
import { authConfig, chooseName, needsName, playAsGuest, previousGuest, startSignIn } from '../auth';
import { h, render } from '../dom';
import { go, header, message } from '../shell';

export function signUpScreen(root: HTMLElement, next: string): void {
  if (needsName()) {
    nameScreen(root, next);
    return;
  }
  let error = '';
  let canSignIn = false;
  const draw = () =>
    render(
      root,
      header('Sign in'),
      h(
        'main',
        { class: 'narrow' },
        h(
          'p',
          null,
          'Play Libertalia (classic or Winds of Galecrest) against friends and bots, by correspondence, on every device you sign in with.',
        ),
        canSignIn &&
          h(
            'p',
            null,
            h('button', { type: 'button', 'data-key': 'signin', onclick: signIn }, 'Sign in or create an account'),
          ),
        h('h2', null, 'Quick play as a guest'),
        h(
          'p',
          null,
          'No account: your session stays in this browser. You can link it to an account later and keep your games.',
        ),
        h(
          'form',
          { onsubmit: guest, 'aria-label': 'Quick play as a guest' },
          h('label', { for: 'name' }, 'Your name'),
          h('input', {
            id: 'name',
            name: 'name',
            required: true,
            maxlength: 40,
            autocomplete: 'nickname',
            'data-key': 'name',
          }),
          h('button', { type: 'submit', 'data-key': 'guest' }, 'Play as a guest'),
        ),
        h('p', { role: 'alert', class: 'error' }, error),
      ),
    );
  async function signIn() {
    try {
      await startSignIn(next);
    } catch (e) {
      error = message(e);
      draw();
    }
  }
  async function guest(ev: Event) {
    ev.preventDefault();
    const name = (root.querySelector('#name') as HTMLInputElement).value.trim();
    if (!name) return;
    try {
      await playAsGuest(name);
      go(next);
    } catch (e) {
      error = message(e);
      draw();
    }
  }
  draw();
  void authConfig()
    .then((c) => {
      canSignIn = Boolean(c.issuer && c.clientId);
      draw();
    })
    .catch(() => undefined);
}

/** First sign-in of an account: its display name, chosen once (or the guest's, with its games). */
function nameScreen(root: HTMLElement, next: string): void {
  let error = '';
  const old = previousGuest();
  const draw = () =>
    render(
      root,
      header('Choose your name'),
      h(
        'main',
        { class: 'narrow' },
        h('p', null, 'Your pirate name, shown to the other players: unique, chosen once (you can rename later).'),
        h(
          'form',
          { onsubmit: (ev: Event) => submit(ev, false), 'aria-label': 'Choose your name' },
          h('label', { for: 'name' }, 'Your name'),
          h('input', {
            id: 'name',
            name: 'name',
            required: true,
            maxlength: 40,
            autocomplete: 'nickname',
            'data-key': 'name',
            value: old?.name ?? '',
          }),
          h('button', { type: 'submit', 'data-key': 'register' }, 'Choose this name'),
          old &&
            h(
              'button',
              { type: 'button', 'data-key': 'link', onclick: (ev: Event) => submit(ev, true) },
              `Keep my guest games (as ${old.name})`,
            ),
        ),
        h('p', { role: 'alert', class: 'error' }, error),
      ),
    );
  async function submit(ev: Event, link: boolean) {
    ev.preventDefault();
    const name = (root.querySelector('#name') as HTMLInputElement).value.trim();
    if (!name && !link) return;
    try {
      await chooseName(name, link);
      go(next);
    } catch (e) {
      error = message(e);
      draw();
    }
  }
  draw();
  (root.querySelector('#name') as HTMLInputElement).focus();
}
