// What every screen shares: the page header (brand, title, who is signed in), navigation by
// hash, and error messages in words.
import { ApiError } from './api';
import { h } from './dom';
import { signOutHere } from './auth';
import { loadSession } from './session';

export function message(e: unknown): string {
  return e instanceof ApiError || e instanceof Error ? e.message : String(e);
}

/** Goes to a hash route; the same route again is drawn afresh. */
export function go(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

export function header(title: string, extra?: Node): HTMLElement {
  const session = loadSession();
  return h(
    'header',
    { class: 'top' },
    h('a', { href: '#/', class: 'brand' }, 'Libertalia Online'),
    h('h1', null, title),
    session &&
      h(
        'nav',
        { 'aria-label': 'Community', class: 'who' },
        h('a', { href: '#/leaderboard' }, 'Leaderboard'),
        ' · ',
        h('a', { href: `#/profile/${encodeURIComponent(session.playerId)}` }, 'My profile'),
      ),
    session &&
      h(
        'p',
        { class: 'who' },
        `Signed in as ${session.name} `,
        h(
          'button',
          { type: 'button', class: 'link', 'data-key': 'signout', onclick: () => (signOutHere(), go('#/')) },
          'Sign out',
        ),
      ),
    extra,
  );
}
