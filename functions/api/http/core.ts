// The service without its GraphQL server: the shared services, the request context, the REST
// routes, the rate gate, the sweep and the notice handling. The local server and the API Lambda
// add Apollo to it (app.ts, buildApp); the notice worker, the sweep and push run on this alone,
// so their bundles carry no Apollo (infra/function.ts, test/infra/bundles.test.ts).
//
// The composition root of the store: the one module in functions/api that names an adapter
// (.dependency-cruiser.cjs, api-adapters-in-root). The DynamoDB adapter by default; a caller may
// hand in any adapter of the ports instead (`store`, `pushStore`: the in-memory twin in tests).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoStore } from '../../store/dynamo/index.js';
import { createPushStore } from '../../store/dynamo/connections.js';
import type { PushStore, Store } from '../../store/index.js';
import { CONNECTION_TTL_SECONDS, MAX_SUBSCRIPTIONS, type PushGateway } from '../../push/protocol.js';
import { admit, type ApiContext, createContext } from '../context.js';
import type { CommitListener, MailSetup, NoticeMessage, NoticeQueue, Services, WebhookConfig } from '../services.js';
import { createVerifier, type IssuerConfig, SCOPES } from '../accounts/auth.js';
import { createPlayerCache } from '../accounts/accounts.js';
import { type KeySource, staticKeys } from '../accounts/keys.js';
import { handleRest, type RestRequest, type RestResponse } from './rest.js';
import { createChanges } from '../play/changes.js';
import { deliverDue, sweep, type SweepResult } from '../ops/sweep.js';
import { DEFAULT_WEBHOOKS } from '../notify/webhooks.js';
import { createLocalQueue, handleNotice, type LocalQueue } from '../notify/notices.js';
import { noticesOf } from '../notify/notify.js';
import { createFanout, queuedPusher } from '../notify/fanout.js';
import { lobbyChanged } from '../lobby/lobby-cache.js';
import { createLimiters, principals, rateLimited, type RateConfig } from './ratelimit.js';
import { ApiError } from '../errors.js';
import { rateGameSafely } from '../community/ratings.js';
import { countGameSafely } from '../community/profile.js';

/**
 * Where the service keeps its records: an adapter of the store's ports (`store`), or the
 * DynamoDB table the default adapter uses. The push connections (`pushStore`, where push is on)
 * default to the same table; with an injected store and push on, hand in a pushStore too.
 */
export type StoreConfig =
  | { store: Store; pushStore?: PushStore; tableName?: string; client?: DynamoDBDocumentClient }
  | { store?: undefined; pushStore?: PushStore; tableName: string; client: DynamoDBDocumentClient };

export type AppConfig = StoreConfig & ServiceConfig;

/** Everything but the store. */
export interface ServiceConfig {
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
  /**
   * With a notice queue and no gateway (the sweep): still hand each commit's version to the queue,
   * where the notice worker (which has the gateway) fans it out.
   */
  pushHandOff?: boolean;
  /** The notice queue (AWS: SQS); default: an in-process worker (`app.notices`). */
  noticeQueue?: NoticeQueue;
  /** Per-instance rate limits (default RATES; false: none, for tests and benches at machine speed). */
  rateLimits?: RateConfig;
  /** Run only these documents (ids from `npm run allowlist`; allowlist.ts); default: any document. */
  operationAllowlist?: ReadonlySet<string>;
  /** E-mail reminders: link addresses and (where mail is sent: the sweep, the local server) the transport; none: no e-mail. */
  mail?: MailSetup;
}

/**
 * The kind of operation a GraphQL document asks for, read from its text without parsing it (the
 * operation named `operationName`, else the first one; `{ ... }` is a query). The entry points
 * use it to take one token (a fee for parsing) before Apollo parses and validates anything; the
 * plugin below charges the parsed operation, less that token where the guess was right.
 */
export function sniffOperation(
  query: string,
  operationName?: string | null,
): { kind: 'query' | 'mutation' | 'subscription'; signUp: boolean } {
  const text = query.replace(/#[^\n\r]*/g, ' ');
  const name = typeof operationName === 'string' && /^[_A-Za-z]\w*$/.test(operationName) ? operationName : null;
  const m =
    (name ? new RegExp(`(?:^|[\\s}])(query|mutation|subscription)\\s+${name}(?![\\w])`).exec(text) : null) ??
    /(?:^|[\s}])(query|mutation|subscription)(?![\w])/.exec(text);
  const kind =
    /^\s*\{/.test(text) && !name ? 'query' : ((m?.[1] as 'query' | 'mutation' | 'subscription' | undefined) ?? 'query');
  return { kind, signUp: kind === 'mutation' && /\bsignUp\b/.test(text) };
}

function peekRead(services: Services, ctx: ApiContext): ApiError | null {
  const { read } = services.limiters;
  const [key, wait] = principals(ctx)
    .map((k) => [k, read.peek(k)] as const)
    .reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0] as const);
  if (wait <= 0) return null;
  const rate = read.rateOf(key);
  const whose = key.startsWith('client:')
    ? `reads per site (client ${key.slice('client:'.length)}, all its users together)`
    : 'reads per player';
  return rateLimited(
    `${whose}: at most ${rate.perSecond} per second (burst ${rate.burst})`,
    wait,
    read.state(key).bucket,
  );
}

