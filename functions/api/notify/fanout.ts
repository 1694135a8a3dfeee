// The fan-out: "game X is at version V", with the game as each connection's player may see it,
// to every connection subscribed to X. A move never waits for it:
// - the commit's push listener (registered by http/app.ts) only *schedules* it: `gameChanged`
//   returns at once (in process: the local server) or after handing one small message to the notice queue
//   (`queuedPusher`, AWS: SQS; the notice worker Lambda runs `deliver`). On Lambda, work left
//   running after the response is frozen with the instance, so "fire and forget" there would
//   mean "maybe never"; the queue hand-off is one SQS call whatever the subscribers do, bounded
//   by QUEUE_HANDOFF_MS, and the posts to API Gateway happen in the worker.
// - each game has at most one fan-out running; commits meanwhile are coalesced into one fan-out
//   of the latest version (a client needs the latest game, not every step).
// - a fan-out is bounded in time (PUSH_LIMITS.fanoutBudgetMs) and posts without waiting for
//   readers (the local gateway drops a socket that does not read; API Gateway buffers per
//   connection on its side).
// - access is checked at every push: a connection whose player may no longer see the game (a
//   private game they left) gets FORBIDDEN once and its subscription ends.
// A failure never fails the move: it is logged and counted, and clients still converge (their
// next fetch, or polling where push is not available).
//
// The view is rendered per audience with `pushView` (renderGame: the engine's one view filter,
// exactly what the `game` query answers that player), once per game version and audience.
import type { PushStore } from '../../store/index.js';
import { MAX_VIEW_BYTES, PUSH_LIMITS, type PushGateway, type PushMessage } from '../../push/protocol.js';
import type { GameRec } from '../doc.js';
import { count, logger, METRIC } from '../http/telemetry.js';
import { getGame } from '../play/games.js';
import type { NoticeMessage, NoticeQueue, Pusher, Services } from '../services.js';
import { canWatch } from '../view/access.js';
import { renderGame } from '../view/render.js';
import { chatView } from '../community/chat.js';

/** Closes the connections the push store lists for the player, and forgets them. */
async function closeAll(store: PushStore, gateway: PushGateway, playerId: string): Promise<void> {
  const ids = await store.connectionsOf(playerId);
  await Promise.all(
    ids.map(async (id) => {
      await gateway.close(id);
      await store.disconnect(id);
    }),
  );
}

/** Views rendered per game version (the record object) and audience ('' a spectator, else the player id). */
const views = new WeakMap<GameRec, Map<string, unknown>>();

/**
 * The game as `playerId` (null: a spectator) may see it, as plain JSON (the `game` query's
 * fields; fields computed on demand, such as `scenario` and `lootLegend`, are left out), or
 * undefined if it is too big for one message. Rendered once per record and audience.
 */
export function pushView(rec: GameRec, playerId: string | null): unknown {
  let byAudience = views.get(rec);
  if (!byAudience) views.set(rec, (byAudience = new Map()));
  const key = playerId ?? '';
  if (byAudience.has(key)) return byAudience.get(key);
  const json = JSON.stringify(renderGame(rec, playerId));
  const view = Buffer.byteLength(json) <= MAX_VIEW_BYTES ? (JSON.parse(json) as unknown) : undefined;
  byAudience.set(key, view);
  return view;
}

/** Posts in flight at once per fan-out. */
const PARALLEL = 16;

/** Games whose last pushed version this instance remembers (coalescing: an older version is never pushed after a newer one). */
const MAX_REMEMBERED = 10_000;

