// The sweep: visits active games (and finished ones whose last events are not copied yet),
// finishing what an interrupted request left undone: the outbox copy (done by loading) and
// bot moves. Deadline moves come with the correspondence features (issue 6).
import { awaitedBot } from './bots.js';
import { continueBots } from './commit.js';
import type { Services } from './context.js';
import type { GameDoc } from './doc.js';

/** Games visited per run; the index lists the newest first. */
const SWEEP_LIMIT = 1000;

export async function sweep(services: Services): Promise<{ gamesChecked: number; advanced: number }> {
  const ids = await services.store.listGameIdsByStatus('ACTIVE', SWEEP_LIMIT);
  let advanced = 0;
  for (const id of ids) {
    try {
      const rec = await services.store.loadGame<GameDoc>(id);
      if (rec && rec.status === 'ACTIVE' && awaitedBot(rec.doc) !== undefined && (await continueBots(services, rec)) > 0) advanced++;
    } catch (e) {
      // One broken game must not stop the sweep of the others.
      console.error('sweep failed for game', id, e);
    }
  }
  return { gamesChecked: ids.length, advanced };
}
