// The API under load on the local stack (dynalite in-process, the app wired as the local server
// does it: buildApp + the node:http adapter), and the DynamoDB cost of a game.
// Used by scripts/bench.ts (`npm run bench`); `npx tsx scripts/bench-load.ts [--quick]` alone.
//
// - Latency: bot clients play 4-seat classic games through GraphQL over HTTP, C games at once
//   (C = 1, 10, 100). Every move of a seat is `{ __typename }` (the trivial baseline, under the
//   same load), `game(id)` (its own view) and then `playCard` or `answerPrompt`.
// - Cost: one 4-player game played alone, every DynamoDB call sent with
//   ReturnConsumedCapacity: 'TOTAL' (an SDK middleware on the app's real client) and the
//   returned ConsumedCapacity summed.
import type { AddressInfo } from 'node:net';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildApp } from '../functions/api/http/app.js';
import { botRandom } from '../functions/engine/index.js';
import { localDocumentClient, startDynalite } from '../functions/local/dynalite.js';
import { createHttpServer } from '../functions/local/http.js';
import { createTable } from '../functions/store/index.js';
import type { NoticeQueue } from '../functions/api/services.js';

/**
 * DynamoDB on-demand prices, us-east-1 (N. Virginia), standard table class, as published on
 * the AWS pricing page after the 1 November 2024 price cut (checked 2025): $0.625 per million
 * write request units, $0.125 per million read request units. Other regions cost more.
 */
export const PRICES = { region: 'us-east-1', date: '2024-11-01 (price list checked 2025)', usdPerMillionWRU: 0.625, usdPerMillionRRU: 0.125 };

const READS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'ScanCommand']);
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);

export interface Capacity {
  readUnits: number;
  writeUnits: number;
  reads: number;
  writes: number;
  /** Calls whose answer carried no ConsumedCapacity (should stay 0). */
  missing: number;
  /** Queries whose units were computed from item sizes (dynalite reports 0 for them). */
  computed: number;
  byCommand: Record<string, { calls: number; units: number }>;
}

const emptyCapacity = (): Capacity => ({ readUnits: 0, writeUnits: 0, reads: 0, writes: 0, missing: 0, computed: 0, byCommand: {} });

/** DynamoDB's item size: attribute names plus values (UTF-8 strings, numbers about 1 byte per 2 digits + 1). */
function itemBytes(item: Record<string, unknown>): number {
  let n = 0;
  for (const [k, v] of Object.entries(item)) {
    n += Buffer.byteLength(k);
    if (typeof v === 'string') n += Buffer.byteLength(v);
    else if (typeof v === 'number') n += Math.ceil(String(Math.abs(v)).replace('.', '').length / 2) + 1;
    else n += Buffer.byteLength(JSON.stringify(v) ?? '');
  }
  return n;
}

/** Adds ReturnConsumedCapacity: 'TOTAL' to every call of `client` and sums what comes back. */
export function meterCapacity(client: DynamoDBDocumentClient): { get: () => Capacity; reset: () => void; pause: (on: boolean) => void } {
  let cur = emptyCapacity();
  let paused = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context as { commandName?: string }).commandName ?? '?';
      const isRead = READS.has(name);
      const isWrite = WRITES.has(name);
      if ((!isRead && !isWrite) || paused) return next(args);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const cc = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      const list = cc === undefined ? [] : Array.isArray(cc) ? cc : [cc];
      let units = list.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
      if (list.length === 0) cur.missing++;
      if (name === 'QueryCommand' && units === 0) {
        // dynalite answers 0 for queries; DynamoDB charges the items read, rounded up to
        // 4 KB, at least one unit (half for eventually consistent reads).
        const input = args.input as { ConsistentRead?: boolean };
        const items = ((out.output as { Items?: Record<string, unknown>[] }).Items ?? []).reduce((n, it) => n + itemBytes(it), 0);
        units = Math.max(1, Math.ceil(items / 4096)) * (input.ConsistentRead ? 1 : 0.5);
        cur.computed++;
      }
      if (isRead) {
        cur.reads++;
        cur.readUnits += units;
      } else {
        cur.writes++;
        cur.writeUnits += units;
      }
      const b = (cur.byCommand[name] ??= { calls: 0, units: 0 });
      b.calls++;
      b.units += units;
      return out;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  return { get: () => cur, reset: () => void (cur = emptyCapacity()), pause: (on) => void (paused = on) };
}

