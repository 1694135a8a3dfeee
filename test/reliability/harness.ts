// Reliability harness: the app wired exactly as the local server wires it (buildApp + the
// node:http adapter of functions/local/http.ts) on 127.0.0.1, on a fresh table of the shared
// dynalite, with an AWS SDK middleware on the app's own DynamoDB client that can make writes
// fail (fault injection), and a second, clean client to inspect what is stored.
//
// Sizes: CI numbers by default; `npm run stress` sets STRESS=1 for the big ones.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { buildApp } from '../../functions/api/http/app.js';
import { getGame } from '../../functions/api/play/games.js';
import type { RateConfig } from '../../functions/api/http/ratelimit.js';
import { localDocumentClient } from '../../functions/local/dynalite.js';
import { createHttpServer } from '../../functions/local/http.js';
import { createDynamoStore, createTable } from '../../functions/store/index.js';
import { eachLimited } from '../../functions/store/dynamo/db.js';
import { SIGNING_KEY } from '../setup/app.js';
import { uniqueNames } from '../setup/names.js';

export { size, STRESS, timeout } from '../setup/stress.js';

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

export class InjectedFault extends Error {
  constructor(k: number) {
    super(`injected fault at write ${k}`);
    this.name = 'InjectedFault';
  }
}

export interface HttpAnswer {
  status: number;
  text: string;
  json: any;
}

