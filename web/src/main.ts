// The reference play-by-web client: sign up, lobby, game table, replay (see router.ts).
import './style.css';
import { loadCards } from './cards';
import { route } from './router';

const root = document.getElementById('app')!;
window.addEventListener('hashchange', () => route(root));
// Card names come from the API; draw anyway if it cannot be reached (ranks still show).
void loadCards().finally(() => route(root));