export interface Stack {
  url: string;
  client: DynamoDBDocumentClient;
  capacity: ReturnType<typeof meterCapacity>;
  close: () => Promise<void>;
}

/** dynalite in this process, the app on a metered client, the local server's HTTP adapter on 127.0.0.1. */
export async function startStack(opts: { noticeQueue?: NoticeQueue } = {}): Promise<Stack> {
  const dynamo = await startDynalite();
  const client = localDocumentClient(dynamo.endpoint);
  const capacity = meterCapacity(client);
  await createTable(client as never, 'bench');
  // Bot clients at machine speed: the per-instance rate limits would measure themselves.
  const app = buildApp({ tableName: 'bench', client, signingKey: 'bench-signing-key-0123456789-abcdefghijkl', rateLimits: false, ...opts });
  await app.apollo.start();
  const server = createHttpServer(app);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    client,
    capacity,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await app.apollo.stop();
      client.destroy();
      await dynamo.close();
    },
  };
}

type Post = (query: string, variables?: Record<string, unknown>, token?: string) => Promise<any>;

function poster(url: string, record?: (label: string, ms: number) => void): (label: string) => Post {
  return (label) => async (query, variables = {}, token) => {
    const t0 = performance.now();
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    record?.(label, performance.now() - t0);
    if (body.errors) throw new Error(`${label}: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
}

const VIEW = `status phase awaiting pending { seat } me { seat hand choice prompts { id options { id } } }`;
const GAME = `query($id: ID!) { game(id: $id) { id status round day phase awaiting island { seat rank } days bagSize
  seats { seat name isBot hasChosen awaited deadline doubloons score handSize den graveyardSize lootCount loot { kind count } }
  me { seat hand choice choiceDeadline prompts { id kind text deadline options { id label } } } } }`;
const PLAY = `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { ${VIEW} } }`;
const ANSWER = `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { ${VIEW} } }`;
const PLAY_ID = `mutation($g: ID!, $r: Int!, $q: ID) { playCard(gameId: $g, rank: $r, requestId: $q) { ${VIEW} } }`;
const ANSWER_ID = `mutation($g: ID!, $p: ID!, $o: ID!, $q: ID) { answerPrompt(gameId: $g, promptId: $p, optionId: $o, requestId: $q) { ${VIEW} } }`;

export interface GameStats {
  id: string;
  /** Card choices and prompt answers (from the log: cardChosen + answered events). */
  decisions: number;
  /** Days advanced (sunrise events in the log). */
  days: number;
}

/**
 * One 4-seat classic game, every seat a client-side bot (random legal moves) with its own
 * token. The seats the game awaits act at once, each: trivial query, game query, its move.
 */
export async function botGame(url: string, seed: number, record?: (label: string, ms: number) => void, stopAt = Infinity, edition: Edition = 'CLASSIC'): Promise<GameStats & { finished: boolean }> {
  const p = poster(url, record);
  const setup = p('setup');
  const rnd = botRandom(seed);
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++) tokens.push((await setup(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: `Client ${i}` })).signUp.token);
  const id = (await setup(`mutation($s: String) { createGame(input: { edition: ${edition}, seats: 4, seed: $s }) { id } }`, { s: `load${seed}` }, tokens[0])).createGame.id as string;
  for (const t of tokens.slice(1)) await setup(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, t);
  let g = (await setup(`mutation($g: ID!) { startGame(gameId: $g) { ${VIEW} } }`, { g: id }, tokens[0])).startGame;
  for (let step = 0; step < 2000 && g.status !== 'FINISHED' && performance.now() < stopAt; step++) {
    const seats: number[] = g.awaiting;
    const answers = await Promise.all(
      seats.map(async (seat) => {
        await p('{ __typename }')(`{ __typename }`);
        const mine = (await p('game')(GAME, { id }, tokens[seat])).game;
        if (mine.status === 'FINISHED' || !mine.awaiting.includes(seat)) return null;
        const prompt = mine.me.prompts[0];
        if (prompt) return (await p('answerPrompt')(ANSWER, { g: id, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id }, tokens[seat])).answerPrompt;
        return (await p('playCard')(PLAY, { g: id, r: mine.me.hand[Math.floor(rnd() * mine.me.hand.length)] }, tokens[seat])).playCard;
      }),
    );
    // Any answer's public fields are current enough; re-read if every seat found nothing to do.
    g = answers.find((a) => a !== null) ?? (await setup(`query($id: ID!) { game(id: $id) { ${VIEW} } }`, { id }, tokens[0])).game;
  }
  if (g.status !== 'FINISHED' && performance.now() < stopAt) throw new Error(`game ${id} did not finish`);
  return { id, decisions: -1, days: -1, finished: g.status === 'FINISHED' };
}

/** Counts decisions and advances in a finished game's log. */
export async function logStats(url: string, id: string): Promise<GameStats> {
  const p = poster(url)('log');
  let decisions = 0;
  let days = 0;
  for (let after = 0, i = 0; i < 1000; i++) {
    const page = (await p(`query($g: ID!, $a: Int) { events(gameId: $g, after: $a, limit: 100) { events { seq type } hasMore } }`, { g: id, a: after })).events;
    for (const e of page.events) {
      if (e.type === 'cardChosen' || e.type === 'answered') decisions++;
      if (e.type === 'sunrise') days++;
    }
    if (!page.hasMore) break;
    after = page.events[page.events.length - 1].seq;
  }
  return { id, decisions, days };
}

const pct = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((q / 100) * s.length))];
};

export interface LatencyRow {
  concurrentGames: number;
  query: string;
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  xTrivialP50: number;
  xTrivialP95: number;
  xTrivialP99: number;
}

export interface LoadLevel {
  concurrentGames: number;
  /** 'complete': every slot plays whole games; 'window': games in flight are cut at the end of the window. */
  mode: 'complete' | 'window';
  gamesCompleted: number;
  seconds: number;
  /** Measured on complete games; in window mode: requests/s divided by requests per complete game (projected). */
  gamesPerMinute: number;
  requests: number;
  requestsPerSecond: number;
}

const bar = (label: string, done: number, total: number, extra = '') => {
  const w = 24;
  const k = Math.min(w, Math.round((done / total) * w));
  process.stderr.write(`\r${label} [${'#'.repeat(k)}${'.'.repeat(w - k)}] ${done}/${total} ${extra}   `);
};

/**
 * C game slots play games back to back; each level runs for at least `seconds` and until
 * each slot has finished its current game (so every counted game is complete).
 */
export async function loadLevel(
  url: string,
  concurrentGames: number,
  minGames: number,
  seconds: number,
  mode: 'complete' | 'window',
  requestsPerGame = NaN,
): Promise<{ level: LoadLevel; rows: LatencyRow[]; requestsPerGame: number }> {
  const times = new Map<string, number[]>();
  let requests = 0;
  const record = (label: string, ms: number) => {
    requests++;
    if (label === 'setup') return;
    let a = times.get(label);
    if (!a) times.set(label, (a = []));
    a.push(ms);
  };
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  let completed = 0;
  let seed = concurrentGames * 100_000;
  const target = mode === 'window' ? concurrentGames : Math.max(minGames, concurrentGames);
  const stopAt = mode === 'window' ? until : Infinity;
  const label = `api: ${String(concurrentGames).padStart(3)} concurrent games`;
  const tick = () =>
    mode === 'window' ? bar(label, Math.min(seconds, Math.round((performance.now() - t0) / 1000)), seconds, `s, ${requests} requests`) : bar(label, completed, target, `${requests} requests`);
  const timer = setInterval(tick, 1000);
  try {
    await Promise.all(
      Array.from({ length: concurrentGames }, async () => {
        // Every slot plays at least one game; more while time and the game target allow.
        do {
          if ((await botGame(url, seed++, record, stopAt)).finished) completed++;
        } while (performance.now() < until && completed + concurrentGames <= target);
      }),
    );
  } finally {
    clearInterval(timer);
    tick();
    process.stderr.write('\n');
  }
  const secs = (performance.now() - t0) / 1000;
  const base = times.get('{ __typename }') ?? [];
  const rows = ['{ __typename }', 'game', 'playCard', 'answerPrompt'].map((query) => {
    const ts = times.get(query) ?? [];
    return {
      concurrentGames,
      query,
      samples: ts.length,
      p50: pct(ts, 50),
      p95: pct(ts, 95),
      p99: pct(ts, 99),
      xTrivialP50: pct(ts, 50) / pct(base, 50),
      xTrivialP95: pct(ts, 95) / pct(base, 95),
      xTrivialP99: pct(ts, 99) / pct(base, 99),
    };
  });
  const perGame = mode === 'complete' ? requests / completed : requestsPerGame;
  const gamesPerMinute = mode === 'complete' ? (completed / secs) * 60 : (requests / secs / perGame) * 60;
  return {
    level: { concurrentGames, mode, gamesCompleted: completed, seconds: secs, gamesPerMinute, requests, requestsPerSecond: requests / secs },
    rows,
    requestsPerGame: perGame,
  };
}

export type Edition = 'CLASSIC' | 'GALECREST';

export interface CostRow {
  edition: Edition;
  games: number;
  decisionsPerGame: number;
  advancesPerGame: number;
  minimumWrites: number;
  writeRequests: number;
  writeUnits: number;
  readRequests: number;
  readUnits: number;
  writesVsMinimum: number;
  /** Write units, write calls and read units as multiples of the minimum (one small write per decision and per advance). */
  writeUnitsVsMinimum: number;
  readUnitsVsMinimum: number;
  usdPer1000Games: number;
  byCommand: Record<string, { calls: number; units: number }>;
  source: string;
}

/** Capacity of complete 4-player games played one at a time (no lost races), averaged. */
export async function cost(stack: Stack, games: number, edition: Edition = 'CLASSIC'): Promise<CostRow> {
  let decisions = 0;
  let days = 0;
  stack.capacity.reset();
  for (let i = 0; i < games; i++) {
    const { id } = await botGame(stack.url, 900_000 + i, undefined, Infinity, edition);
    stack.capacity.pause(true);
    const s = await logStats(stack.url, id);
    stack.capacity.pause(false);
    decisions += s.decisions;
    days += s.days;
    bar(`cost: 4-player ${edition.toLowerCase()} games`, i + 1, games);
  }
  process.stderr.write('\n');
  const c = stack.capacity.get();
  if (c.missing > 0) throw new Error(`${c.missing} DynamoDB answers carried no ConsumedCapacity`);
  const per = (x: number) => x / games;
  const byCommand = Object.fromEntries(Object.entries(c.byCommand).map(([k, v]) => [k, { calls: per(v.calls), units: per(v.units) }]));
  const minimumWrites = per(decisions + days);
  return {
    edition,
    games,
    decisionsPerGame: per(decisions),
    advancesPerGame: per(days),
    minimumWrites,
    writeRequests: per(c.writes),
    writeUnits: per(c.writeUnits),
    readRequests: per(c.reads),
    readUnits: per(c.readUnits),
    writesVsMinimum: per(c.writes) / minimumWrites,
    writeUnitsVsMinimum: per(c.writeUnits) / minimumWrites,
    readUnitsVsMinimum: per(c.readUnits) / minimumWrites,
    usdPer1000Games: (per(c.writeUnits) * PRICES.usdPerMillionWRU + per(c.readUnits) * PRICES.usdPerMillionRRU) / 1000,
    byCommand,
    source:
      'ConsumedCapacity returned by dynalite for every call (table units; the key-only GSI entries are not counted); ' +
      `Query units (${(c.computed / games).toFixed(0)} per game), reported as 0 by dynalite, computed from item sizes with DynamoDB's 4 KB rounding`,
  };
}

