// The open lobby, cached briefly per instance: `openGames` and `openGamesPage` answer the same
// games to every caller, and the web client's lobby polls, so each instance reads the lobby
// from the store at most once per LOBBY_CACHE_MS per page asked for (each read is eight index
// queries and a batch of up to 51 game items).
//
// What is cached is the list of game records that passed `listedInLobby` (public LOBBY games
// with a free seat): never a private or full game, and never a rendered answer, so each caller's
// view (`me`, names) is still rendered for that caller from the record. A change to a lobby
// committed on this instance (create, join, leave, start, cancel) empties the cache at once;
// another instance's change shows here within LOBBY_CACHE_MS (a join of a game that filled up
// meanwhile is refused with an error, as before).
import type { Store } from '../../store/index.js';
import type { GameRec } from '../doc.js';

/** How long an instance answers the open lobby from memory. */
export const LOBBY_CACHE_MS = 5_000;
/** Pages kept per instance (cursors are caller-chosen: the memory stays bounded). */
const MAX_PAGES = 32;

interface Entry {
  at: number;
  /** The cache's generation when the read started: a change since makes it stale. */
  gen: number;
  value: Promise<unknown>;
}

interface Cache {
  gen: number;
  pages: Map<string, Entry>;
}

/** One cache per store (that is, per app instance). */
const caches = new WeakMap<Store, Cache>();

const clock = () => performance.now();

/**
 * The cached value of `key` (`read` runs at most once per LOBBY_CACHE_MS per key; callers that
 * arrive while it runs share it; a failed read is not kept).
 */
export function cachedLobby<T extends { games: GameRec[] } | GameRec[]>(
  store: Store,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = { gen: 0, pages: new Map() }));
  const { pages } = cache;
  const hit = pages.get(key);
  const now = clock();
  if (hit && hit.gen === cache.gen && now - hit.at < LOBBY_CACHE_MS) return hit.value as Promise<T>;
  const value = read();
  pages.delete(key);
  pages.set(key, { at: now, gen: cache.gen, value });
  if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
  value.catch(() => {
    if (pages.get(key)?.value === value) pages.delete(key);
  });
  return value;
}

/**
 * Forgets the cached lobby of this instance (a lobby changed here, after its snapshot was
 * written): reads that started before it are not kept either.
 */
export function lobbyChanged(store: Store): void {
  const cache = caches.get(store);
  if (!cache) return;
  cache.gen++;
  cache.pages.clear();
}
