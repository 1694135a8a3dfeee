// Game chat with moderation (docs/community.md). Who may do what:
// - seated players post (spectators read: a crowd could use up the game's cap and drown it);
// - whoever may watch the game reads, with a cursor (the message number), oldest first, minus the
//   messages of players they muted (a per-player list kept on their player item, every game);
// - the game's moderator (its creator, or the site whose user created it, with a client token)
//   hides messages (kept, marked hidden, text gone for everyone) and silences players in this
//   game's chat (their posts answer CHAT_SILENCED);
// - anyone who may read reports a message, once per message.
// A message holds what its author wrote, their id and name, and when: the server adds nothing
// about the game, so nothing hidden can leak through it. Every list a caller can grow is bounded.
import type { ChatRecord, PlayerRecord } from '../../store/index.js';
import type { Player } from '../accounts/auth.js';
import { seatOf } from '../doc.js';
import { ApiError } from '../errors.js';
import { rateLimited } from '../http/ratelimit.js';
import { isOver, loadOrNotFound, type GameRec } from '../play/commit.js';
import { expiryOf } from '../ops/retention.js';
import type { Services } from '../services.js';
import { canWatch } from '../view/access.js';

/** The chat's bounds (docs/community.md, "Limits"). */
export const CHAT_LIMITS = {
  /** Characters of a message, once normalised. */
  bodyMax: 280,
  /** Characters of a report's reason. */
  reasonMax: 200,
  /** Messages a game's chat holds; the next post answers LIMIT_EXCEEDED. */
  messagesPerGame: 1000,
  /** Messages one player may post per minute (all games together). */
  perMinute: 10,
  /** Reports one message keeps (one per reporter). */
  reportsPerMessage: 20,
  /** Players one player may mute. */
  mutedPerPlayer: 200,
  /** Players a game's moderator may silence in its chat. */
  silencedPerGame: 50,
  /** Messages per page. */
  pageMax: 100,
} as const;

/** The player item's set of muted players. */
const MUTED_SET = 'mutedPlayers';

const bad = (message: string, details?: Record<string, unknown>): never => {
  throw new ApiError('BAD_USER_INPUT', message, details);
};

// Control, surrogate, private-use, unassigned, line/paragraph separators, and format characters
// other than the zero-width joiner (emoji sequences need it): bidi overrides, zero-width spaces.
const REFUSED = /[\p{Cc}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]|(?!\u200d)\p{Cf}/u;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The stored form of a chat text (the same normal form as names), or BAD_USER_INPUT saying why. */
export function normaliseChatText(raw: string, max: number, min = 1, what = 'a message'): string {
  const nfc = raw.normalize('NFC');
  if (REFUSED.test(nfc)) bad(`${what} may not contain control, formatting (bidi, zero-width) or unassigned characters`);
  const text = nfc.replace(/\s+/gu, ' ').trim();
  // Characters as a reader counts them (an emoji sequence is one), and at most 4 code points
  // each on average, so stacked combining marks cannot grow an item.
  const length = [...graphemes.segment(text)].length;
  if (length < min || length > max || [...text].length > 4 * max)
    bad(`${what} has ${min}-${max} characters`, { limit: { name: 'chatMessageLength', max } });
  return text;
}

/** A message id (its number in the game's chat), or BAD_USER_INPUT. */
function messageNumber(id: string): number {
  if (!/^[1-9]\d{0,5}$/.test(id)) bad('messageId is the `id` of a chat message');
  return Number(id);
}

/** Who moderates a game's chat: its creator; with a client token, the site whose user created it. */
async function moderates(services: Services, rec: GameRec, player: Player | null, siteClientId: string | null) {
  if (player && rec.doc.creatorId === player.id) return true;
  if (!siteClientId) return false;
  const creator = await services.store.players.getPlayer(rec.doc.creatorId);
  return creator?.issuer === `site:${siteClientId}`;
}

/** A message as the caller sees it. */
export function chatView(m: ChatRecord, viewerId: string | null, moderator: boolean) {
  return {
    id: String(m.seq),
    authorId: m.authorId,
    authorName: m.authorName,
    text: m.hidden ? null : m.body,
    at: m.at,
    hidden: m.hidden === true,
    reports: moderator ? Object.keys(m.reports ?? {}).length : null,
    reportedByMe: viewerId !== null && m.reports?.[viewerId] !== undefined,
  };
}

const mutedBy = async (services: Services, playerId: string | null): Promise<string[]> =>
  playerId ? services.store.players.listPlayerSet(playerId, MUTED_SET) : [];

