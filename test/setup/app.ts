// An in-process app on the store's in-memory adapters (or, asked for, a fresh table on the shared
// dynalite), and a GraphQL caller through Apollo's executeOperation: the API tests, the fast loop.
// End-to-end tests go over real HTTP on dynalite (test/setup/http.ts); reliability tests and the
// few API tests that read DynamoDB items themselves ask for `store: 'dynamodb'`.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildApp } from '../../functions/api/http/app.js';
import { freshTable } from './db.js';
import { uniqueNames } from './names.js';

export const SIGNING_KEY = 'test-signing-key-0123456789-abcdefghijklmnop';

export interface GqlResult<T = any> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string; [k: string]: unknown }; path?: unknown[] }[];
}

type AppConfig = Parameters<typeof buildApp>[0];

export interface TestAppOptions {
  now?: () => Date;
  webhooks?: AppConfig['webhooks'];
  rateLimits?: AppConfig['rateLimits'];
  issuers?: AppConfig['issuers'];
  accessTokenSeconds?: number;
  mail?: AppConfig['mail'];
  /** The store's adapter: a fresh in-memory store (default), or a fresh table on the shared dynalite. */
  store?: 'dynamodb' | 'memory';
}

/** Where a test app keeps its records: a fresh table, or (memory) no client and the store's label. */
async function storeFor(kind: TestAppOptions['store']) {
  if (kind !== 'dynamodb') {
    const { createMemoryStore } = await import('../../functions/store/memory/index.js');
    const store = createMemoryStore('api-memory');
    return { store, client: null, tableName: store.tableName };
  }
  return freshTable('api');
}

/**
 * An app on fresh in-memory adapters (`client` null), or with `store: 'dynamodb'` on a fresh table
 * of the shared dynalite (`client` its document client). With an injected clock (tests that jump hours or days ahead), the
 * service's own access tokens last a year, so a token signed up at the start stays valid.
 */
export async function testApp(opts: TestAppOptions & { store: 'dynamodb' }): Promise<TestApp<DynamoDBDocumentClient>>;
export async function testApp(opts?: TestAppOptions): Promise<TestApp<null>>;
export async function testApp(opts: TestAppOptions = {}): Promise<TestApp<DynamoDBDocumentClient | null>> {
  const where = await storeFor(opts.store);
  const { client, tableName } = where;
  // Tests drive games at machine speed: no per-instance rate limits unless a test asks for them.
  const app = buildApp({
    ...('store' in where ? { store: where.store } : { tableName, client: where.client }),
    signingKey: SIGNING_KEY,
    now: opts.now,
    webhooks: opts.webhooks,
    rateLimits: opts.rateLimits ?? false,
    issuers: opts.issuers,
    mail: opts.mail,
    accessTokenSeconds: opts.accessTokenSeconds ?? (opts.now ? 365 * 24 * 3600 : undefined),
  });
  await app.apollo.start();
  async function gql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    token?: string,
  ): Promise<GqlResult<T>> {
    const contextValue = await app.context(token === undefined ? {} : { authorization: `Bearer ${token}` });
    const r = await app.apollo.executeOperation({ query, variables }, { contextValue });
    if (r.body.kind !== 'single') throw new Error('incremental answer');
    return JSON.parse(JSON.stringify(r.body.singleResult)) as GqlResult<T>;
  }
  const nameFor = uniqueNames();
  /** A guest named `base` (or `base 2`, ... when this table already has one: names are unique). */
  async function signUp(base: string): Promise<{ playerId: string; token: string; name: string }> {
    const name = nameFor(base);
    const r = await gql(`mutation($n: String!) { signUp(name: $n) { playerId token } }`, { n: name });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return { ...r.data.signUp, name };
  }
  return { app, client, tableName, gql, signUp, close: () => app.apollo.stop() };
}

/** A test app on a fresh dynalite table (`testApp({ store: 'dynamodb' })`). */
export type DynamoTestApp = TestApp<DynamoDBDocumentClient>;

export interface TestApp<C> {
  app: ReturnType<typeof buildApp>;
  client: C;
  tableName: string;
  gql: <T = any>(query: string, variables?: Record<string, unknown>, token?: string) => Promise<GqlResult<T>>;
  signUp: (base: string) => Promise<{ playerId: string; token: string; name: string }>;
  close: () => Promise<void>;
}

/** The error code of the first error (and a check that it never carries a stack trace). */
export function codeOf(r: GqlResult): string | undefined {
  for (const e of r.errors ?? []) {
    if (JSON.stringify(e).includes('stacktrace') || JSON.stringify(e).includes('    at '))
      throw new Error(`stack trace leaked: ${JSON.stringify(e)}`);
  }
  return r.errors?.[0]?.extensions?.code;
}

export const GAME_FIELDS = `
  id status edition board boardInfo creatorId seatCount decisionTimeLimitHours createdAt updatedAt version lastSeq
  round day phase island { seat rank } days bagSize awaiting pending { seat kind promptId }
  seats { seat playerId name isBot isOpen hasChosen awaited deadline doubloons score handSize den graveyard graveyardSize loot { kind count } lootCount reputation }
  me { seat hand choice choiceDeadline prompts { id kind text deadline options { id label } } }
  ranking { place seat name score } seed seedCommitment seedChosenBy { playerId name }`;
