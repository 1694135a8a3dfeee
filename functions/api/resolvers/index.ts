// Resolvers: read the caller from the context, call one game step, render for the caller.
import * as accounts from '../accounts/accounts.js';
import { SCOPES } from '../accounts/auth.js';
import { canWatch } from '../view/access.js';
import { type ApiContext, optionalPlayer, requirePlayer } from '../context.js';
import * as games from '../play/games.js';
import { rematch } from '../lobby/rematch.js';
import { concede } from '../play/concede.js';
import { leaderboardPage, ratingHistoryPage, ratingOf } from '../community/leaderboard.js';
import { removePlayer } from '../lobby/seating.js';
import { profileOf } from '../community/profile.js';
import { chatPage, hideChat, mutePlayer, postChat, reportChat, silencePlayer } from '../community/chat.js';
import { renderGame } from '../view/render.js';
import { replay } from '../view/replay.js';
import { registerWebhook } from '../notify/webhooks.js';
import { readReminders, requireAccount, setReminders } from '../notify/reminders.js';
import { registerSiteWebhook, siteClient } from '../notify/sites.js';
import { DateTimeScalar, JSONScalar } from './scalars.js';
import { resolveEventType, typedEvent } from '../view/events.js';
import { lower } from '../enums.js';
import { ApiError } from '../errors.js';
import { myGamesPage, openGamesPage } from '../lobby/pages.js';
import { gameUpdated } from './subscriptions.js';
import type { EventResolvers, Resolvers } from './types.generated.js';
import type { RenderedGame } from '../view/render.js';
import { bounded } from './bounds.js';
import { bucketStates, principals } from '../http/ratelimit.js';
import { characters, type EditionId, wordsOf } from '../../engine/index.js';

/** The name of one of the schema's event types (what Event.__resolveType answers). */
type EventTypeName = NonNullable<Awaited<ReturnType<EventResolvers['__resolveType']>>>;

/** The verified credential of the caller (any kind), or UNAUTHENTICATED. */
function signedIn(ctx: ApiContext) {
  if (ctx.authError) throw ctx.authError;
  if (!ctx.credential)
    throw new ApiError('UNAUTHENTICATED', 'this call needs Authorization: Bearer <token>', { reason: 'missing' });
  return ctx.credential;
}

const webhookView = (w: { id: string; url: string; gameId: string | null; createdAt: string }) => ({
  id: w.id,
  url: w.url,
  gameId: w.gameId,
  createdAt: w.createdAt,
});

/** Who moderates as the caller: their player, and the site when the caller is a site's client token. */
function moderator(ctx: ApiContext) {
  const c = signedIn(ctx);
  return { player: optionalPlayer(ctx), site: c.type === 'client' ? c.clientId : null };
}

/** The event log's cursor: the seq of the last event seen, as a string (the one paging shape's String cursor). */
function seqCursor(after: string): number {
  if (!/^(0|[1-9]\d{0,9})$/.test(after))
    throw new ApiError('BAD_USER_INPUT', "after is the previous page's pageInfo.endCursor");
  return Number(after);
}

/** The principal key behind a bucket name (`read:client` -> `client:<the caller's client>`). */
function keyOf(bucket: string, ctx: ApiContext): string {
  const kind = bucket.slice(bucket.indexOf(':') + 1);
  return principals(ctx).find((k) => k.startsWith(`${kind}:`)) ?? '';
}

