// The one way to build the service, shared by the local server and the Lambda handlers:
// Apollo (not started) with the schema, resolvers, limits and error policy; the request
// context; the REST routes; and the sweep.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { createStore } from '../store/index.js';
import { createFanout } from '../push/fanout.js';
import type { PushGateway } from '../push/protocol.js';
import { createPushStore } from '../push/store.js';
import { type ApiContext, createContext, type Services } from './context.js';
import { formatError } from './errors.js';
import { resolvers } from './resolvers/index.js';
import { handleRest, type RestRequest, type RestResponse } from './rest.js';
import { typeDefs } from './schema.generated.js';
import { createChanges } from './changes.js';
import { sweep, type SweepResult } from './sweep.js';
import { DEFAULT_WEBHOOKS, type WebhookConfig } from './webhooks.js';
import { subscriptionsOverHttp } from './transport.js';

export type { ApiContext } from './context.js';

export interface AppConfig {
  tableName: string;
  client: DynamoDBDocumentClient;
  signingKey: string;
  now?: () => Date;
  /** Webhook attempts: timeout and whether private hosts are allowed (default: 2 s, no). */
  webhooks?: Partial<WebhookConfig>;
  /** Where push messages go (API Gateway WebSocket API, or the local server's /push); none: no push. */
  pushGateway?: PushGateway;
}

/** Request body limit (bytes) for the HTTP entry points: GraphQL documents here are small. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Query limits: a full game query is depth 5 and cost ~300; these leave room, not abuse. */
export const ARMOR = {
  // Fragments count by what they expand to (Apollo Client and Relay documents are made of named
  // fragments): a spread adds no level of its own, its fields do.
  maxDepth: { n: 8, flattenFragments: true },
  costLimit: { maxCost: 5000, flattenFragments: true },
  maxAliases: { n: 15 },
  // graphql-armor's token plugin re-parses in a plugin hook, so any syntax error (and a long
  // document) came back as HTTP 500; graphql-js enforces the same limit in Apollo's own parse
  // (parseOptions below): a 400 GRAPHQL_PARSE_FAILED.
  maxTokens: { enabled: false, n: 2000 },
  maxDirectives: { n: 20 },
  // Introspection is on (the schema is public), so hiding "Did you mean ...?" hides nothing.
  blockFieldSuggestion: { enabled: false },
};

export function buildApp(config: AppConfig): {
  apollo: ApolloServer<ApiContext>;
  context: (headers: Record<string, string | undefined>) => Promise<ApiContext>;
  rest: (req: RestRequest) => Promise<RestResponse>;
  sweep: (now?: Date) => Promise<SweepResult>;
  services: Services;
} {
  if (!config.signingKey || config.signingKey.length < 32) throw new Error('the signing key must have at least 32 characters');
  const services: Services = {
    store: createStore({ tableName: config.tableName, client: config.client }),
    signingKey: config.signingKey,
    now: config.now ?? (() => new Date()),
    webhooks: { ...DEFAULT_WEBHOOKS, ...config.webhooks },
    changes: createChanges(),
    push: config.pushGateway ? createFanout(createPushStore(config.client, config.tableName), config.pushGateway) : undefined,
  };
  const armor = new ApolloArmor(ARMOR).protect();
  const apollo = new ApolloServer<ApiContext>({
    typeDefs,
    resolvers,
    // No Apollo GraphOS reporting and no federation traces: never used, and the Lambda bundles
    // leave their protobuf module out (infra/function.ts, BUNDLE_ALIASES).
    plugins: [...armor.plugins, subscriptionsOverHttp, ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginInlineTraceDisabled()],
    validationRules: armor.validationRules,
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: ARMOR.maxTokens.n },
    includeStacktraceInErrorResponses: false,
    formatError,
    introspection: true,
  });
  return {
    apollo,
    context: (headers) => createContext(services, headers),
    rest: (req) => handleRest(services, req),
    sweep: (now) => sweep(now ? { ...services, now: () => now } : services),
    services,
  };
}
