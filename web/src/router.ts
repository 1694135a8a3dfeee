// Hash routes: #/ (the lobby, or sign-up without a session), #/game/<id> (the table),
// #/leaderboard and #/profile/<playerId>.
// Each screen draws into the root and returns a function that stops it.
import { loadSession } from './session';
import { gameScreen } from './screens/game';
import { leaderboardScreen } from './screens/leaderboard';
import { lobbyScreen } from './screens/lobby';
import { profileScreen } from './screens/profile';
import { signUpScreen } from './screens/signup';

let stop: (() => void) | null = null;

export function route(root: HTMLElement): void {
  stop?.();
  stop = null;
  const session = loadSession();
  const m = /^#\/game\/([^/]+)$/.exec(location.hash);
  if (!session) signUpScreen(root, m ? location.hash : '#/');
  else if (m) stop = gameScreen(root, decodeURIComponent(m[1]));
  else if (location.hash === '#/leaderboard') stop = leaderboardScreen(root);
  else if (/^#\/profile\/[^/]+$/.test(location.hash))
    stop = profileScreen(root, decodeURIComponent(location.hash.slice(10)));
  else stop = lobbyScreen(root);
}