/** Typed by the schema (types.generated.ts): tsc refuses wrong arguments or a result of another shape. */
const typed: Resolvers = {
  JSON: JSONScalar,
  DateTime: DateTimeScalar,
  Query: {
    game: async (_p, { gameId, id }, ctx) => {
      const viewer = optionalPlayer(ctx);
      const wanted = gameId ?? id;
      if (wanted == null || (id != null && gameId != null && id !== gameId))
        throw new ApiError('BAD_USER_INPUT', 'give the game as gameId (id is its older name), once');
      const rec = await games.getGame(ctx.services, wanted);
      if (!rec) return null;
      canWatch(rec, viewer);
      return renderGame(rec, viewer?.id ?? null);
    },
    myGames: async (_p, { status }, ctx) => {
      const me = requirePlayer(ctx);
      return (await games.myGames(ctx.services, me, status ?? null)).map((r) => renderGame(r, me.id));
    },
    openGames: async (_p, _a, ctx) => {
      const viewer = optionalPlayer(ctx);
      return (await games.openGames(ctx.services)).map((r) => renderGame(r, viewer?.id ?? null));
    },
    myGamesPage: async (_p, { status, first, after }, ctx) => {
      const me = requirePlayer(ctx);
      const page = await myGamesPage(ctx.services, me, status ?? null, first, after);
      return { ...page, games: page.games.map((r) => renderGame(r, me.id)) };
    },
    leaderboard: (_p, { edition, first, after }, ctx) =>
      leaderboardPage(ctx.services.store, lower(edition), first, after),
    rating: (_p, { playerId, edition }, ctx) => ratingOf(ctx.services.store, playerId, lower(edition)),
    ratingHistory: (_p, { playerId, edition, first, after }, ctx) =>
      ratingHistoryPage(ctx.services.store, playerId, lower(edition), first, after),
    openGamesPage: async (_p, { first, after }, ctx) => {
      const viewer = optionalPlayer(ctx);
      const page = await openGamesPage(ctx.services, first, after);
      return { ...page, games: page.games.map((r) => renderGame(r, viewer?.id ?? null)) };
    },
    events: async (_p, { gameId, after, first, limit }, ctx) => {
      if (first != null && limit != null && first !== limit)
        throw new ApiError('BAD_USER_INPUT', 'first and limit are one argument (limit is its older name): give one');
      const page = await games.events(ctx.services, optionalPlayer(ctx), gameId, after, first ?? limit);
      const events = page.events.map((e) => ({ ...typedEvent(e), text: e.text }));
      const endCursor = page.events.length ? page.events[page.events.length - 1].seq : (after ?? 0);
      return { ...page, events, pageInfo: { hasNextPage: page.hasMore, endCursor } };
    },
    eventsPage: async (_p, { gameId, first, after }, ctx) => {
      const from = after == null ? 0 : seqCursor(after);
      const page = await games.events(ctx.services, optionalPlayer(ctx), gameId, from, first);
      const events = page.events.map((e) => ({ ...typedEvent(e), text: e.text }));
      const last = page.events.length ? page.events[page.events.length - 1].seq : from;
      return { events, pageInfo: { hasNextPage: page.hasMore, endCursor: last > 0 ? String(last) : null } };
    },
    profile: (_p, { playerId, first, after }, ctx) => profileOf(ctx.services.store, playerId, first, after),
    chat: (_p, { gameId, first, after }, ctx) => chatPage(ctx.services, optionalPlayer(ctx), gameId, first, after),
    replay: async (_p, { gameId, at }, ctx) => {
      const viewer = optionalPlayer(ctx);
      return renderGame(await replay(ctx.services, viewer, gameId, at), viewer?.id ?? null);
    },
    boards: (_p, { edition }) =>
      wordsOf(edition.toLowerCase() as EditionId)
        .boards()
        .map((b) => b.toUpperCase() as 'CALM'),
    characters: (_p, { edition }) => {
      const id = edition.toLowerCase() as EditionId;
      const words = wordsOf(id);
      return characters(id).map((c) => ({ ...c, tieBreaks: words.tieBreakMarks(c.rank) }));
    },
    me: (_p, _a, ctx) => {
      if (ctx.authError) throw ctx.authError;
      return accounts.profileOf(ctx.credential, ctx.profile);
    },
    authConfig: (_p, _a, ctx) => ctx.services.authConfig,
    rateLimit: (_p, _a, ctx) => {
      const now = ctx.services.now().getTime();
      const { limiters } = ctx.services;
      return (['read', 'write'] as const).flatMap((kind) =>
        bucketStates(limiters, ctx, kind).map((b) => ({
          bucket: b.bucket,
          limit: b.limit,
          remaining: b.remaining,
          perSecond: limiters[kind].rateOf(keyOf(b.bucket, ctx)).perSecond,
          resetAt: new Date(now + b.resetSeconds * 1000).toISOString(),
        })),
      );
    },
    reminderSettings: (_p, _a, ctx) => {
      const me = requirePlayer(ctx);
      requireAccount(ctx.profile?.kind);
      return readReminders(ctx.services, me.id);
    },
    myWebhooks: async (_p, _a, ctx) =>
      (await ctx.services.store.notify.listWebhooks({ playerId: requirePlayer(ctx).id })).map(webhookView),
    siteWebhooks: async (_p, _a, ctx) =>
      (await ctx.services.store.notify.listWebhooks({ clientId: siteClient(signedIn(ctx)) })).map(webhookView),
  },
  Mutation: {
    signUp: (_p, { name }, ctx) => accounts.signUpGuest(ctx.services, name),
    refreshSession: (_p, { refreshToken }, ctx) => accounts.refreshSession(ctx.services, refreshToken),
    register: async (_p, { name }, ctx) => {
      const c = signedIn(ctx);
      return accounts.profileOf(c, await accounts.register(ctx.services, c, name));
    },
    linkGuest: async (_p, { guestToken, name }, ctx) => {
      const c = signedIn(ctx);
      return accounts.profileOf(c, await accounts.linkGuest(ctx.services, c, guestToken, name));
    },
    rename: async (_p, { name }, ctx) => {
      requirePlayer(ctx);
      return accounts.profileOf(ctx.credential!, await accounts.rename(ctx.services, ctx.profile!, name));
    },
    revokeTokens: async (_p, _a, ctx) => {
      requirePlayer(ctx);
      await accounts.revokeTokens(ctx.services, ctx.profile!);
      return true;
    },
    signOut: async (_p, _a, ctx) => {
      requirePlayer(ctx);
      await accounts.revokeTokens(ctx.services, ctx.profile!);
      return true;
    },
    actAs: (_p, { user, name }, ctx) => accounts.actAs(ctx.services, signedIn(ctx), user, name),
    createGame: async (_p, { input }, ctx) => {
      const me = requirePlayer(ctx);
      // A site user's session creates games only if its client holds the games.create scope.
      const c = ctx.credential;
      if (c?.type === 'own' && c.clientId && !c.scopes.includes(SCOPES.createGames))
        throw new ApiError('FORBIDDEN', `client ${c.clientId} lacks the ${SCOPES.createGames} scope`);
      return renderGame(await games.createGame(ctx.services, me, input), me.id);
    },
    joinGame: async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.joinGame(ctx.services, me, gameId), me.id);
    },
    leaveGame: async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.leaveGame(ctx.services, me, gameId), me.id);
    },
    removePlayer: async (_p, { gameId, playerId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await removePlayer(ctx.services, me, gameId, playerId), me.id);
    },
    startGame: async (_p, { gameId, fillWithBots, botKind }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.startGame(ctx.services, me, gameId, { fillWithBots, botKind }), me.id);
    },
    rematch: async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await rematch(ctx.services, me, gameId), me.id);
    },
    playCard: async (_p, { gameId, rank, requestId, ifVersion }, ctx) => {
      const me = requirePlayer(ctx);
      const rec = await games.command(
        ctx.services,
        me,
        gameId,
        (seat) => ({ seat, play: rank }),
        `play:${rank}`,
        requestId,
        undefined,
        ifVersion,
      );
      return renderGame(rec, me.id);
    },
    concede: async (_p, { gameId, requestId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await concede(ctx.services, me, gameId, requestId), me.id);
    },
    answerPrompt: async (_p, { gameId, promptId, optionId, requestId, ifVersion }, ctx) => {
      const me = requirePlayer(ctx);
      const rec = await games.command(
        ctx.services,
        me,
        gameId,
        (seat, doc) => {
          // Another seat's prompt is not yours to answer (not a phase question).
          const pending = doc.state?.prompt;
          if (pending && pending.id === promptId && pending.seat !== seat)
            throw new ApiError('FORBIDDEN', `prompt ${promptId} is seat ${pending.seat}'s to answer`);
          return { seat, answer: optionId, promptId };
        },
        `answer:${promptId}:${optionId}`,
        requestId,
        undefined,
        ifVersion,
      );
      return renderGame(rec, me.id);
    },
    postChatMessage: (_p, { gameId, text, requestId }, ctx) =>
      postChat(ctx.services, requirePlayer(ctx), gameId, text, requestId),
    mutePlayer: (_p, { playerId, muted }, ctx) => mutePlayer(ctx.services, requirePlayer(ctx), playerId, muted ?? true),
    reportChatMessage: (_p, { gameId, messageId, reason }, ctx) =>
      reportChat(ctx.services, requirePlayer(ctx), gameId, messageId, reason),
    hideChatMessage: (_p, { gameId, messageId }, ctx) => {
      const m = moderator(ctx);
      return hideChat(ctx.services, m.player, m.site, gameId, messageId);
    },
    silenceChatPlayer: (_p, { gameId, playerId, silenced }, ctx) => {
      const m = moderator(ctx);
      return silencePlayer(ctx.services, m.player, m.site, gameId, playerId, silenced ?? true);
    },
    registerWebhook: async (_p, { url, gameId }, ctx) => {
      const { hook } = await registerWebhook(ctx.services, requirePlayer(ctx), url, gameId ?? null);
      return { webhook: webhookView(hook), secret: hook.secret };
    },
    setReminders: (_p, { input }, ctx) => {
      const me = requirePlayer(ctx);
      requireAccount(ctx.profile?.kind);
      return setReminders(ctx.services, me.id, input);
    },
    deleteWebhook: (_p, { id }, ctx) =>
      ctx.services.store.notify.deleteWebhook({ playerId: requirePlayer(ctx).id }, id),
    registerSiteWebhook: async (_p, { url }, ctx) => {
      const { hook, created } = await registerSiteWebhook(ctx.services, siteClient(signedIn(ctx)), url);
      return { webhook: webhookView(hook), secret: hook.secret, created };
    },
    deleteSiteWebhook: (_p, { id }, ctx) =>
      ctx.services.store.notify.deleteWebhook({ clientId: siteClient(signedIn(ctx)) }, id),
  },
  // resolveEventType refuses a name the schema lacks, so its answer is one of the event types.
  Event: { __resolveType: (e, ctx, info) => resolveEventType(e, ctx, info) as EventTypeName },
  Subscription: {
    gameUpdated: { subscribe: gameUpdated, resolve: (game: RenderedGame) => game },
  },
};

/** What the servers use: every root field's ID and String arguments length-checked first (bounds.ts). */
export const resolvers = bounded(typed);
