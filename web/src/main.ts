// The reference play-by-web client: sign up, lobby, game table, replay (see router.ts).
import './style.css';
import { initAuth } from './auth';
import { loadCards } from './cards';
import { route } from './router';

const root = document.getElementById('app')!;
window.addEventListener('hashchange', () => route(root));
// Card names come from the API; draw anyway if it cannot be reached (ranks still show).
// Sign-in first (a provider may just have sent the browser back with a code).
void initAuth().finally(() => loadCards().finally(() => route(root)));