/** A page of the game's chat for the caller (see Query.chat). */
export async function chatPage(
  services: Services,
  viewer: Player | null,
  gameId: string,
  first: number | null | undefined,
  after: string | null | undefined,
) {
  const size = first ?? 50;
  if (!Number.isInteger(size) || size < 1 || size > CHAT_LIMITS.pageMax) bad(`first is 1-${CHAT_LIMITS.pageMax}`);
  if (after != null && !/^(0|[1-9]\d{0,5})$/.test(after)) bad("after is the previous page's pageInfo.endCursor");
  const from = after == null ? 0 : Number(after);
  const rec = await loadOrNotFound(services, gameId);
  canWatch(rec, viewer);
  const viewerId = viewer?.id ?? null;
  const [page, muted, silenced] = await Promise.all([
    services.store.chat.listChat(gameId, from, size),
    mutedBy(services, viewerId),
    services.store.chat.listSilenced(gameId),
  ]);
  const moderator = viewerId !== null && rec.doc.creatorId === viewerId;
  const last = page.items.length ? page.items[page.items.length - 1].seq : from;
  return {
    messages: page.items.filter((m) => !muted.includes(m.authorId)).map((m) => chatView(m, viewerId, moderator)),
    pageInfo: { hasNextPage: page.hasMore, endCursor: last > 0 ? String(last) : null },
    mutedPlayers: muted,
    silencedPlayers: silenced,
    moderator,
  };
}

/** Charges the author's chat rate (a windowed counter on the player item: every instance sees it). */
async function chargeRate(services: Services, playerId: string): Promise<void> {
  if (!services.limiters.itemRates) return;
  const now = services.now();
  const minute = now.toISOString().slice(0, 16);
  if (!(await services.store.players.countOnPlayer(playerId, 'chat', minute, CHAT_LIMITS.perMinute))) {
    const next = Date.parse(`${minute}:00.000Z`) + 60_000;
    const e = rateLimited(
      `chat messages: at most ${CHAT_LIMITS.perMinute} per minute`,
      next - now.getTime(),
      'chat:player',
    );
    e.extensions.limit = { name: 'chatMessagesPerMinute', max: CHAT_LIMITS.perMinute };
    throw e;
  }
}

/** A retry's message: the one this author wrote under this request since the claim. */
async function messageOfRequest(services: Services, gameId: string, after: number, req: string) {
  let from = after;
  for (;;) {
    const page = await services.store.chat.listChat(gameId, from, CHAT_LIMITS.pageMax);
    const found = page.items.find((m) => m.req === req);
    if (found || !page.hasMore) return found ?? null;
    from = page.items[page.items.length - 1].seq;
  }
}

/** Posts a message (see Mutation.postChatMessage). */
export async function postChat(
  services: Services,
  player: Player,
  gameId: string,
  rawBody: string,
  requestId?: string | null,
) {
  const body = normaliseChatText(rawBody, CHAT_LIMITS.bodyMax);
  const rec = await loadOrNotFound(services, gameId);
  if (seatOf(rec.doc, player.id) === null)
    throw new ApiError('FORBIDDEN', "only this game's seated players post in its chat (spectators read it)");
  if ((await services.store.chat.listSilenced(gameId)).includes(player.id))
    throw new ApiError('CHAT_SILENCED', "the game's moderator silenced you in this game's chat");
  const req = requestId ? `${player.id}#${requestId}` : undefined;
  let last = await services.store.chat.lastChatSeq(gameId);
  if (requestId) {
    const scope = `chat:${player.id}`;
    const claimed = await services.store.log.claimRequest(
      gameId,
      scope,
      requestId,
      { fingerprint: body, after: last },
      services.now(),
    );
    if (!claimed) {
      const prior = await services.store.log.getRequest(gameId, scope, requestId);
      if (prior && prior.fingerprint !== body)
        throw new ApiError('CONFLICT', 'this requestId was used for another message');
      const done = await messageOfRequest(services, gameId, prior?.after ?? 0, req!);
      if (done) return chatView(done, player.id, rec.doc.creatorId === player.id);
    }
  }
  await chargeRate(services, player.id);
  const profile: PlayerRecord | null = await services.players.get(services, player.id);
  for (let attempt = 0; attempt < 20; attempt++) {
    const seq = last + 1;
    if (seq > CHAT_LIMITS.messagesPerGame)
      throw new ApiError('LIMIT_EXCEEDED', `a game's chat holds at most ${CHAT_LIMITS.messagesPerGame} messages`, {
        limit: { name: 'chatMessagesPerGame', max: CHAT_LIMITS.messagesPerGame },
      });
    const m: ChatRecord = {
      gameId,
      seq,
      authorId: player.id,
      authorName: profile?.name ?? player.name,
      body,
      at: services.now().toISOString(),
      ...(req ? { req } : {}),
      // After the end the log's TTL is set (or about to be): a late message expires with it.
      ...(isOver(rec.status) ? { expiresAt: expiryOf(services.now()) } : {}),
    };
    if (await services.store.chat.putChat(m)) {
      await services.push?.chatChanged?.(gameId, seq);
      return chatView(m, player.id, rec.doc.creatorId === player.id);
    }
    last = await services.store.chat.lastChatSeq(gameId);
  }
  throw new ApiError('CONFLICT', 'the chat is too busy: try again');
}

