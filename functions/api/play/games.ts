// What each API call does to a game: thin steps around the engine (rules) and the store
// (items). Resolvers and the REST routes call these; nothing here knows about HTTP.
import { createHash, randomUUID } from 'node:crypto';
import {
  createGame as engineCreateGame,
  type Command,
  CURRENT_RNG_VERSION,
  type GameEvent,
  viewEvent,
} from '../../engine/index.js';
import type { GameStatus } from '../../store/index.js';
import type { Player } from '../accounts/auth.js';
import { commitChange, foldHead, type GameRec, insertNewGame, loadGames, loadOrNotFound } from './commit.js';
import { cachedLobby } from '../lobby/lobby-cache.js';
import { noteRequest } from '../http/telemetry.js';
import type { CreateGameInput, MutationStartGameArgs } from '../schema.types.generated.js';
import type { Services } from '../services.js';
import { canWatch } from '../view/access.js';
import {
  BOT_NAMES,
  countChoiceChange,
  DEFAULT_TIMEOUTS_BEFORE_BOT,
  engineOptions,
  freeSeatFor,
  gameCreated,
  type GameDoc,
  isFull,
  play,
  playerJoined,
  seatOf,
} from '../doc.js';
import { lower } from '../enums.js';
import { ApiError, fromEngine } from '../errors.js';
import { drawSeed } from '../lobby/seeds.js';
import { BOUNDS, rateLimited } from '../http/ratelimit.js';
import { holdLobby, releaseLobby, reserveLobby, settleLobby } from '../lobby/lobbies.js';
import {
  admitJoin,
  DEFAULT_DECISION_TIME_LIMIT_HOURS,
  refuseRemoved,
  releaseJoin,
  type SeatingDeps,
} from '../lobby/joined.js';
import { describeEvent, namesOf } from '../view/words.js';

const bad = (m: string): never => {
  throw new ApiError('BAD_USER_INPUT', m);
};

/**
 * Lobby integrity: at most BOUNDS.openLobbiesPerPlayer open lobbies created by one player
 * (LIMIT_EXCEEDED; one conditional update of the player item, exact under concurrent creations:
 * lobbies.ts), and BOUNDS.gamesCreatedPerHour creations per hour counted on the player item
 * (RATE_LIMITED): one account cannot fill the open lobby. Takes the lobby's place (give it back
 * with releaseLobby if the game is not created).
 */
async function admitCreation(services: Services, player: Player, createdAt: string, gameId: string): Promise<void> {
  await reserveLobby(services, player.id, createdAt, gameId);
  if (!services.limiters.itemRates) return;
  const now = services.now();
  const hour = now.toISOString().slice(0, 13);
  if (!(await services.store.players.countOnPlayer(player.id, 'created', hour, BOUNDS.gamesCreatedPerHour))) {
    await releaseLobby(services, player.id, createdAt, gameId);
    const next = Date.parse(`${hour}:00:00.000Z`) + 3600_000;
    throw rateLimited(`games created: at most ${BOUNDS.gamesCreatedPerHour} per hour`, next - now.getTime());
  }
}

