// GraphQL subscriptions for the local server: the graphql-ws protocol over a WebSocket on
// /graphql (the same path as HTTP), with the same schema, resolvers and bearer tokens
// (sent as connectionParams.authorization). Only one process shares the change signals, so
// this is a local-server feature; on AWS (and here too) the push protocol of /push
// (functions/local/push.ts) says "game X is at version V".
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { ARMOR, type buildApp } from '../api/app.js';
import { formatError } from '../api/errors.js';
import { resolvers } from '../api/resolvers/index.js';
import { typeDefs } from '../api/schema.generated.js';
import { routeUpgrades } from './upgrade.js';

type App = ReturnType<typeof buildApp>;

// graphql as Node resolves it (package "main"): the same module instance graphql-ws and
// @graphql-tools use, even where a bundler would pick graphql's ESM build for our own files.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** The error with the code the HTTP path gives the same mistake. */
const coded = (e: import('graphql').GraphQLError, code: string) =>
  new graphql.GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: { ...e.extensions, code } });

export function attachSubscriptions(server: Server, app: App): () => Promise<void> {
  const schema = makeExecutableSchema({ typeDefs, resolvers });
  const wss = new WebSocketServer({ noServer: true });
  const unroute = routeUpgrades(server, '/graphql', wss);
  const limits = [...graphql.specifiedRules, ...(new ApolloArmor(ARMOR).protect().validationRules ?? [])];
  const ws = useServer(
    {
      schema,
      // Parse and validate here, with the HTTP path's token limit, rules and error codes (graphql-ws
      // would answer a syntax error by dropping the connection, and untyped validation errors).
      onSubscribe: (_ctx, _id, payload) => {
        let document: import('graphql').DocumentNode;
        try {
          document = graphql.parse(payload.query, { maxTokens: ARMOR.maxTokens.n });
        } catch (e) {
          return [coded(e as import('graphql').GraphQLError, 'GRAPHQL_PARSE_FAILED')];
        }
        const errors = graphql.validate(schema, document, limits as never);
        if (errors.length > 0) return errors.map((e) => coded(e, 'GRAPHQL_VALIDATION_FAILED'));
        return { schema, document, variableValues: payload.variables, operationName: payload.operationName };
      },
      context: (ctx) => {
        const auth = ctx.connectionParams?.authorization;
        return app.context(typeof auth === 'string' ? { authorization: auth } : {});
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e, e)) as never,
      onNext: (_ctx, _id, _payload, _args, result) => {
        if ('errors' in result && result.errors) return { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) } as never;
        return undefined;
      },
    },
    wss,
  );
  return async () => {
    unroute();
    await ws.dispose();
    await new Promise<void>((ok) => wss.close(() => ok()));
  };
}
