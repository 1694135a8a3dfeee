// gameUpdated: the game as the subscriber may see it, now and after each commit to it (signals
// from the in-process GameChanges; bursts of commits are coalesced into one fresh read).
import { canWatch } from '../view/access.js';
import { loadOrNotFound } from '../play/commit.js';
import { type ApiContext, optionalPlayer } from '../context.js';
import { type RenderedGame, renderGame } from '../view/render.js';

export async function gameUpdated(
  _p: unknown,
  { gameId }: { gameId: string },
  ctx: ApiContext,
): Promise<AsyncIterableIterator<RenderedGame>> {
  const viewer = optionalPlayer(ctx);
  const load = async () => {
    const rec = await loadOrNotFound(ctx.services, gameId);
    canWatch(rec, viewer);
    return renderGame(rec, viewer?.id ?? null);
  };
  let dirty = false;
  let done = false;
  let wake: (() => void) | null = null;
  const unsubscribe = ctx.services.changes.subscribe(gameId, () => {
    dirty = true;
    wake?.();
  });
  let first: RenderedGame | undefined;
  try {
    first = await load(); // NOT_FOUND / FORBIDDEN refuse the subscription itself
  } catch (e) {
    unsubscribe();
    throw e;
  }
  const finished = { done: true as const, value: undefined };
  const it: AsyncIterableIterator<RenderedGame> = {
    [Symbol.asyncIterator]: () => it,
    async next() {
      if (first !== undefined) {
        const value = first;
        first = undefined;
        return { done: false, value };
      }
      if (!dirty && !done) await new Promise<void>((r) => (wake = r));
      wake = null;
      if (done) return finished;
      dirty = false;
      return { done: false, value: await load() };
    },
    async return() {
      done = true;
      unsubscribe();
      wake?.();
      return finished;
    },
  };
  return it;
}