/** A UUID-shaped game id derived from its creator and the creation's requestId (1-64 characters). */
function requestedGameId(playerId: string, requestId: string): string {
  if (requestId.length < 1 || requestId.length > 64) bad('a requestId has 1-64 characters');
  const h = createHash('sha256').update(`createGame\n${playerId}\n${requestId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A new game's options, checked and with their defaults. */
type NewOptions = Required<
  Pick<
    GameDoc,
    'edition' | 'board' | 'decisionTimeLimitHours' | 'seed' | 'spectators' | 'timeoutsBeforeBot' | 'botKind'
  >
> & {
  seats: number;
  bots: number;
  /** The seed was the caller's (public at once), not drawn. */
  chosen: boolean;
};

/** The options of `input` checked (BAD_USER_INPUT; the engine's refusal as its error) and completed with their defaults. */
function checkOptions(input: CreateGameInput): NewOptions {
  const edition = lower(input.edition);
  const seats = input.seats;
  const bots = input.bots ?? 0;
  if (!Number.isInteger(seats) || seats < 2 || seats > 6) bad('seats is 2-6');
  if (!Number.isInteger(bots) || bots < 0 || bots > seats - 1) bad(`bots is 0-${seats - 1} (seat 0 is yours)`);
  // Every game has a clock: a silent seat is played by the sweep (then a bot) instead of waiting forever.
  const limit = input.decisionTimeLimitHours ?? DEFAULT_DECISION_TIME_LIMIT_HOURS;
  if (!Number.isInteger(limit) || limit < 1 || limit > 720) bad('decisionTimeLimitHours is 1-720');
  const chosen = input.seed !== undefined && input.seed !== null;
  if (chosen && (input.seed!.length < 1 || input.seed!.length > 200)) bad('a seed has 1-200 characters');
  const seed = chosen ? input.seed! : drawSeed();
  // The option as asked (kept for replays and rematches); the engine decides what it means.
  const board = input.board ? lower(input.board) : null;
  const timeoutsBeforeBot = input.timeoutsBeforeBot ?? DEFAULT_TIMEOUTS_BEFORE_BOT;
  if (!Number.isInteger(timeoutsBeforeBot) || timeoutsBeforeBot < 1 || timeoutsBeforeBot > 100)
    bad('timeoutsBeforeBot is 1-100');
  try {
    // The options are checked by the engine on a table with an empty (public) seed, thrown
    // away: the game's own deal is made at the start (startGame), so the lobby holds none.
    engineCreateGame({ edition, players: seats, seed: '', ...(board ? { board } : {}) });
  } catch (e) {
    throw fromEngine(e);
  }
  const spectators = input.spectators ?? true;
  const botKind = lower(input.botKind ?? 'GREEDY');
  return {
    edition,
    board,
    seats,
    bots,
    decisionTimeLimitHours: limit,
    seed,
    chosen,
    spectators,
    timeoutsBeforeBot,
    botKind,
  };
}

/** A new lobby's document: the creator in seat 0, the last `bots` seats bots, the others free. */
function newDoc(player: Player, o: NewOptions): GameDoc {
  return {
    edition: o.edition,
    board: o.board,
    creatorId: player.id,
    seats: Array.from({ length: o.seats }, (_, i) => {
      if (i === 0) return { playerId: player.id, name: player.name, bot: null };
      if (i >= o.seats - o.bots) return { playerId: null, name: BOT_NAMES[i], bot: o.botKind };
      return { playerId: null, name: null, bot: null };
    }),
    decisionTimeLimitHours: o.decisionTimeLimitHours,
    seed: o.seed,
    rngVersion: CURRENT_RNG_VERSION,
    pending: {},
    spectators: o.spectators,
    timeoutsBeforeBot: o.timeoutsBeforeBot,
    timeouts: {},
    botKind: o.botKind,
    ...(o.chosen ? { seedChosenBy: { playerId: player.id, name: player.name } } : {}),
  };
}

export async function createGame(services: Services, player: Player, input: CreateGameInput): Promise<GameRec> {
  const options = checkOptions(input);
  // With a requestId the game's id is derived from the caller and the request: a retry (the
  // answer was lost) finds the game the first attempt created instead of creating a second one.
  const id = input.requestId ? requestedGameId(player.id, input.requestId) : randomUUID();
  const created = input.requestId ? await loadGames(services, [id]) : [];
  if (created[0]) return created[0];
  const now = services.now().toISOString();
  await admitCreation(services, player, now, id);
  const doc = newDoc(player, options);
  try {
    // Index first: the index may name a game the player is not in (filtered), never miss one.
    await services.store.members.putMember(id, player.id, now);
    const rec = await insertNewGame(
      services,
      id,
      doc,
      [gameCreated(doc), playerJoined(0, player.id, player.name)],
      now,
    );
    if (rec) return rec;
    // A concurrent retry of the same request created it first: that game is the answer.
    const won = input.requestId ? (await loadGames(services, [id]))[0] : null;
    if (won) return won;
    throw new Error('game id collision');
  } catch (e) {
    await releaseLobby(services, player.id, now, id).catch(() => {}); // else the check of a full set drops it later
    throw e;
  }
}

const lobbyOnly = (rec: GameRec, what: string) => {
  if (rec.status !== 'LOBBY') throw new ApiError('WRONG_PHASE', `cannot ${what}: the game has started`);
};

/** What the joined-lobby cap (lobby/joined.ts) needs of the services. */
const seating = (services: Services): SeatingDeps => ({
  store: services.store,
  now: services.now,
  load: (ids) => loadGames(services, ids),
});

export async function joinGame(services: Services, player: Player, gameId: string): Promise<GameRec> {
  const before = await loadOrNotFound(services, gameId);
  if (seatOf(before.doc, player.id) !== null) throw new ApiError('CONFLICT', 'you already sit in this game');
  lobbyOnly(before, 'join');
  refuseRemoved(before.doc, player.id);
  // The joined-lobby cap (seating.ts); the creator's own lobbies are capped apart (lobbies.ts).
  await admitJoin(seating(services), player.id, gameId);
  await services.store.members.putMember(gameId, player.id, before.createdAt);
  try {
    return await commitChange(services, gameId, {
      apply: (doc, rec) => {
        lobbyOnly(rec, 'join');
        refuseRemoved(doc, player.id);
        if (seatOf(doc, player.id) !== null) throw new ApiError('CONFLICT', 'you already sit in this game');
        const seat = freeSeatFor(doc, player.id);
        if (seat === null) throw new ApiError('CONFLICT', 'the game is full');
        doc.seats[seat] = { playerId: player.id, name: player.name, bot: null };
        return [playerJoined(seat, player.id, player.name)];
      },
    });
  } catch (e) {
    const now = await loadOrNotFound(services, gameId).catch(() => null);
    if (now && seatOf(now.doc, player.id) === null) {
      await services.store.members.deleteMember(gameId, player.id);
      await releaseJoin(seating(services), player.id, gameId);
    }
    throw e;
  }
}

export async function leaveGame(services: Services, player: Player, gameId: string): Promise<GameRec> {
  let cancelled = false;
  let handedTo: string | null = null;
  const rec = await commitChange(services, gameId, {
    apply: (doc, r) => {
      const seat = seatOf(doc, player.id);
      if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this game');
      lobbyOnly(r, 'leave');
      doc.seats[seat] = { playerId: null, name: null, bot: null };
      const events: GameEvent[] = [{ type: 'playerLeft', data: { seat, playerId: player.id } }];
      if (doc.creatorId === player.id) {
        // The next seated player may start the game; with nobody left the lobby is cancelled.
        const heir = doc.seats.find((s) => s.playerId !== null);
        if (heir) {
          doc.creatorId = heir.playerId!;
          handedTo = heir.playerId!;
          events.push({ type: 'creatorChanged', data: { playerId: heir.playerId, name: heir.name } });
        } else {
          cancelled = true;
          events.push({ type: 'gameCancelled', data: {} });
        }
      }
      return events;
    },
    status: (_doc, r) => (cancelled ? 'CANCELLED' : r.status),
  });
  await services.store.members.deleteMember(gameId, player.id);
  await releaseJoin(seating(services), player.id, gameId);
  // The lobby is no longer the leaver's (cancelled, or handed on: the heir holds it, uncapped).
  if (handedTo && rec.status === 'LOBBY' && rec.doc.creatorId === handedTo)
    await holdLobby(services, handedTo, rec.createdAt, rec.id);
  if (handedTo || cancelled) await settleLobby(services, rec, player.id);
  return rec;
}

/** startGame's options: the mutation's arguments but the game. */
export type StartOptions = Omit<MutationStartGameArgs, 'gameId'>;

export async function startGame(
  services: Services,
  player: Player,
  gameId: string,
  opts: StartOptions = {},
): Promise<GameRec> {
  const rec = await commitChange(services, gameId, {
    apply: (doc, rec) => {
      if (doc.creatorId !== player.id) throw new ApiError('FORBIDDEN', 'only the creator starts the game');
      lobbyOnly(rec, 'start');
      const events: GameEvent[] = [];
      const free = doc.seats.flatMap((s, i) => (s.playerId === null && s.bot === null ? [i] : []));
      if (free.length > 0 && !opts.fillWithBots) {
        throw new ApiError(
          'WRONG_PHASE',
          `seats ${free.join(', ')} are still free (join them, or start with fillWithBots)`,
        );
      }
      const kind = (opts.botKind ? lower(opts.botKind) : null) ?? doc.botKind ?? 'greedy';
      for (const seat of free) {
        doc.seats[seat] = { playerId: null, name: BOT_NAMES[seat], bot: kind };
        events.push({ type: 'botSeated', data: { seat, name: BOT_NAMES[seat], bot: kind } });
      }
      if (!isFull(doc)) throw new Error('a free seat is left after filling');
      // The deal is made now, not in the lobby: until this commit no state existed to look at.
      // A lobby stored by an earlier version (its deal made, and shown, at creation) starts
      // with the current derivation instead, so that deal is not the game's.
      doc.rngVersion ??= CURRENT_RNG_VERSION;
      const setup: GameEvent[] = [];
      const g = (doc.state = engineCreateGame(engineOptions(doc), setup));
      events.push({
        type: 'gameStarted',
        data: {
          players: g.players,
          names: doc.seats.map((s) => s.name),
          round: g.round,
          day: g.day,
          loot: g.days[0] ?? [],
        },
      });
      doc.startSeq = rec.lastSeq + events.length;
      return [...events, ...setup];
    },
    status: () => 'ACTIVE',
  });
  await settleLobby(services, rec, player.id);
  return rec;
}

/**
 * Per-game bounds kept on the game item (written by the command anyway): commands per game
 * (LIMIT_EXCEEDED) and per seat per minute (RATE_LIMITED). A refused command writes nothing.
 */
function countCommand(services: Services, doc: GameDoc, seat: number): void {
  const n = doc.commands ?? 0;
  if (n >= BOUNDS.commandsPerGame) {
    throw new ApiError('LIMIT_EXCEEDED', `commands per game limit: at most ${BOUNDS.commandsPerGame}`, {
      limit: { name: 'commandsPerGame', max: BOUNDS.commandsPerGame },
    });
  }
  doc.commands = n + 1;
  if (!services.limiters.itemRates) return;
  const ms = services.now().getTime();
  const minute = Math.floor(ms / 60_000);
  const rate = (doc.commandRate ??= {});
  const cur = rate[seat]?.m === minute ? rate[seat] : { m: minute, n: 0 };
  if (cur.n >= BOUNDS.commandsPerSeatPerMinute)
    throw rateLimited(
      `commands: at most ${BOUNDS.commandsPerSeatPerMinute} per seat per minute`,
      (minute + 1) * 60_000 - ms,
    );
  rate[seat] = { m: minute, n: cur.n + 1 };
}

/** A seated player's command: a card choice or a prompt answer. */
export async function command(
  services: Services,
  player: Player,
  gameId: string,
  make: (seat: number, doc: GameDoc) => Command,
  fingerprint: string,
  requestId?: string | null,
  /** Runs after the command was applied (concede.ts: the seat goes to a bot). */
  after?: (doc: GameDoc, seat: number) => void,
  ifVersion?: number | null,
): Promise<GameRec> {
  if (requestId !== undefined && requestId !== null && (requestId.length < 1 || requestId.length > 100))
    bad('a requestId has 1-100 characters');
  const idem = requestId ? { scope: player.id, requestId, fingerprint } : undefined;
  return commitChange(
    services,
    gameId,
    {
      apply: (doc, rec) => {
        // A conditional move decided on an older view: refused before anything else, state
        // unchanged (a retry of an applied request is answered from its commit, see commitOnce).
        if (ifVersion != null && rec.version !== ifVersion)
          throw new ApiError(
            'STALE',
            `the game moved on: it is at version ${rec.version}, the move was made on version ${ifVersion}; read it again`,
            { version: rec.version, lastSeq: rec.lastSeq },
          );
        const seat = seatOf(doc, player.id);
        if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this game');
        if (rec.status === 'LOBBY') throw new ApiError('WRONG_PHASE', 'the game has not started');
        if (doc.seats[seat].bot !== null)
          throw new ApiError('FORBIDDEN', 'a bot plays your seat now (you conceded, or too many timeouts)');
        countCommand(services, doc, seat);
        const events: GameEvent[] = [];
        const cmd = make(seat, doc);
        countChoiceChange(doc, seat, cmd);
        play(doc, cmd, events, rec.lastSeq);
        if (doc.timeouts?.[seat]) doc.timeouts[seat] = 0; // the player is back: the count starts again
        after?.(doc, seat);
        return events;
      },
    },
    idem,
  );
}

export async function getGame(services: Services, gameId: string): Promise<GameRec | null> {
  noteRequest({ gameId });
  const head = await services.store.log.loadGame<GameDoc>(gameId);
  return head ? foldHead(services, gameId, head).rec : null;
}

export async function myGames(services: Services, player: Player, status: GameStatus | null): Promise<GameRec[]> {
  const ids = await services.store.members.listMemberGameIds(player.id, 100);
  // A list: eventually consistent reads (half the units), never the base of a write.
  const recs = await loadGames(services, ids, false);
  return recs
    .filter((r) => seatOf(r.doc, player.id) !== null && (!status || r.status === status))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Whether a game belongs in the open lobby: a public LOBBY with a seat anyone may take. */
export const listedInLobby = (r: GameRec): boolean =>
  r.status === 'LOBBY' && r.doc.spectators !== false && freeSeatFor(r.doc, null) !== null;

export async function openGames(services: Services): Promise<GameRec[]> {
  // The same for every caller: cached per instance for a few seconds (lobby-cache.ts).
  return cachedLobby(services.store, 'openGames', async () => {
    const { ids } = await services.store.log.listGamesByStatus('LOBBY', 50);
    const recs = await loadGames(services, ids, false);
    return recs.filter(listedInLobby).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  });
}

export const MAX_EVENTS_PAGE = 100;

/** A page of the log as `player` (null: a spectator) may see it. */
export async function events(
  services: Services,
  player: Player | null,
  gameId: string,
  after: number | null | undefined,
  limit: number | null | undefined,
) {
  const from = after ?? 0;
  const size = limit ?? 50;
  if (!Number.isInteger(from) || from < 0) bad('after is a seq, 0 or more');
  if (!Number.isInteger(size) || size < 1 || size > MAX_EVENTS_PAGE) bad(`limit is 1-${MAX_EVENTS_PAGE}`);
  const rec = await loadOrNotFound(services, gameId);
  const seat = seatOf(rec.doc, player?.id);
  canWatch(rec, player);
  const page = await services.store.log.listEvents(gameId, from, size);
  const names = namesOf(rec.doc, seat);
  return {
    events: page.events.map((e) => {
      const seen = viewEvent(e, seat);
      return { seq: e.seq, at: e.at, ...seen, text: describeEvent(seen, names), actor: e.actor ?? null };
    }),
    hasMore: page.hasMore,
  };
}
