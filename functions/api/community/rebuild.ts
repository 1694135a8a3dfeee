// Rebuilding every rating from the finished games (`npm run ratings:rebuild`): after a change of
// the rating rules, or to repair. Reads the FINISHED games from the status index, forgets each
// rated game's marker and its players' rating items, then rates the games again one by one in
// the order they ended (the same rateGame as at a game's end). Run it while no game ends (a game
// ending during the run is rated by its end and may be counted before older ones).
import type { GameDoc } from '../doc.js';
import type { GameRecord, Store } from '../../store/index.js';
import { rateGame, ratedPlayers } from './ratings.js';

const PAGE = 100;

/** Rebuilds all ratings; returns how many games were rated and how many players. */
export async function rebuildRatings(store: Store): Promise<{ games: number; players: number }> {
  const rated: GameRecord<GameDoc>[] = [];
  for (let before: string | null = null; ; ) {
    const page = await store.log.listGamesByStatus('FINISHED', PAGE, before);
    // A finished game's snapshot holds its end (written on the status change); later commits
    // (a rematch link) never change the ranking.
    const heads = await store.log.getGames<GameDoc>(page.ids, false);
    for (const h of heads) if (h.game && ratedPlayers(h.game)) rated.push(h.game);
    if (!page.cursor) break;
    before = page.cursor;
  }
  rated.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id.localeCompare(b.id));
  const players = new Set<string>();
  for (const r of rated) {
    await store.community.deleteRatedGame(r.id);
    for (const p of ratedPlayers(r)!) {
      if (!players.has(`${p}#${r.doc.edition}`)) await store.community.deleteRating(p, r.doc.edition);
      players.add(`${p}#${r.doc.edition}`);
    }
  }
  for (const r of rated) await rateGame({ store }, r);
  return { games: rated.length, players: new Set([...players].map((k) => k.split('#')[0])).size };
}