/** DynamoDB calls one request made, as `<reads> read(s) + <writes> write(s)`, and how often. */
export interface RequestPathRow {
  query: 'playCard' | 'answerPrompt';
  requestId: boolean;
  samples: number;
  /** e.g. { '1 read + 1 write': 60, '1 read + 2 writes': 40 } (percent of samples). */
  shapes: Record<string, number>;
  maxReads: number;
  maxWrites: number;
}

/**
 * The DynamoDB calls on the request path of playCard and answerPrompt: a 4-player game of each
 * edition played one request at a time, the calls of each move counted between its start and
 * its answer. The stack's notice queue is a no-op here (locally the hand-off is in memory; the
 * worker's reads and writes happen after the answer, off the request path).
 */
export async function requestPath(): Promise<RequestPathRow[]> {
  const stack = await startStack({ noticeQueue: { send: async () => {} } });
  const rows = new Map<string, { n: number; shapes: Record<string, number>; maxReads: number; maxWrites: number }>();
  try {
    const p = poster(stack.url)('path');
    for (const [edition, withRequestId] of [['CLASSIC', false], ['GALECREST', false], ['CLASSIC', true]] as [Edition, boolean][]) {
      const tokens: string[] = [];
      for (let i = 0; i < 4; i++) tokens.push((await p(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: `Path ${edition} ${i}` })).signUp.token);
      const id = (await p(`mutation { createGame(input: { edition: ${edition}, seats: 4, seed: "path" }) { id } }`, {}, tokens[0])).createGame.id as string;
      for (const t of tokens.slice(1)) await p(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, t);
      let g = (await p(`mutation($g: ID!) { startGame(gameId: $g) { ${VIEW} } }`, { g: id }, tokens[0])).startGame;
      const rnd = botRandom(7);
      for (let step = 0; step < 2000 && g.status !== 'FINISHED'; step++) {
        const seat: number = g.awaiting[0];
        const mine = (await p(GAME, { id }, tokens[seat])).game;
        const prompt = mine.me.prompts[0];
        const q = withRequestId ? { q: `r${step}` } : {};
        const query: 'playCard' | 'answerPrompt' = prompt ? 'answerPrompt' : 'playCard';
        stack.capacity.reset();
        g = prompt
          ? (await p(ANSWER_ID, { g: id, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id, ...q }, tokens[seat])).answerPrompt
          : (await p(PLAY_ID, { g: id, r: mine.me.hand[Math.floor(rnd() * mine.me.hand.length)], ...q }, tokens[seat])).playCard;
        const c = stack.capacity.get();
        const key = `${query}${withRequestId ? '+id' : ''}`;
        const row = rows.get(key) ?? { n: 0, shapes: {}, maxReads: 0, maxWrites: 0 };
        const shape = `${c.reads} read${c.reads === 1 ? '' : 's'} + ${c.writes} write${c.writes === 1 ? '' : 's'}`;
        row.n++;
        row.shapes[shape] = (row.shapes[shape] ?? 0) + 1;
        row.maxReads = Math.max(row.maxReads, c.reads);
        row.maxWrites = Math.max(row.maxWrites, c.writes);
        rows.set(key, row);
      }
      if (g.status !== 'FINISHED') throw new Error('request path game did not finish');
      bar('request path', [['CLASSIC', false], ['GALECREST', false], ['CLASSIC', true]].findIndex(([e, w]) => e === edition && w === withRequestId) + 1, 3);
    }
    process.stderr.write('\n');
  } finally {
    await stack.close();
  }
  return [...rows.entries()].map(([key, r]) => ({
    query: key.startsWith('playCard') ? 'playCard' : 'answerPrompt',
    requestId: key.endsWith('+id'),
    samples: r.n,
    shapes: Object.fromEntries(Object.entries(r.shapes).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round((100 * v) / r.n)])),
    maxReads: r.maxReads,
    maxWrites: r.maxWrites,
  }));
}

