// Hash routes: #/ (the lobby, or sign-up without a session) and #/game/<id> (the table).
// Each screen draws into the root and returns a function that stops it.
import { loadSession } from './session';
import { gameScreen } from './screens/game';
import { lobbyScreen } from './screens/lobby';
import { signUpScreen } from './screens/signup';

let stop: (() => void) | null = null;

export function route(root: HTMLElement): void {
  stop?.();
  stop = null;
  const session = loadSession();
  const m = /^#\/game\/([^/]+)$/.exec(location.hash);
  if (!session) signUpScreen(root, m ? location.hash : '#/');
  else if (m) stop = gameScreen(root, decodeURIComponent(m[1]));
  else stop = lobbyScreen(root);
}
