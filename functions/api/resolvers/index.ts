// Resolvers: read the caller from the context, call one game step, render for the caller.
import { signToken } from '../auth.js';
import { canWatch } from '../access.js';
import { type ApiContext, optionalPlayer, requirePlayer } from '../context.js';
import * as games from '../games.js';
import { rematch } from '../rematch.js';
import { renderGame } from '../render.js';
import { tieBreakMarks } from '../words.js';
import { replay } from '../replay.js';
import { registerWebhook } from '../webhooks.js';
import { DateTimeScalar, JSONScalar } from './scalars.js';
import { resolveEventType, typedEvent } from '../events.js';
import { gameUpdated } from './subscriptions.js';
import type { GameStatus } from '../../store/index.js';
import { characters, type EditionId } from '../../engine/index.js';

type Args<T> = (parent: unknown, args: T, ctx: ApiContext) => unknown;

const webhookView = (w: { id: string; url: string; gameId: string | null; createdAt: string }) => ({ id: w.id, url: w.url, gameId: w.gameId, createdAt: w.createdAt });

export const resolvers = {
  JSON: JSONScalar,
  DateTime: DateTimeScalar,
  Query: {
    game: (async (_p, { id }, ctx) => {
      const viewer = optionalPlayer(ctx);
      const rec = await games.getGame(ctx.services, id);
      if (!rec) return null;
      canWatch(rec, viewer);
      return renderGame(rec, viewer?.id ?? null);
    }) as Args<{ id: string }>,
    myGames: (async (_p, { status }, ctx) => {
      const me = requirePlayer(ctx);
      return (await games.myGames(ctx.services, me, status ?? null)).map((r) => renderGame(r, me.id));
    }) as Args<{ status?: GameStatus | null }>,
    openGames: (async (_p, _a, ctx) => {
      const viewer = optionalPlayer(ctx);
      return (await games.openGames(ctx.services)).map((r) => renderGame(r, viewer?.id ?? null));
    }) as Args<Record<string, never>>,
    events: (async (_p, { gameId, after, limit }, ctx) => {
      const page = await games.events(ctx.services, optionalPlayer(ctx), gameId, after, limit);
      return { ...page, events: page.events.map((e) => ({ ...typedEvent(e), text: e.text })) };
    }) as Args<{
      gameId: string;
      after?: number | null;
      limit?: number | null;
    }>,
    replay: (async (_p, { gameId, at }, ctx) => {
      const viewer = optionalPlayer(ctx);
      return renderGame(await replay(ctx.services, viewer, gameId, at), viewer?.id ?? null);
    }) as Args<{ gameId: string; at: number }>,
    characters: ((_p, { edition }) =>
      characters(edition.toLowerCase() as EditionId).map((c) => ({ ...c, tieBreaks: edition === 'CLASSIC' ? tieBreakMarks(c.rank) : null }))) as Args<{ edition: string }>,
    myWebhooks: (async (_p, _a, ctx) => (await ctx.services.store.listWebhooks(requirePlayer(ctx).id)).map(webhookView)) as Args<Record<string, never>>,
  },
  Mutation: {
    signUp: (async (_p, { name }, ctx) => {
      const player = await games.signUp(ctx.services, name);
      return { playerId: player.id, name: player.name, token: await signToken(ctx.services.signingKey, player, ctx.services.now()) };
    }) as Args<{ name: string }>,
    createGame: (async (_p, { input }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.createGame(ctx.services, me, input), me.id);
    }) as Args<{ input: games.CreateGameInput }>,
    joinGame: (async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.joinGame(ctx.services, me, gameId), me.id);
    }) as Args<{ gameId: string }>,
    leaveGame: (async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.leaveGame(ctx.services, me, gameId), me.id);
    }) as Args<{ gameId: string }>,
    startGame: (async (_p, { gameId, fillWithBots, botKind }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.startGame(ctx.services, me, gameId, { fillWithBots, botKind }), me.id);
    }) as Args<{ gameId: string } & games.StartOptions>,
    rematch: (async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await rematch(ctx.services, me, gameId), me.id);
    }) as Args<{ gameId: string }>,
    playCard: (async (_p, { gameId, rank, requestId }, ctx) => {
      const me = requirePlayer(ctx);
      const rec = await games.command(ctx.services, me, gameId, (seat) => ({ seat, play: rank }), `play:${rank}`, requestId);
      return renderGame(rec, me.id);
    }) as Args<{ gameId: string; rank: number; requestId?: string | null }>,
    answerPrompt: (async (_p, { gameId, promptId, optionId, requestId }, ctx) => {
      const me = requirePlayer(ctx);
      const rec = await games.command(
        ctx.services,
        me,
        gameId,
        (seat) => ({ seat, answer: optionId, promptId }),
        `answer:${promptId}:${optionId}`,
        requestId,
      );
      return renderGame(rec, me.id);
    }) as Args<{ gameId: string; promptId: string; optionId: string; requestId?: string | null }>,
    registerWebhook: (async (_p, { url, gameId }, ctx) => {
      const hook = await registerWebhook(ctx.services, requirePlayer(ctx), url, gameId ?? null);
      return { webhook: webhookView(hook), secret: hook.secret };
    }) as Args<{ url: string; gameId?: string | null }>,
    deleteWebhook: ((_p, { id }, ctx) => ctx.services.store.deleteWebhook(requirePlayer(ctx).id, id)) as Args<{ id: string }>,
  },
  Event: { __resolveType: resolveEventType },
  Subscription: {
    gameUpdated: { subscribe: gameUpdated, resolve: (game: unknown) => game },
  },
};