/**
 * What every commit tells, in order (play/commit.ts calls these and imports none of them): live
 * subscriptions in this process, the push fan-out (handed off, never waited for by a subscriber),
 * ratings at a game's end (community/ratings.ts), and this instance's lobby cache once the
 * snapshot its reads use is written. A new game's first
 * commit (`before` null) has no subscribers yet: it only changes the lobby.
 */
function commitListeners(services: Services): CommitListener[] {
  return [
    ({ before, after }) => {
      if (before) services.changes.publish(after.id);
    },
    ({ before, after }) =>
      before ? services.push?.gameChanged(after.id, after.version, after.status, after) : undefined,
    // The game's end: rated (exactly once whoever calls; the sweep's archive step repeats it).
    ({ before, after }) =>
      after.status === 'FINISHED' && before?.status !== 'FINISHED' ? rateGameSafely(services, after) : undefined,
    // ... and counted in its players' profiles (exactly once, the same way).
    ({ before, after }) =>
      after.status === 'FINISHED' && before?.status !== 'FINISHED' ? countGameSafely(services, after) : undefined,
    async ({ before, after, saved }) => {
      if (before?.status !== 'LOBBY' && after.status !== 'LOBBY') return;
      await saved;
      lobbyChanged(services.store);
    },
  ];
}

export interface Core {
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
}

/** The push connections' store on a DynamoDB table, with the push protocol's bounds (the roots' default). */
export function pushStoreOf(client: DynamoDBDocumentClient, tableName: string): PushStore {
  return createPushStore({
    tableName,
    client,
    maxSubscriptions: MAX_SUBSCRIPTIONS,
    ttlSeconds: CONNECTION_TTL_SECONDS,
  });
}

function storeOf(config: StoreConfig): Store {
  return config.store ?? createDynamoStore({ tableName: config.tableName, client: config.client });
}

/** The push store: the one handed in, else the DynamoDB adapter on the table. */
function pushStoreFor(config: StoreConfig): PushStore {
  if (config.pushStore) return config.pushStore;
  if (config.client && config.tableName) return pushStoreOf(config.client, config.tableName);
  throw new Error('push needs a pushStore beside an injected store (or a DynamoDB table)');
}

/**
 * The push fan-out, when there is one. With a queue (AWS) it runs in the notice worker, not in
 * the request's Lambda (frozen once it answers); in process it runs beside the request
 * (notify/fanout.ts).
 */
function wirePush(services: Services, config: AppConfig): void {
  const pushStore = () => pushStoreFor(config);
  if (config.noticeQueue && (config.pushGateway || config.pushHandOff))
    services.push = queuedPusher(services, config.noticeQueue, pushStore(), config.pushGateway);
  else if (config.pushGateway) services.push = createFanout(services, pushStore(), config.pushGateway);
}

/** Core.gate: the rate limit of one HTTP request, before Apollo parses its document. */
function gate(services: Services, ctx: ApiContext, doc?: { query: string; operationName?: string | null }) {
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
}

/** Builds the service (everything but the GraphQL server) from its configuration. */
export function buildCore(config: AppConfig): Core {
  const keys = config.signingKeys ?? staticKeys([config.signingKey ?? '']);
  const now = config.now ?? (() => new Date());
  const services: Services = {
    store: storeOf(config),
    keys,
    verifier: createVerifier({
      keys,
      issuers: config.issuers ?? [],
      now,
      accessTokenSeconds: config.accessTokenSeconds,
    }),
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
    ...(config.mail ? { mail: config.mail } : {}),
  };
  services.onCommit.listeners.push(...commitListeners(services));
  const local = config.noticeQueue
    ? null
    : createLocalQueue(
        (m) => handleNotice(services, m),
        () => services.now(),
      );
  if (local) services.notices = local;
  wirePush(services, config);
  return {
    context: (headers, address) => createContext(services, headers, address ?? null),
    rest: (req) => handleRest(services, req),
    sweep: (now) => sweep(now ? { ...services, now: () => now } : services),
    gate: (ctx, doc) => gate(services, ctx, doc),
    notices: local,
    handleNotice: (m) => handleNotice(services, m),
    deliverDue: (now) => deliverDue(now ? { ...services, now: () => now } : services),
    services,
  };
}