export async function startHarness(opts: { now?: () => Date; rateLimits?: RateConfig } = {}) {
  const client = localDocumentClient(inject('dynamoEndpoint'));
  const clean = localDocumentClient(inject('dynamoEndpoint'));
  const tableName = `rel-${randomUUID().slice(0, 8)}`;
  await createTable(client as never, tableName);

  // Fault injection: once armed with k, the k-th write from then on and every later one fail
  // before they reach the store (a crash between write k-1 and write k). Counting always.
  let writes = 0;
  let failFrom = Infinity;
  let failed = 0;
  let killAfterCommit = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context as { commandName?: string }).commandName ?? '';
      // Writes that run after the answer, off the move's path, are not the move's writes: the
      // notice worker's outbox clear (a fault there leaves the outbox to the sweep:
      // test/api/notify/notices.test.ts) and a finished game's listeners on the players'
      // items (profile counters, ratings: test/api/community). A move itself writes only its game's
      // partition.
      const input = args.input as { UpdateExpression?: unknown; Key?: { PK?: unknown }; Item?: { PK?: unknown } };
      const offPath =
        (name === 'UpdateItemCommand' && String(input.UpdateExpression).startsWith('REMOVE GSI3PK')) ||
        String(input.Key?.PK ?? input.Item?.PK ?? '').startsWith('PLAYER#');
      if (WRITES.has(name) && !offPath) {
        writes++;
        if (writes >= failFrom) {
          failed++;
          throw new InjectedFault(writes);
        }
      }
      const out = await next(args);
      // The process "dies" right after a commit item is written: nothing after it happens.
      const sk = (args.input as { Item?: { SK?: unknown } }).Item?.SK;
      const key = typeof sk === 'string' ? sk : (sk as { S?: string } | undefined)?.S;
      if (killAfterCommit && name === 'PutItemCommand' && key?.startsWith('COMMIT#')) {
        failed++;
        throw new InjectedFault(writes);
      }
      return out;
    },
    { step: 'initialize', name: 'reliabilityFaults' },
  );
  const faults = {
    /** Counts writes from zero; the k-th write from now on (1-based) and all later ones fail. */
    arm(k: number) {
      writes = 0;
      failed = 0;
      failFrom = k;
    },
    /** Counts writes from zero without failing any. */
    count() {
      writes = 0;
      failed = 0;
      failFrom = Infinity;
    },
    disarm() {
      failFrom = Infinity;
      killAfterCommit = false;
    },
    /** Every commit item written from now on is written, then the request "dies" (throws) before anything else. */
    killAfterCommits() {
      failed = 0;
      killAfterCommit = true;
    },
    get writes() {
      return writes;
    },
    get failed() {
      return failed;
    },
  };

  // Machine-speed clients: no per-instance rate limits unless the test asks (hostile tests do).
  const app = buildApp({
    tableName,
    client,
    signingKey: SIGNING_KEY,
    now: opts.now,
    rateLimits: opts.rateLimits ?? false,
  });
  await app.apollo.start();
  const server = createHttpServer(app);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Any HTTP request to the server; the body parsed as JSON when it is JSON. */
  async function http(path: string, init: RequestInit = {}): Promise<HttpAnswer> {
    const res = await fetch(`${url}${path}`, init);
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json };
  }

  async function gql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    token?: string,
  ): Promise<{ data?: T; errors?: any[] }> {
    const r = await http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    if (r.json === undefined) throw new Error(`not JSON (HTTP ${r.status}): ${r.text.slice(0, 200)}`);
    return r.json;
  }

  const nameFor = uniqueNames();
  /** A guest named `base` (or `base 2`, ... when this table already has one: names are unique). */
  async function signUp(base: string): Promise<{ playerId: string; token: string; name: string }> {
    const name = nameFor(base);
    const r = await gql(`mutation($n: String!) { signUp(name: $n) { playerId token } }`, { n: name });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return { ...r.data.signUp, name };
  }

  const store = createDynamoStore({ tableName, client: clean });
  /** The game as stored (its snapshot with the commits past it folded in), read with the clean client. */
  const game = (id: string) => getGame({ ...app.services, store }, id);

  /**
   * Every item of a game's partition (snapshot, commits, members, request records), as stored
   * once the work after the last answer is done (the in-process notice worker clears each
   * commit's outbox after the answer: drained first, so two reads compare settled states).
   */
  async function partition(gameId: string): Promise<Record<string, unknown>[]> {
    await app.notices?.drain();
    const out: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const r = await clean.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': `GAME#${gameId}` },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      out.push(...(r.Items ?? []));
      startKey = r.LastEvaluatedKey;
    } while (startKey);
    return out;
  }

  /** Writes a copy of a partition snapshot under a new game id (same players, same state). */
  async function clone(items: Record<string, unknown>[], fromId: string): Promise<string> {
    const id = randomUUID();
    const swap = (v: unknown) => (typeof v === 'string' ? v.split(fromId).join(id) : v);
    await eachLimited(items, 8, async (it) => {
      const copy: Record<string, unknown> = { ...it };
      for (const k of ['PK', 'gameId', 'GSI1SK', 'GSI2SK']) if (k in copy) copy[k] = swap(copy[k]);
      await clean.send(new PutCommand({ TableName: tableName, Item: copy }));
    });
    return id;
  }

  return {
    url,
    app,
    client,
    store,
    game,
    tableName,
    faults,
    http,
    gql,
    signUp,
    partition,
    clone,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await app.apollo.stop();
      client.destroy();
      clean.destroy();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`;
export const JOIN = `mutation($g: ID!) { joinGame(gameId: $g) { id } }`;
export const START = `mutation($g: ID!) { startGame(gameId: $g) { id status } }`;

/** Signs up `humans` players, creates a game with `input` (seat 0 is the first), joins and starts it. */
export async function newGame(h: Harness, input: Record<string, unknown>, humans: number, name = 'Pirate') {
  const players = [];
  for (let i = 0; i < humans; i++) players.push(await h.signUp(`${name} ${i}`));
  const created = await h.gql(CREATE, { i: input }, players[0].token);
  if (created.errors) throw new Error(JSON.stringify(created.errors));
  const id = created.data!.createGame.id as string;
  for (const p of players.slice(1)) {
    const j = await h.gql(JOIN, { g: id }, p.token);
    if (j.errors) throw new Error(JSON.stringify(j.errors));
  }
  const s = await h.gql(START, { g: id }, players[0].token);
  if (s.errors) throw new Error(JSON.stringify(s.errors));
  return { id, players, tokens: players.map((p) => p.token) };
}

/** Runs `fn` over `items`, at most `limit` at once. */
export const parallel = eachLimited;