/** Resolves when `p` does or after `ms`, whichever is first ('late': abandoned, left to finish on its own). */
async function within(p: Promise<void>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((ok) => {
    timer = setTimeout(() => ok('late'), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([p.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One fan-out of `rec` to the game's subscribers, access checked for each. */
async function fanOut(store: PushStore, gateway: PushGateway, rec: GameRec): Promise<void> {
  const gameId = rec.id;
  const connections = await store.subscribers(gameId);
  if (connections.length === 0) return;
  const messages = new Map<string, PushMessage>();
  const messageFor = (playerId: string | null): PushMessage => {
    const key = playerId ?? '';
    let m = messages.get(key);
    if (!m) {
      try {
        canWatch(rec, playerId ? { id: playerId, name: '' } : null);
        const game = pushView(rec, playerId);
        m = { type: 'game', gameId, version: rec.version, status: rec.status, ...(game === undefined ? {} : { game }) };
      } catch {
        m = {
          type: 'error',
          code: 'FORBIDDEN',
          message: 'this game is private: only its players may look at it (subscription ended)',
          gameId,
        };
      }
      messages.set(key, m);
    }
    return m;
  };
  let sent = 0;
  let gone = 0;
  for (let i = 0; i < connections.length; i += PARALLEL) {
    await Promise.all(
      connections.slice(i, i + PARALLEL).map(async ({ connectionId, playerId }) => {
        const m = messageFor(playerId);
        const r = await gateway.post(connectionId, m);
        if (r === 'gone') gone++;
        else sent++;
        if (r === 'gone' || m.type === 'error') await store.forget(gameId, connectionId);
      }),
    );
  }
  count(METRIC.pushSent, sent);
  if (gone > 0) count(METRIC.pushGone, gone);
}

/**
 * One chat message (posted or hidden) to the game's subscribers: only those who may watch the
 * game (the same check as a game push), never to one who muted its author. The message is the
 * ChatMessage each would read (chat.ts chatView): nothing about the game is added.
 */
async function fanOutChat(services: Services, store: PushStore, gateway: PushGateway, gameId: string, seq: number) {
  const [connections, rec, m] = await Promise.all([
    store.subscribers(gameId),
    getGame(services, gameId),
    services.store.chat.getChat(gameId, seq),
  ]);
  if (!rec || !m || connections.length === 0) return;
  const muted = new Map<string, Promise<boolean>>();
  const mutes = (playerId: string) => {
    let p = muted.get(playerId);
    if (!p) {
      p = services.store.players.listPlayerSet(playerId, 'mutedPlayers').then((ids) => ids.includes(m.authorId));
      muted.set(playerId, p);
    }
    return p;
  };
  let sent = 0;
  for (let i = 0; i < connections.length; i += PARALLEL) {
    await Promise.all(
      connections.slice(i, i + PARALLEL).map(async ({ connectionId, playerId }) => {
        try {
          canWatch(rec, playerId ? { id: playerId, name: '' } : null);
        } catch {
          return; // the game push tells it FORBIDDEN and ends the subscription
        }
        if (playerId && (await mutes(playerId))) return;
        const message = chatView(m, playerId, playerId !== null && playerId === rec.doc.creatorId);
        if ((await gateway.post(connectionId, { type: 'chat', gameId, message })) === 'ok') sent++;
      }),
    );
  }
  count(METRIC.pushSent, sent);
}

/** Chat pushes, bounded in time like a game fan-out; a failure is logged (readers catch up with the cursor). */
function chatPusher(services: Services, store: PushStore, gateway: PushGateway) {
  return async (gameId: string, seq: number): Promise<void> => {
    const done = fanOutChat(services, store, gateway, gameId, seq).catch((e) =>
      logger.error('chat push failed', { gameId, seq, error: e as Error }),
    );
    if ((await within(done, PUSH_LIMITS.fanoutBudgetMs)) === 'late')
      logger.warn('chat push over its time budget: abandoned', { gameId, seq });
  };
}

/**
 * The fan-out scheduler: per game at most one fan-out at a time, later versions coalesced into
 * the next one; `rec` given (in process) or loaded (the worker).
 */
function scheduler(services: Services, store: PushStore, gateway: PushGateway) {
  const running = new Map<string, { next: { version: number; rec?: GameRec } | null; done: Promise<void> }>();
  const pushed = new Map<string, number>();
  const remember = (gameId: string, version: number) => {
    pushed.delete(gameId);
    if (pushed.size >= MAX_REMEMBERED) pushed.delete(pushed.keys().next().value!);
    pushed.set(gameId, version);
  };
  const once = async (gameId: string, job: { version: number; rec?: GameRec }) => {
    const rec = job.rec ?? (await getGame(services, gameId));
    if (!rec || rec.version <= (pushed.get(gameId) ?? 0)) return;
    remember(gameId, rec.version);
    const r = await within(fanOut(store, gateway, rec), PUSH_LIMITS.fanoutBudgetMs);
    if (r === 'late') logger.warn('push fan-out over its time budget: abandoned', { gameId, version: rec.version });
  };
  return (gameId: string, version: number, rec?: GameRec): Promise<void> => {
    const slot = running.get(gameId);
    if (slot) {
      if (!slot.next || version > slot.next.version) slot.next = { version, rec };
      return slot.done;
    }
    const s: { next: { version: number; rec?: GameRec } | null; done: Promise<void> } = {
      next: { version, rec },
      done: Promise.resolve(),
    };
    running.set(gameId, s);
    s.done = (async () => {
      try {
        while (s.next) {
          const job = s.next;
          s.next = null;
          await once(gameId, job).catch((e) =>
            logger.error('push fan-out failed', { gameId, version: job.version, error: e as Error }),
          );
        }
      } finally {
        running.delete(gameId);
      }
    })();
    return s.done;
  };
}

/** The fan-out in this process (the local server): scheduled by the commit, never awaited by it. */
export function createFanout(services: Services, store: PushStore, gateway: PushGateway): Pusher {
  const schedule = scheduler(services, store, gateway);
  const chat = chatPusher(services, store, gateway);
  return {
    async gameChanged(gameId, version, _status, rec) {
      // After the answer: the fan-out's store calls start on the next turn of the event loop,
      // once the move's own answer is written, not interleaved with it.
      setImmediate(() => void schedule(gameId, version, rec));
    },
    deliver: (gameId, version) => schedule(gameId, version),
    endSessions: (playerId) => closeAll(store, gateway, playerId),
    async chatChanged(gameId, seq) {
      void chat(gameId, seq);
    },
    deliverChat: (gameId, seq) => chat(gameId, seq),
  };
}

/** How long a commit waits for the queue to take a push (then it is logged and dropped: clients converge on their next fetch). */
export const QUEUE_HANDOFF_MS = 1000;

/** Hands a push message to the queue; a failure, or a queue slower than QUEUE_HANDOFF_MS, is logged, never thrown. */
async function handOff(queue: NoticeQueue, what: string, message: NoticeMessage & { type: 'push' | 'chat' }) {
  const { type: _, ...fields } = message;
  const handed = queue
    .send([message])
    .catch((e) => logger.error(`${what} hand-off failed`, { ...fields, error: e as Error }));
  if ((await within(handed, QUEUE_HANDOFF_MS)) === 'late') logger.warn(`${what} hand-off over its time budget`, fields);
}

/**
 * The fan-out through the notice queue (AWS): the commit hands `{ type: 'push', gameId,
 * version }` to SQS; the notice worker Lambda runs `deliver` (the scheduler above, loading the
 * latest version).
 */
export function queuedPusher(services: Services, queue: NoticeQueue, store: PushStore, gateway?: PushGateway): Pusher {
  // Without a gateway (the sweep) this only hands versions to the queue; the worker posts them.
  const noGateway = () => Promise.reject(new Error('this function has no push gateway (PUSH_ENDPOINT)'));
  const schedule = gateway ? scheduler(services, store, gateway) : noGateway;
  const chat = gateway ? chatPusher(services, store, gateway) : noGateway;
  return {
    chatChanged: (gameId, seq) => handOff(queue, 'chat push', { type: 'chat', gameId, seq }),
    deliverChat: (gameId, seq) => chat(gameId, seq),
    gameChanged: (gameId, version) => handOff(queue, 'push', { type: 'push', gameId, version }),
    deliver: (gameId, version) => schedule(gameId, version),
    endSessions: (playerId) => (gateway ? closeAll(store, gateway, playerId) : noGateway()),
  };
}
