// The one way to build the service, shared by the local server and the API Lambda: the service
// (core.ts: services, request context, REST routes, sweep, notices) and Apollo (not started) with
// the schema, resolvers, limits and error policy. The functions without GraphQL (notice worker,
// sweep, push) use core.ts alone.
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, type ValidationContext } from 'graphql';
import { type ApiContext, charge } from '../context.js';
import { chargeOf, fragmentsOf } from './charge.js';
import { formatError } from '../errors.js';
import { resolvers } from '../resolvers/index.js';
import { typeDefs } from '../schema.generated.js';

import { ApiError } from '../errors.js';
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { subscriptionsOverHttp } from './transport.js';
import { allowlistPlugin } from './allowlist.js';
import { rateHeaders } from './ratelimit.js';
import { type AppConfig, buildCore, type Core } from './core.js';

export type { ApiContext } from '../context.js';
export { type AppConfig, type Core, sniffOperation } from './core.js';

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

/**
 * The one set of document limits for every path: Apollo (HTTP, here) and graphql-ws (the local
 * server's WebSocket, functions/local/subscriptions.ts) use these same rules and token limit.
 */
/**
 * Introspection's own bounds: graphql-armor's depth and cost rules skip `__schema` (and so the
 * type > fields > type ... nesting under it), which let 15 aliased schema walks through at the
 * read rate. These count it: the standard introspection query (graphql-js getIntrospectionQuery)
 * is depth 15 and cost about 15,500, so one passes and a second in the same operation does not.
 * Each `__schema`/`__type` root field also takes a token of its own bucket (RATES.introspection).
 */
export const INTROSPECTION_LIMITS = { maxDepth: 15, maxCost: 20_000 };

const reject = (ctx: ValidationContext | null, error: GraphQLError) =>
  ctx?.reportError(new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT' } }));
const introspectionRules = [
  maxDepthRule({
    n: INTROSPECTION_LIMITS.maxDepth,
    flattenFragments: true,
    ignoreIntrospection: false,
    propagateOnRejection: false,
    onReject: [reject],
  }),
  costLimitRule({
    maxCost: INTROSPECTION_LIMITS.maxCost,
    flattenFragments: true,
    ignoreIntrospection: false,
    propagateOnRejection: false,
    onReject: [reject],
  }),
];

export const LIMITS = {
  maxTokens: ARMOR.maxTokens.n,
  armor: new ApolloArmor(ARMOR).protect(),
  /** Validation rules beside graphql-armor's, on every path (Apollo and graphql-ws). */
  rules: introspectionRules,
};

/** Rate limits before an operation runs: the parsed operation's charge (charge.ts), less the entry point's pre-parse fee. */
const rateLimitPlugin: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, document, contextValue }) {
        if (!operation) return;
        try {
          charge(contextValue, chargeOf(operation, fragmentsOf(document.definitions)), contextValue.admitted);
        } catch (e) {
          if (e instanceof ApiError && e.code === 'RATE_LIMITED') {
            // HTTP 429 with Retry-After (Apollo reads extensions.http; formatError never shows it).
            e.extensions.http = {
              status: 429,
              headers: new HeaderMap([['retry-after', String(e.details.retryAfterSeconds)]]),
            };
          } else if (e instanceof ApiError) e.extensions.http = { status: 400, headers: new HeaderMap() };
          throw e;
        }
      },
    };
  },
};

/** The rate-limit headers on every GraphQL answer (ratelimit.ts rateHeaders). */
const rateHeadersPlugin: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, response }) {
        const headers = rateHeaders(contextValue.services.limiters, contextValue, contextValue.rateKind ?? 'read');
        for (const [k, v] of Object.entries(headers)) response.http.headers.set(k, v);
      },
    };
  },
};

/**
 * `cache-control: no-store` on every GraphQL answer (what Apollo's cache control plugin answered
 * for a schema without cache hints; an answer with an existing cache-control header keeps it).
 * The plugin itself is off: it ran a hook on every resolved field to compute a policy that was
 * always "not cacheable" (about 1% of the API process's CPU in `npm run bench -- --api --profile`).
 */
const noStorePlugin: ApolloServerPlugin<ApiContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/** The GraphQL server (not started): schema, resolvers, limits and error policy. Holds no state of the service's. */
export function createApollo(config: Pick<AppConfig, 'operationAllowlist'> = {}): ApolloServer<ApiContext> {
  const armor = LIMITS.armor;
  return new ApolloServer<ApiContext>({
    typeDefs,
    resolvers,
    // No Apollo GraphOS reporting and no federation traces: never used, and the Lambda bundles
    // leave their protobuf module out (infra/function.ts, BUNDLE_ALIASES). No cache control
    // plugin: noStorePlugin answers its header.
    plugins: [
      ...armor.plugins,
      ...(config.operationAllowlist ? [allowlistPlugin(config.operationAllowlist)] : []),
      rateLimitPlugin,
      rateHeadersPlugin,
      subscriptionsOverHttp,
      noStorePlugin,
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
    ],
    validationRules: [...(armor.validationRules ?? []), ...LIMITS.rules],
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: LIMITS.maxTokens },
    includeStacktraceInErrorResponses: false,
    formatError,
    introspection: true,
  });
}

export type App = Core & { apollo: ApolloServer<ApiContext> };

export function buildApp(config: AppConfig): App {
  return { ...buildCore(config), apollo: createApollo(config) };
}
