// GraphQL subscriptions for the local server: the graphql-ws protocol over a WebSocket on
// /graphql (the same path as HTTP), with the same schema, resolvers and bearer tokens
// (sent as connectionParams.authorization). Only one process shares the change signals, so
// this is a local-server feature; on AWS (and here too) the push protocol of /push
// (functions/local/push.ts) says "game X is at version V".
//
// Same limits as HTTP, from the same set (LIMITS in functions/api/http/app.ts): a message is at most
// MAX_BODY_BYTES (`maxPayload`: a bigger frame closes the socket before it is read), a document
// at most LIMITS.maxTokens tokens (parsing stops there), then graphql-armor's depth, alias,
// directive and cost rules; plus the per-principal read limit, a subscribe rate per connection,
// subscriptions per connection and connections per player (or per address without a token).
// A session that ends (signOut, revokeTokens, a reused refresh token) closes its connections
// (CLOSE_SIGNED_OUT), and every operation checks the token's version again before it runs.
// Sends never wait for the reader: graphql-ws awaits each send's callback, which for a socket
// that stops reading would come never; here it comes at once, and a socket with more than
// PUSH_LIMITS.sendQueueBytes unsent is closed (CLOSE_SLOW), as on /push.
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { useServer } from 'graphql-ws/use/ws';
import type { DocumentNode, GraphQLError } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { type buildApp, LIMITS, MAX_BODY_BYTES } from '../api/http/app.js';
import { sessionAlive, stampOf } from '../api/accounts/accounts.js';
import { type ApiContext, charge } from '../api/context.js';
import { chargeOf, fragmentsOf } from '../api/http/charge.js';
import { ApiError, formatError } from '../api/errors.js';
import { Limiter, RATES } from '../api/http/ratelimit.js';
import { resolvers } from '../api/resolvers/index.js';
import { typeDefs } from '../api/schema.generated.js';
import { CLOSE_SIGNED_OUT, PUSH_LIMITS } from '../push/protocol.js';
import { sendBounded } from './push.js';
import { routeUpgrades } from './upgrade.js';

type App = ReturnType<typeof buildApp>;

// graphql as Node resolves it (package "main"): the same module instance graphql-ws and
// @graphql-tools use, even where a bundler would pick graphql's ESM build for our own files.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

export const WS_LIMITS = {
  /** Bytes per message (the HTTP body limit). */
  maxPayload: MAX_BODY_BYTES,
  /** Active subscriptions on one connection. */
  subscriptionsPerConnection: 10,
  /** Open connections per player (or per address for connections without a token). */
  connectionsPerPrincipal: 5,
  /** Open WebSockets per address, /graphql and /push together (checked before the handshake: HTTP 429). */
  socketsPerAddress: 50,
};

/** Close code for a connection refused by a limit (4xxx: application codes of graphql-ws). */
export const CLOSE_TOO_MANY = 4429;

/** What graphql-ws's ws adapter keeps on a connection (`ctx.extra`), and what onConnect adds. */
interface Extra {
  socket: WebSocket;
  request: { socket: { remoteAddress?: string } };
  principal?: string;
  context?: ApiContext;
  subscribes?: Limiter;
}

type Schema = ReturnType<typeof makeExecutableSchema>;
type Rules = typeof graphql.specifiedRules;

/** graphql-ws checks `instanceof` its own (CommonJS) GraphQLError: ours travel as originalError. */
const wsErrors = (errors: ApiError[]) =>
  errors.map((e) => new graphql.GraphQLError(e.message, { extensions: e.extensions, originalError: e }));
const fail = (code: 'RATE_LIMITED' | 'LIMIT_EXCEEDED' | 'BAD_USER_INPUT', message: string) =>
  wsErrors([new ApiError(code, message)]);

/**
 * graphql-ws's onConnect: the caller's context from its token, and at most
 * WS_LIMITS.connectionsPerPrincipal open connections per player (or address); a player's are
 * closed when its session ends (signOut, revokeTokens: CLOSE_SIGNED_OUT).
 */
function connectionGate(app: App): (auth: unknown, extra: Extra) => Promise<boolean> {
  const open = new Map<string, number>();
  const byPlayer = new Map<string, Set<WebSocket>>();
  app.services.players.onSessionsEnd((rec) => {
    for (const socket of byPlayer.get(rec.id) ?? []) socket.close(CLOSE_SIGNED_OUT, 'signed out');
    byPlayer.delete(rec.id);
  });
  /** Counts the connection until its socket closes. */
  const track = (principal: string, playerId: string | undefined, socket: WebSocket) => {
    open.set(principal, (open.get(principal) ?? 0) + 1);
    if (playerId) {
      if (!byPlayer.has(playerId)) byPlayer.set(playerId, new Set());
      byPlayer.get(playerId)!.add(socket);
    }
    socket.once('close', () => {
      const left = (open.get(principal) ?? 1) - 1;
      if (left > 0) open.set(principal, left);
      else open.delete(principal);
      const mine = playerId ? byPlayer.get(playerId) : undefined;
      mine?.delete(socket);
      if (mine?.size === 0) byPlayer.delete(playerId!);
    });
  };
  return async (auth, extra) => {
    const headers = typeof auth === 'string' ? { authorization: auth } : {};
    const context = await app.context(headers, extra.request.socket.remoteAddress ?? null);
    const principal = context.player ? `player:${context.player.id}` : `address:${context.address ?? 'unknown'}`;
    if ((open.get(principal) ?? 0) >= WS_LIMITS.connectionsPerPrincipal) {
      extra.socket.close(CLOSE_TOO_MANY, `at most ${WS_LIMITS.connectionsPerPrincipal} connections per player`);
      return false;
    }
    track(principal, context.player?.id, extra.socket);
    extra.principal = principal;
    extra.context = context;
    extra.subscribes = new Limiter('subscribe', RATES.subscribe);
    return true;
  };
}