/** Loads a message of a game the caller may watch, or NOT_FOUND. */
async function messageOf(services: Services, rec: GameRec, messageId: string): Promise<ChatRecord> {
  const m = await services.store.chat.getChat(rec.id, messageNumber(messageId));
  if (!m) throw new ApiError('NOT_FOUND', `no message ${messageId} in this game's chat`);
  return m;
}

/** Hides a message for everyone (moderator only; idempotent). */
export async function hideChat(
  services: Services,
  player: Player | null,
  siteClientId: string | null,
  gameId: string,
  messageId: string,
) {
  const rec = await loadOrNotFound(services, gameId);
  if (!(await moderates(services, rec, player, siteClientId)))
    throw new ApiError('FORBIDDEN', "only the game's creator (or its site) hides chat messages");
  const m = await messageOf(services, rec, messageId);
  await services.store.chat.hideChat(gameId, m.seq, player?.id ?? `site:${siteClientId}`);
  await services.push?.chatChanged?.(gameId, m.seq);
  return chatView({ ...m, hidden: true }, player?.id ?? null, true);
}

/** Reports a message (once per reporter; bounded per message). */
export async function reportChat(
  services: Services,
  player: Player,
  gameId: string,
  messageId: string,
  rawReason: string | null | undefined,
) {
  const reason = normaliseChatText(rawReason ?? '', CHAT_LIMITS.reasonMax, 0, 'a reason');
  const rec = await loadOrNotFound(services, gameId);
  canWatch(rec, player);
  const m = await messageOf(services, rec, messageId);
  const r = await services.store.chat.reportChat(
    gameId,
    m.seq,
    player.id,
    { reason, at: services.now().toISOString() },
    CHAT_LIMITS.reportsPerMessage,
  );
  if (r === 'full')
    throw new ApiError('LIMIT_EXCEEDED', `a message keeps at most ${CHAT_LIMITS.reportsPerMessage} reports`, {
      limit: { name: 'chatReportsPerMessage', max: CHAT_LIMITS.reportsPerMessage },
    });
  const now = (await services.store.chat.getChat(gameId, m.seq)) ?? m;
  return chatView(now, player.id, rec.doc.creatorId === player.id);
}

/** Mutes or unmutes a player for the caller (every game); answers the caller's muted players. */
export async function mutePlayer(services: Services, player: Player, target: string, muted: boolean) {
  if (target === player.id) bad('you cannot mute yourself');
  if (muted) {
    if (!(await services.store.players.getPlayer(target))) throw new ApiError('NOT_FOUND', `no player ${target}`);
    if (!(await services.store.players.addToPlayerSet(player.id, MUTED_SET, target, CHAT_LIMITS.mutedPerPlayer)))
      throw new ApiError('LIMIT_EXCEEDED', `at most ${CHAT_LIMITS.mutedPerPlayer} muted players`, {
        limit: { name: 'mutedPlayers', max: CHAT_LIMITS.mutedPerPlayer },
      });
  } else await services.store.players.removeFromPlayerSet(player.id, MUTED_SET, target);
  return services.store.players.listPlayerSet(player.id, MUTED_SET);
}

/** Silences or lets speak again a player in a game's chat (moderator only). */
export async function silencePlayer(
  services: Services,
  player: Player | null,
  siteClientId: string | null,
  gameId: string,
  target: string,
  silenced: boolean,
) {
  const rec = await loadOrNotFound(services, gameId);
  if (!(await moderates(services, rec, player, siteClientId)))
    throw new ApiError('FORBIDDEN', "only the game's creator (or its site) silences players in its chat");
  if (silenced && target === rec.doc.creatorId) bad("the game's creator cannot be silenced in its own game");
  if (!(await services.store.chat.setSilenced(gameId, target, silenced, CHAT_LIMITS.silencedPerGame)))
    throw new ApiError('LIMIT_EXCEEDED', `at most ${CHAT_LIMITS.silencedPerGame} silenced players per game`, {
      limit: { name: 'silencedPerGame', max: CHAT_LIMITS.silencedPerGame },
    });
  return services.store.chat.listSilenced(gameId);
}
