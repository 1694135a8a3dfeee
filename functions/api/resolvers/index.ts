// Resolvers: read the caller from the context, call one game step, render for the caller.
import { signToken } from '../auth.js';
import { type ApiContext, optionalPlayer, requirePlayer } from '../context.js';
import * as games from '../games.js';
import { renderGame } from '../render.js';
import { DateTimeScalar, JSONScalar } from './scalars.js';
import type { GameStatus } from '../../store/index.js';

type Args<T> = (parent: unknown, args: T, ctx: ApiContext) => unknown;


export const resolvers = {
  JSON: JSONScalar,
  DateTime: DateTimeScalar,
  Query: {
    game: (async (_p, { id }, ctx) => {
      const viewer = optionalPlayer(ctx);
      const rec = await games.getGame(ctx.services, id);
      return rec && renderGame(rec, viewer?.id ?? null);
    }) as Args<{ id: string }>,
    myGames: (async (_p, { status }, ctx) => {
      const me = requirePlayer(ctx);
      return (await games.myGames(ctx.services, me, status ?? null)).map((r) => renderGame(r, me.id));
    }) as Args<{ status?: GameStatus | null }>,
    openGames: (async (_p, _a, ctx) => {
      const viewer = optionalPlayer(ctx);
      return (await games.openGames(ctx.services)).map((r) => renderGame(r, viewer?.id ?? null));
    }) as Args<Record<string, never>>,
    events: ((_p, { gameId, after, limit }, ctx) => games.events(ctx.services, optionalPlayer(ctx), gameId, after, limit)) as Args<{
      gameId: string;
      after?: number | null;
      limit?: number | null;
    }>,
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
    startGame: (async (_p, { gameId }, ctx) => {
      const me = requirePlayer(ctx);
      return renderGame(await games.startGame(ctx.services, me, gameId), me.id);
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
  },
};