/**
 * Why an operation is refused before it is read: the subscribe rate of the connection, its
 * subscriptions (graphql-ws counts an operation as soon as it arrives: `active` includes it),
 * or a session that ended (signed out) before its socket was closed: its socket is closed now.
 */
async function refuseOperation(extra: Extra, active: number): Promise<GraphQLError[] | null> {
  if (extra.subscribes!.take('connection') > 0)
    return fail(
      'RATE_LIMITED',
      `rate limit: at most ${RATES.subscribe.perSecond} subscribe messages per second on a connection (burst ${RATES.subscribe.burst})`,
    );
  if (active > WS_LIMITS.subscriptionsPerConnection)
    return fail(
      'LIMIT_EXCEEDED',
      `subscriptions limit exceeded: at most ${WS_LIMITS.subscriptionsPerConnection} per connection`,
    );
  const { player, credential, services } = extra.context!;
  const stamp = credential ? stampOf(credential) : null;
  if (!player || !stamp || (await sessionAlive(services, player.id, stamp))) return null;
  // Closed after the answer has gone out (graphql-ws sends it once this returns).
  setTimeout(() => extra.socket.close(CLOSE_SIGNED_OUT, 'signed out'), 0);
  return wsErrors([new ApiError('UNAUTHENTICATED', 'this session ended (signed out): connect again with a new token')]);
}

/** An operation as HTTP checks it: parsed within LIMITS.maxTokens, validated by `rules`, charged to the caller. */
function prepare(schema: Schema, rules: Rules, payload: SubscribePayload, context: ApiContext) {
  if (typeof payload.query !== 'string') return fail('BAD_USER_INPUT', 'the query must be a string');
  let document: DocumentNode;
  try {
    document = graphql.parse(payload.query, { maxTokens: LIMITS.maxTokens });
  } catch (e) {
    return [new graphql.GraphQLError((e as Error).message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
  }
  const errors = graphql.validate(schema, document, rules as never);
  if (errors.length > 0)
    return errors.map(
      (e) => new graphql.GraphQLError(e.message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
    );
  const op = graphql.getOperationAST(document, payload.operationName);
  try {
    // The same charge as over HTTP: every root field, aliases and fragments included.
    if (op) charge(context, chargeOf(op, fragmentsOf(document.definitions)));
  } catch (e) {
    if (e instanceof ApiError) return wsErrors([e]);
    throw e;
  }
  return {
    schema,
    document,
    variableValues: payload.variables ?? undefined,
    operationName: payload.operationName ?? undefined,
    contextValue: context,
  };
}

/**
 * A frame over maxPayload is refused by ws itself (close 1009, nothing read); graphql-ws would
 * also log it as an internal error, once per flooding connection: keep the log for real ones.
 */
function quietOversize(socket: WebSocket): void {
  const others = socket.listeners('error');
  socket.removeAllListeners('error');
  socket.on('error', (err: Error & { code?: string }) => {
    if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return;
    for (const l of others) (l as (e: Error) => void).call(socket, err);
  });
}

export function attachSubscriptions(server: Server, app: App): () => Promise<void> {
  const schema = makeExecutableSchema({ typeDefs, resolvers });
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_LIMITS.maxPayload });
  const unroute = routeUpgrades(server, '/graphql', wss);
  const rules = [...graphql.specifiedRules, ...(LIMITS.armor.validationRules ?? []), ...LIMITS.rules];
  const admit = connectionGate(app);
  const extraOf = (ctx: { extra: unknown }) => ctx.extra as Extra;
  const ws = useServer(
    {
      schema,
      onConnect: (ctx) => admit(ctx.connectionParams?.authorization, extraOf(ctx)),
      onSubscribe: async (ctx, _id, payload) => {
        const extra = extraOf(ctx);
        const refused = await refuseOperation(extra, Object.keys(ctx.subscriptions).length);
        return refused ?? prepare(schema, rules, payload, extra.context!);
      },
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((e) => withoutSuggestions(formatError(e.toJSON(), e.originalError ?? e))) as never,
      onNext: (_ctx, _id, _payload, _args, result) => {
        if ('errors' in result && result.errors)
          return { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) } as never;
        return undefined;
      },
    },
    wss,
  );
  wss.on('connection', (socket) => {
    boundSends(socket);
    quietOversize(socket);
  });
  return async () => {
    unroute();
    await ws.dispose();
    await new Promise<void>((ok) => wss.close(() => ok()));
  };
}

/**
 * graphql-ws sends with `socket.send(data, callback)` and waits for the callback (the data
 * flushed): the send goes through `sendBounded` instead (dropped past the bound) and the
 * callback is called at once, so a subscription never waits for its reader.
 */
export function boundSends(socket: WebSocket): void {
  const send = socket.send.bind(socket) as (data: string) => void;
  socket.send = ((data: unknown, a?: unknown, b?: unknown) => {
    const cb = (typeof a === 'function' ? a : b) as ((err?: Error) => void) | undefined;
    sendBounded(socket, String(data), PUSH_LIMITS.sendQueueBytes, send);
    if (cb) queueMicrotask(() => cb());
  }) as typeof socket.send;
}

/** As graphql-armor's blockFieldSuggestion does for HTTP: no "Did you mean ...?" hints. */
function withoutSuggestions<T extends { message: string }>(e: T): T {
  return { ...e, message: e.message.replace(/ ?Did you mean .*$/, '') };
}