export interface LoadReport {
  levels: LoadLevel[];
  latency: LatencyRow[];
  /** Complete 4-player games of each edition. */
  costs: CostRow[];
  requestPath: RequestPathRow[];
  prices: typeof PRICES;
}

export async function benchLoad(quick: boolean): Promise<LoadReport> {
  const stack = await startStack();
  try {
    // Warm-up: JIT, connections, dynalite's LevelDB.
    await botGame(stack.url, 1);
    const levels: LoadLevel[] = [];
    const latency: LatencyRow[] = [];
    // [concurrent games, at least this many complete games, seconds, mode]. 100 whole 4-seat
    // games take over 3 minutes on 2 cores, so the 100 level is a window of games in flight.
    const plan: [number, number, number, 'complete' | 'window'][] = quick
      ? [
          [1, 1, 1, 'complete'],
          [10, 10, 1, 'complete'],
          [100, 0, 15, 'window'],
        ]
      : [
          [1, 4, 12, 'complete'],
          [10, 10, 20, 'complete'],
          [100, 0, 45, 'window'],
        ];
    let perGame = NaN;
    for (const [c, minGames, secs, mode] of plan) {
      const r = await loadLevel(stack.url, c, minGames, secs, mode, perGame);
      if (mode === 'complete') perGame = r.requestsPerGame;
      levels.push(r.level);
      latency.push(...r.rows);
    }
    const costs = [await cost(stack, quick ? 1 : 3, 'CLASSIC'), await cost(stack, quick ? 1 : 3, 'GALECREST')];
    await stack.close();
    return { levels, latency, costs, requestPath: await requestPath(), prices: PRICES };
  } catch (e) {
    await stack.close();
    throw e;
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  console.log(JSON.stringify(await benchLoad(process.argv.includes('--quick'))));
}
