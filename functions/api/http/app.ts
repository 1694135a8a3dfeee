// The one way to build the service, shared by the local server and the Lambda handlers:
// Apollo (not started) with the schema, resolvers, limits and error policy; the request
// context; the REST routes; and the sweep.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, type ValidationContext } from 'graphql';
import { createStore } from '../../store/index.js';
import type { PushGateway } from '../../push/protocol.js';
import { admit, type ApiContext, charge, createContext } from '../context.js';
import type { CommitListener, NoticeMessage, NoticeQueue, Services, WebhookConfig } from '../services.js';
import { chargeOf, fragmentsOf } from './charge.js';
import { formatError } from '../errors.js';
import { createVerifier, type IssuerConfig, SCOPES } from '../accounts/auth.js';
import { createPlayerCache } from '../accounts/accounts.js';
import { type KeySource, staticKeys } from '../accounts/keys.js';
import { resolvers } from '../resolvers/index.js';
import { handleRest, type RestRequest, type RestResponse } from './rest.js';
import { typeDefs } from '../schema.generated.js';
import { createChanges } from '../play/changes.js';
import { sweep, type SweepResult } from '../ops/sweep.js';
import { DEFAULT_WEBHOOKS } from '../notify/webhooks.js';
import { createLocalQueue, handleNotice, type LocalQueue } from '../notify/notices.js';
import { noticesOf } from '../notify/notify.js';
import { createFanout, pushStoreOf, queuedPusher } from '../notify/fanout.js';
import { lobbyChanged } from '../lobby/lobby-cache.js';
import { deliverDue } from '../ops/sweep.js';
import { createLimiters, principals, rateHeaders, rateLimited, type RateConfig } from './ratelimit.js';
import { ApiError } from '../errors.js';
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { subscriptionsOverHttp } from './transport.js';
import { allowlistPlugin } from './allowlist.js';
import { rateGameSafely } from '../community/ratings.js';

export type { ApiContext } from '../context.js';

export interface AppConfig {
  tableName: string;
  client: DynamoDBDocumentClient;
  /** The key the service signs its own tokens with (guests, site users); or `signingKeys`. */
  signingKey?: string;
  /** A key ring source (AWS: the secret's current and previous versions, re-read on an interval). */
  signingKeys?: KeySource;
  /** Trusted OpenID Providers (Cognito, the local provider); none: guest tokens only. */
  issuers?: IssuerConfig[];
  now?: () => Date;
  /** Lifetime of the service's own access tokens (default one hour). */
  accessTokenSeconds?: number;
  /** The web app's sign-in (Query.authConfig): its provider and public client id. */
  webClient?: { issuer: string; clientId: string; scope?: string };
  /** Webhook attempts: timeout and whether private hosts are allowed (default: 2 s, no). */
  webhooks?: Partial<WebhookConfig>;
  /** Where push messages go (API Gateway WebSocket API, or the local server's /push); none: no push. */
  pushGateway?: PushGateway;
  /** The notice queue (AWS: SQS); default: an in-process worker (`app.notices`). */
  noticeQueue?: NoticeQueue;
  /** Per-instance rate limits (default RATES; false: none, for tests and benches at machine speed). */
  rateLimits?: RateConfig;
  /** Run only these documents (ids from `npm run allowlist`; allowlist.ts); default: any document. */
  operationAllowlist?: ReadonlySet<string>;
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

const reject = (ctx: ValidationContext | null, error: GraphQLError) => ctx?.reportError(new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT' } }));
const introspectionRules = [
  maxDepthRule({ n: INTROSPECTION_LIMITS.maxDepth, flattenFragments: true, ignoreIntrospection: false, propagateOnRejection: false, onReject: [reject] }),
  costLimitRule({ maxCost: INTROSPECTION_LIMITS.maxCost, flattenFragments: true, ignoreIntrospection: false, propagateOnRejection: false, onReject: [reject] }),
];

export const LIMITS = {
  maxTokens: ARMOR.maxTokens.n,
  armor: new ApolloArmor(ARMOR).protect(),
  /** Validation rules beside graphql-armor's, on every path (Apollo and graphql-ws). */
  rules: introspectionRules,
};

/**
 * The kind of operation a GraphQL document asks for, read from its text without parsing it (the
 * operation named `operationName`, else the first one; `{ ... }` is a query). The entry points
 * use it to take one token (a fee for parsing) before Apollo parses and validates anything; the
 * plugin below charges the parsed operation, less that token where the guess was right.
 */
export function sniffOperation(query: string, operationName?: string | null): { kind: 'query' | 'mutation' | 'subscription'; signUp: boolean } {
  const text = query.replace(/#[^\n\r]*/g, ' ');
  const name = typeof operationName === 'string' && /^[_A-Za-z]\w*$/.test(operationName) ? operationName : null;
  const m = (name ? new RegExp(`(?:^|[\\s}])(query|mutation|subscription)\\s+${name}(?![\\w])`).exec(text) : null) ?? /(?:^|[\s}])(query|mutation|subscription)(?![\w])/.exec(text);
  const kind = /^\s*\{/.test(text) && !name ? 'query' : ((m?.[1] as 'query' | 'mutation' | 'subscription' | undefined) ?? 'query');
  return { kind, signUp: kind === 'mutation' && /\bsignUp\b/.test(text) };
}

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
            e.extensions.http = { status: 429, headers: new HeaderMap([['retry-after', String(e.details.retryAfterSeconds)]]) };
          } else if (e instanceof ApiError) e.extensions.http = { status: 400, headers: new HeaderMap() };
          throw e;
        }
      },
    };
  },
};

function peekRead(services: Services, ctx: ApiContext): ApiError | null {
  const { read } = services.limiters;
  const [key, wait] = principals(ctx)
    .map((k) => [k, read.peek(k)] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0] as const);
  if (wait <= 0) return null;
  const rate = read.rateOf(key);
  const whose = key.startsWith('client:') ? `reads per site (client ${key.slice('client:'.length)}, all its users together)` : 'reads per player';
  return rateLimited(`${whose}: at most ${rate.perSecond} per second (burst ${rate.burst})`, wait, read.state(key).bucket);
}

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
 * What every commit tells, in order (play/commit.ts calls these and imports none of them): live
 * subscriptions in this process, the push fan-out (handed off, never waited for by a subscriber),
 * ratings at a game's end (community/ratings.ts), and this instance's lobby cache once the snapshot its reads use is written. A new game's first
 * commit (`before` null) has no subscribers yet: it only changes the lobby.
 */
function commitListeners(services: Services): CommitListener[] {
  return [
    ({ before, after }) => {
      if (before) services.changes.publish(after.id);
    },
    ({ before, after }) => (before ? services.push?.gameChanged(after.id, after.version, after.status, after) : undefined),
    // The game's end: rated (exactly once whoever calls; the sweep's archive step repeats it).
    ({ before, after }) => (after.status === 'FINISHED' && before?.status !== 'FINISHED' ? rateGameSafely(services, after) : undefined),
    async ({ before, after, saved }) => {
      if (before?.status !== 'LOBBY' && after.status !== 'LOBBY') return;
      await saved;
      lobbyChanged(services.store);
    },
  ];
}

export function buildApp(config: AppConfig): {
  apollo: ApolloServer<ApiContext>;
  context: (headers: Record<string, string | undefined>, address?: string | null) => Promise<ApiContext>;
  rest: (req: RestRequest) => Promise<RestResponse>;
  sweep: (now?: Date) => Promise<SweepResult>;
  /**
   * The rate limit of one HTTP request, before Apollo parses its document: without `doc` (the
   * body not read yet) a peek at the principal's read bucket; with it, a token taken from the
   * bucket of the kind `sniffOperation` reads (reads, mutations, or sign-ups per address) and one
   * introspection token per `__schema`/`__type` in the text, noted on the context so the plugin
   * charges only the rest. Returns the error to answer (RATE_LIMITED: 429; LIMIT_EXCEEDED: 400).
   */
  gate: (ctx: ApiContext, doc?: { query: string; operationName?: string | null }) => ApiError | null;
  /** The in-process notice worker (null when a noticeQueue was given): `drain()` waits until it is idle. */
  notices: LocalQueue | null;
  /** Handles one notice-queue message (the SQS consumer's job). */
  handleNotice: (m: NoticeMessage) => Promise<void>;
  /** Attempts webhook deliveries whose next attempt is due (the local server's safety net behind its in-process queue). */
  deliverDue: (now?: Date) => Promise<number>;
  services: Services;
} {
  const keys = config.signingKeys ?? staticKeys([config.signingKey ?? '']);
  const now = config.now ?? (() => new Date());
  const services: Services = {
    store: createStore({ tableName: config.tableName, client: config.client }),
    keys,
    verifier: createVerifier({ keys, issuers: config.issuers ?? [], now, accessTokenSeconds: config.accessTokenSeconds }),
    players: createPlayerCache(),
    authConfig: {
      issuer: config.webClient?.issuer ?? null,
      clientId: config.webClient?.clientId ?? null,
      scope: config.webClient?.scope ?? `openid ${SCOPES.play}`,
      guests: true,
    },
    now,
    webhooks: { ...DEFAULT_WEBHOOKS, ...config.webhooks },
    changes: createChanges(),
    notices: config.noticeQueue ?? { send: async () => {} },
    limiters: createLimiters(config.rateLimits),
    onCommit: { noticesOf, listeners: [] },
  };
  services.onCommit.listeners.push(...commitListeners(services));
  const local = config.noticeQueue ? null : createLocalQueue((m) => handleNotice(services, m), () => services.now());
  if (local) services.notices = local;
  if (config.pushGateway) {
    // With a queue (AWS) the fan-out runs in the notice worker, not in the request's Lambda (frozen
    // once it answers); in process it runs beside the request (notify/fanout.ts).
    const pushStore = pushStoreOf(config.client, config.tableName);
    services.push = config.noticeQueue ? queuedPusher(services, services.notices, pushStore, config.pushGateway) : createFanout(services, pushStore, config.pushGateway);
  }
  const armor = LIMITS.armor;
  const apollo = new ApolloServer<ApiContext>({
    typeDefs,
    resolvers,
    // No Apollo GraphOS reporting and no federation traces: never used, and the Lambda bundles
    // leave their protobuf module out (infra/function.ts, BUNDLE_ALIASES).
    plugins: [...armor.plugins, ...(config.operationAllowlist ? [allowlistPlugin(config.operationAllowlist)] : []), rateLimitPlugin, rateHeadersPlugin, subscriptionsOverHttp, ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginInlineTraceDisabled()],
    validationRules: [...(armor.validationRules ?? []), ...LIMITS.rules],
    allowBatchedHttpRequests: false,
    parseOptions: { maxTokens: LIMITS.maxTokens },
    includeStacktraceInErrorResponses: false,
    formatError,
    introspection: true,
  });
  return {
    apollo,
    context: (headers, address) => createContext(services, headers, address ?? null),
    rest: (req) => handleRest(services, req),
    sweep: (now) => sweep(now ? { ...services, now: () => now } : services),
    gate: (ctx, doc) => {
      if (!doc) return peekRead(services, ctx);
      const { kind, signUp } = sniffOperation(doc.query, doc.operationName);
      const bucket = signUp ? 'signUp' : kind === 'mutation' ? 'write' : 'read';
      // Introspection fields counted in the raw text (comments included: a `#` inside a string
      // must not hide one), so 15 aliased schema walks are refused before they are even validated.
      const introspection = (doc.query.match(/\b__(?:schema|type)\b/g) ?? []).length;
      ctx.admitted = { [bucket]: 1, introspection };
      try {
        admit(ctx, ctx.admitted);
        return null;
      } catch (e) {
        if (e instanceof ApiError && (e.code === 'RATE_LIMITED' || e.code === 'LIMIT_EXCEEDED')) return e;
        throw e;
      }
    },
    notices: local,
    handleNotice: (m) => handleNotice(services, m),
    deliverDue: (now) => deliverDue(now ? { ...services, now: () => now } : services),
    services,
  };
}
