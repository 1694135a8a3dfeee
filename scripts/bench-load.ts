// The API under load, and the DynamoDB cost of a game. Used by scripts/bench.ts (`npm run bench`);
// `npx tsx scripts/bench-load.ts [--quick] [--profile]` alone.
//
// - Latency: the store (dynalite) runs in a process of its own, the API is the local server
//   (`functions/local/server.ts`, as `npm start` runs it) in another, pointed at the store by
//   DYNAMODB_ENDPOINT, and the bot clients run here: the API's CPU is its own
//   (scripts/bench-probe.ts reads process.cpuUsage inside the API process). Bot clients play
//   4-seat classic games through GraphQL over HTTP, C games at once (C = 1, 10; 100 as a
//   window). Every move of a seat is `{ __typename }` (the trivial baseline, interleaved, under
//   the same load), `game(id)` (its own view) and then `playCard` or `answerPrompt`. Two kinds
//   of client: `turns` acts only when awaited and one seat after the other (the answer of a move
//   says who is awaited next), `racing` sends every awaited seat's move at once (the card choices
//   of a day race on the game's version and the losers retry). Each level is repeated (at least
//   5 windows) and every ratio is printed as median / min / max over the repetitions. The
//   levels run in several fresh stacks one after the other (`--processes <n>`, default 3,
//   `--quick` 2), each with its share of the windows, pooled (one API process's JIT and heap
//   are not the code's: 15.1 against 17.6 ms of CPU per move in two runs, p95 ratios 6-10% apart).
//   `--profile`: the first stack's API process runs with `node --cpu-prof` (profile in the printed folder).
// - Cost: one 4-player game played alone, every DynamoDB call sent with
//   ReturnConsumedCapacity: 'TOTAL' (an SDK middleware on the app's real client) and the
//   returned ConsumedCapacity summed (dynalite in this process: units, not times).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
export const PRICES = {
  region: 'us-east-1',
  date: '2024-11-01 (price list checked 2025)',
  usdPerMillionWRU: 0.625,
  usdPerMillionRRU: 0.125,
};

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

const emptyCapacity = (): Capacity => ({
  readUnits: 0,
  writeUnits: 0,
  reads: 0,
  writes: 0,
  missing: 0,
  computed: 0,
  byCommand: {},
});

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
export function meterCapacity(client: DynamoDBDocumentClient): {
  get: () => Capacity;
  reset: () => void;
  pause: (on: boolean) => void;
} {
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
      const cc = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] })
        .ConsumedCapacity;
      const list = cc === undefined ? [] : Array.isArray(cc) ? cc : [cc];
      let units = list.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
      if (list.length === 0) cur.missing++;
      if (name === 'QueryCommand' && units === 0) {
        // dynalite answers 0 for queries; DynamoDB charges the items read, rounded up to
        // 4 KB, at least one unit (half for eventually consistent reads).
        const input = args.input as { ConsistentRead?: boolean };
        const items = ((out.output as { Items?: Record<string, unknown>[] }).Items ?? []).reduce(
          (n, it) => n + itemBytes(it),
          0,
        );
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
  const app = buildApp({
    tableName: 'bench',
    client,
    signingKey: 'bench-signing-key-0123456789-abcdefghijkl',
    rateLimits: false,
    ...opts,
  });
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

/** Posts GraphQL to `url`; each request carries its label (`x-bench-label`: the API process's probe files its CPU under it). */
function poster(url: string, record?: (label: string, ms: number) => void): (label: string) => Post {
  return (label) =>
    async (query, variables = {}, token) => {
      const t0 = performance.now();
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-bench-label': label,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
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
 * How the bot clients of a game act. `racing`: every seat the game awaits acts at once (the card
 * choices of a day race on one version; the losers reload and apply again). `turns`: a seat acts
 * only when awaited and one after the other (the answer of each move says who is awaited next),
 * as players who are not all on the same button at the same millisecond.
 */
export type ClientKind = 'racing' | 'turns';

/**
 * One 4-seat classic game, every seat a client-side bot (random legal moves) with its own
 * token. The seats that act (see ClientKind) each send: trivial query, game query, its move.
 */
export async function botGame(
  url: string,
  seed: number,
  record?: (label: string, ms: number) => void,
  /** True: leave the game where it is (a measurement ended). */
  stop: () => boolean = () => false,
  edition: Edition = 'CLASSIC',
  client: ClientKind = 'racing',
  /** The four seats' players, kept from an earlier game of the same client slot (filled if empty). */
  tokens: string[] = [],
): Promise<GameStats & { finished: boolean }> {
  const p = poster(url, record);
  const setup = p('setup');
  const rnd = botRandom(seed);
  for (let i = tokens.length; i < 4; i++)
    tokens.push(
      (await setup(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: `Client ${edition} ${seed} p${i}` }))
        .signUp.token,
    );
  const id = (
    await setup(
      `mutation($s: String) { createGame(input: { edition: ${edition}, seats: 4, seed: $s }) { id } }`,
      { s: `load${seed}` },
      tokens[0],
    )
  ).createGame.id as string;
  for (const t of tokens.slice(1)) await setup(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, t);
  let g = (await setup(`mutation($g: ID!) { startGame(gameId: $g) { ${VIEW} } }`, { g: id }, tokens[0])).startGame;
  for (let step = 0; step < 2000 && g.status !== 'FINISHED' && !stop(); step++) {
    const seats: number[] = client === 'racing' ? g.awaiting : g.awaiting.slice(0, 1);
    const answers = await Promise.all(
      seats.map(async (seat) => {
        await p('{ __typename }')(`{ __typename }`);
        const mine = (await p('game')(GAME, { id }, tokens[seat])).game;
        if (mine.status === 'FINISHED' || !mine.awaiting.includes(seat)) return null;
        const prompt = mine.me.prompts[0];
        if (prompt)
          return (
            await p('answerPrompt')(
              ANSWER,
              { g: id, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id },
              tokens[seat],
            )
          ).answerPrompt;
        return (
          await p('playCard')(PLAY, { g: id, r: mine.me.hand[Math.floor(rnd() * mine.me.hand.length)] }, tokens[seat])
        ).playCard;
      }),
    );
    // Any answer's public fields are current enough; re-read if every seat found nothing to do.
    g =
      answers.find((a) => a !== null) ??
      (await setup(`query($id: ID!) { game(id: $id) { ${VIEW} } }`, { id }, tokens[0])).game;
  }
  if (g.status !== 'FINISHED' && !stop()) throw new Error(`game ${id} did not finish`);
  return { id, decisions: -1, days: -1, finished: g.status === 'FINISHED' };
}

export async function logStats(url: string, id: string): Promise<GameStats> {
  const p = poster(url)('log');
  let decisions = 0;
  let days = 0;
  for (let after = 0, i = 0; i < 1000; i++) {
    const page = (
      await p(`query($g: ID!, $a: Int) { events(gameId: $g, after: $a, limit: 100) { events { seq type } hasMore } }`, {
        g: id,
        a: after,
      })
    ).events;
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

const bar = (label: string, done: number, total: number, extra = '') => {
  const w = 24;
  const k = Math.min(w, Math.round((done / total) * w));
  process.stderr.write(`\r${label} [${'#'.repeat(k)}${'.'.repeat(w - k)}] ${done}/${total} ${extra}   `);
};

/** The API as a process of its own (the local server) on a store in another process. */
export interface ApartStack {
  url: string;
  /** The API process's CPU so far (ms) and, since the last call, the CPU of requests that ran alone, by label. */
  cpu: () => Promise<{ cpuMs: number; alone: Record<string, number[]> }>;
  /** Where `node --cpu-prof` writes the API process's profile (with `profile`), else null. */
  profileDir: string | null;
  close: () => Promise<void>;
}

/** Waits for a line matching `re` on a child's stdout (and keeps draining it after). */
function lineOf(child: ChildProcess, re: RegExp, what: string): Promise<string> {
  return new Promise((ok, fail) => {
    let buf = '';
    let found = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (found) return;
      buf += chunk.toString();
      const m = re.exec(buf);
      if (m) {
        found = true;
        ok(m[1]);
      }
    });
    child.once(
      'exit',
      (code) => found || fail(new Error(`${what} exited (${code}) before it was ready: ${buf.slice(-500)}`)),
    );
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((ok) =>
    child.exitCode !== null || child.signalCode !== null ? ok() : child.once('exit', () => ok()),
  );

/**
 * dynalite in a child process; the local server (`functions/local/server.ts`, as `npm start`
 * runs it, in memory, no sweep, no rate limits) in another, pointed at it by DYNAMODB_ENDPOINT,
 * with scripts/bench-probe.ts loaded to report its CPU.
 */
export async function startApart(opts: { profile?: boolean } = {}): Promise<ApartStack> {
  const storeCode = `import dynalite from 'dynalite';
const s = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
s.listen(0, '127.0.0.1', () => console.log('store http://127.0.0.1:' + s.address().port));`;
  const store = spawn(process.execPath, ['--input-type=module', '-e', storeCode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const children: ChildProcess[] = [store];
  const stop = async () => {
    for (const c of children.reverse()) {
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
      await exited(c);
    }
  };
  try {
    const endpoint = await lineOf(store, /store (http:\/\/\S+)/, 'the store process');
    const profileDir = opts.profile ? mkdtempSync(join(tmpdir(), 'libertalia-api-prof-')) : null;
    const api = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './scripts/bench-probe.ts',
        ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
        'functions/local/server.ts',
      ],
      {
        cwd: resolve('.'),
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
        env: {
          ...process.env,
          DYNAMODB_ENDPOINT: endpoint,
          PORT: '0',
          LOCAL_IN_MEMORY: '1',
          RATE_LIMITS: 'off',
          TABLE_NAME: 'bench',
          SWEEP_INTERVAL_SECONDS: '0',
        },
      },
    );
    children.push(api);
    const url = await lineOf(api, /GraphQL at (http:\/\/\S+)\/graphql/, 'the API process');
    let waiting: ((m: { cpuMs: number; alone: Record<string, number[]> }) => void) | null = null;
    api.on('message', (m: { type?: string; cpuMs: number; alone: Record<string, number[]> }) => {
      if (m.type === 'cpu') waiting?.(m);
    });
    return {
      url,
      profileDir,
      cpu: () =>
        new Promise((ok) => {
          waiting = ok;
          api.send({ type: 'cpu' });
        }),
      close: stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

export const QUERIES = ['{ __typename }', 'game', 'playCard', 'answerPrompt'] as const;

/** One query in one window: its latency percentiles (ms) and the API's CPU of its requests that ran alone (median, ms). */
export interface QueryWindow {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  /** Every answer's time in the window (ms, 0.01 ms), for the p95 over all windows of a level. */
  ms?: number[];
  cpuAloneSamples: number;
  cpuAloneMs: number;
}

/** One repetition of a level: C game slots play games back to back for `seconds`, games in flight cut at the end. */
export interface LoadWindow {
  client: ClientKind;
  concurrentGames: number;
  /** The fresh stack (API process) it ran in, 1 for the first (absent in older reports: 1). */
  process?: number;
  seconds: number;
  requests: number;
  /** playCard + answerPrompt answered. */
  moves: number;
  gamesCompleted: number;
  /** The API process's CPU over the window (every request, and the work after the answers). */
  apiCpuMs: number;
  /** The bench's own CPU over the window (the bot clients: fetch, JSON, their choices), to tell a slow client from a slow API. */
  clientCpuMs: number;
  byQuery: Record<string, QueryWindow>;
}

/**
 * One level: C game slots play games back to back (each slot keeps its four players) while the
 * moves answered are cut into windows of `movesPerWindow`: one warm-up window (dropped), then
 * `windows` measured ones. A window is a count of moves, not a time, so a loaded machine gives
 * slower windows, not smaller samples; games run on across windows (no set-up in a window but
 * that of games that finished in it).
 */
export async function loadLevel(
  stack: ApartStack,
  client: ClientKind,
  concurrentGames: number,
  windows: number,
  movesPerWindow: number,
  seedBase: number,
  /** The stack's number among the fresh ones of the run (1 for the first), kept in each window. */
  processNo = 1,
): Promise<LoadWindow[]> {
  const label = `api ${processNo}: ${client.padEnd(6)} ${String(concurrentGames).padStart(2)} games`;
  interface Open {
    times: Map<string, number[]>;
    requests: number;
    moves: number;
    completed: number;
    t0: number;
    client0: number;
    cpu0: Promise<{ cpuMs: number; alone: Record<string, number[]> }>;
  }
  const clientCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const open = (): Open => ({
    times: new Map(),
    requests: 0,
    moves: 0,
    completed: 0,
    t0: performance.now(),
    client0: clientCpu(),
    cpu0: stack.cpu(),
  });
  let cur = open();
  const closed: {
    w: Open;
    cpu1: Promise<{ cpuMs: number; alone: Record<string, number[]> }>;
    t1: number;
    client1: number;
  }[] = [];
  const done = () => closed.length > windows;
  const record = (q: string, ms: number) => {
    if (done()) return;
    cur.requests++;
    if (q === 'setup') return;
    let a = cur.times.get(q);
    if (!a) cur.times.set(q, (a = []));
    a.push(ms);
    if (q !== 'playCard' && q !== 'answerPrompt') return;
    if (++cur.moves < movesPerWindow) return;
    const next = open();
    closed.push({ w: cur, cpu1: next.cpu0, t1: next.t0, client1: next.client0 });
    bar(label, Math.min(closed.length - 1, windows), windows, closed.length === 1 ? '(warm-up done)' : '');
    cur = next;
  };
  bar(label, 0, windows, '(warm-up)');
  let seed = seedBase;
  await Promise.all(
    Array.from({ length: concurrentGames }, async () => {
      const tokens: string[] = [];
      while (!done()) {
        const g = await botGame(stack.url, seed++, record, done, 'CLASSIC', client, tokens);
        if (g.finished && !done()) cur.completed++;
      }
    }),
  );
  process.stderr.write('\n');
  const out: LoadWindow[] = [];
  for (const { w, cpu1, t1, client1 } of closed.slice(1)) {
    const [before, after] = [await w.cpu0, await cpu1];
    const byQuery: Record<string, QueryWindow> = {};
    for (const q of QUERIES) {
      const ts = w.times.get(q) ?? [];
      const cpu = after.alone[q] ?? [];
      byQuery[q] = {
        samples: ts.length,
        p50: pct(ts, 50),
        p95: pct(ts, 95),
        p99: pct(ts, 99),
        ms: ts.map((t) => Math.round(t * 100) / 100),
        cpuAloneSamples: cpu.length,
        cpuAloneMs: pct(cpu, 50),
      };
    }
    out.push({
      client,
      concurrentGames,
      process: processNo,
      seconds: (t1 - w.t0) / 1000,
      requests: w.requests,
      moves: w.moves,
      gamesCompleted: w.completed,
      apiCpuMs: after.cpuMs - before.cpuMs,
      clientCpuMs: client1 - w.client0,
      byQuery,
    });
  }
  return out;
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
    const { id } = await botGame(stack.url, 900_000 + i, undefined, undefined, edition);
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
  const byCommand = Object.fromEntries(
    Object.entries(c.byCommand).map(([k, v]) => [k, { calls: per(v.calls), units: per(v.units) }]),
  );
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
    for (const [edition, withRequestId] of [
      ['CLASSIC', false],
      ['GALECREST', false],
      ['CLASSIC', true],
    ] as [Edition, boolean][]) {
      const tokens: string[] = [];
      for (let i = 0; i < 4; i++)
        tokens.push(
          (
            await p(`mutation($n: String!) { signUp(name: $n) { token } }`, {
              n: `Path ${edition} ${withRequestId ? 'id' : 'plain'} p${i}`,
            })
          ).signUp.token,
        );
      const id = (
        await p(`mutation { createGame(input: { edition: ${edition}, seats: 4, seed: "path" }) { id } }`, {}, tokens[0])
      ).createGame.id as string;
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
          ? (
              await p(
                ANSWER_ID,
                { g: id, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id, ...q },
                tokens[seat],
              )
            ).answerPrompt
          : (await p(PLAY_ID, { g: id, r: mine.me.hand[Math.floor(rnd() * mine.me.hand.length)], ...q }, tokens[seat]))
              .playCard;
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
      bar(
        'request path',
        [
          ['CLASSIC', false],
          ['GALECREST', false],
          ['CLASSIC', true],
        ].findIndex(([e, w]) => e === edition && w === withRequestId) + 1,
        3,
      );
    }
    process.stderr.write('\n');
  } finally {
    await stack.close();
  }
  return [...rows.entries()].map(([key, r]) => ({
    query: key.startsWith('playCard') ? 'playCard' : 'answerPrompt',
    requestId: key.endsWith('+id'),
    samples: r.n,
    shapes: Object.fromEntries(
      Object.entries(r.shapes)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, Math.round((100 * v) / r.n)]),
    ),
    maxReads: r.maxReads,
    maxWrites: r.maxWrites,
  }));
}

/** min / median / max over the repetitions, and the relative spread (max - min) / median. */
export function spreadOf(xs: number[]): { median: number; min: number; max: number; spread: number } {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return { median: NaN, min: NaN, max: NaN, spread: NaN };
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, min: s[0], max: s[s.length - 1], spread: (s[s.length - 1] - s[0]) / median };
}

/** The p95 of a query's answers over all the windows (NaN if a window kept no `ms`, as older reports). */
function pooledP95(ws: LoadWindow[], query: string): number {
  if (ws.some((w) => !w.byQuery[query].ms)) return Number.NaN;
  return pct(
    ws.flatMap((w) => w.byQuery[query].ms ?? []),
    95,
  );
}

/** One query of one level over its repetitions: each window's percentile and its ratio to that window's `{ __typename }`. */
export interface LatencyFigure {
  client: ClientKind;
  concurrentGames: number;
  query: string;
  windows: number;
  samples: number;
  p50: ReturnType<typeof spreadOf>;
  xP50: ReturnType<typeof spreadOf>;
  p95: ReturnType<typeof spreadOf>;
  xP95: ReturnType<typeof spreadOf>;
  /**
   * The p95 of every window's answers over the p95 of every window's `{ __typename }`: the
   * headline p95 ratio. A window's p95 rests on its 4 or 5 slowest answers of about 85, and the
   * median of 9 windows' p95 ratios moved 6-13% between two runs on a quiet machine (3 December
   * 2026); the p95 of about 750 answers rests on some 38. Undefined for reports without `ms`.
   */
  pooledXP95?: number;
  /**
   * Per fresh stack (API process), in the order run: the median of its windows' p50 ratios
   * (xP50) and the p95 of its windows' answers over that of their `{ __typename }` (pooledXP95),
   * printed beside the pooled figures so that the spread from process to process shows.
   */
  byProcess: { process: number; windows: number; xP50: number; pooledXP95: number }[];
  /** The API process's CPU of one such request when it ran alone (median of the windows' medians), ms. */
  cpuAloneMs: ReturnType<typeof spreadOf>;
}

/** The API process's CPU per move of one level: all its CPU in the window / the moves answered. */
export interface CpuFigure {
  client: ClientKind;
  concurrentGames: number;
  windows: number;
  cpuPerMoveMs: ReturnType<typeof spreadOf>;
  /** The bench process's own CPU per move (the bot clients), beside the API's. */
  clientCpuPerMoveMs: ReturnType<typeof spreadOf>;
  movesPerSecond: ReturnType<typeof spreadOf>;
  /** The median CPU per move of each fresh stack's windows, in the order run. */
  cpuPerMoveMsByProcess: number[];
}

/** The windows grouped by `key`, each group in the order given, groups in the order first seen. */
function groupWindows<K>(ws: LoadWindow[], key: (w: LoadWindow) => K): Map<K, LoadWindow[]> {
  const groups = new Map<K, LoadWindow[]>();
  for (const w of ws) {
    const k = key(w);
    const group = groups.get(k);
    if (group) group.push(w);
    else groups.set(k, [w]);
  }
  return groups;
}

/** The windows of each fresh stack, in the order the stacks ran (windows of older reports, without `process`, as one). */
export function windowsByProcess(ws: LoadWindow[]): [number, LoadWindow[]][] {
  return [...groupWindows(ws, (w) => w.process ?? 1).entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * How many measured windows a level gets in each of `processes` fresh stacks: `total` split as
 * evenly as it goes, the first stacks taking the remainder (9 in 3: 3 3 3; 5 in 2: 3 2), and
 * at least one in each (so at least `processes` in all).
 */
export function windowShares(total: number, processes: number): number[] {
  const n = Math.max(total, processes);
  return Array.from({ length: processes }, (_, i) => Math.floor(n / processes) + (i < n % processes ? 1 : 0));
}

const levelKey = (w: LoadWindow) => `${w.client} ${w.concurrentGames}`;

export function latencyFigures(windows: LoadWindow[]): { latency: LatencyFigure[]; cpu: CpuFigure[] } {
  const levels = groupWindows(windows, levelKey);
  const latency: LatencyFigure[] = [];
  const cpu: CpuFigure[] = [];
  for (const ws of levels.values()) {
    const { client, concurrentGames } = ws[0];
    for (const query of QUERIES) {
      const of = (f: (w: LoadWindow) => number) => spreadOf(ws.map(f));
      latency.push({
        client,
        concurrentGames,
        query,
        windows: ws.length,
        samples: ws.reduce((n, w) => n + w.byQuery[query].samples, 0),
        p50: of((w) => w.byQuery[query].p50),
        xP50: of((w) => w.byQuery[query].p50 / w.byQuery['{ __typename }'].p50),
        p95: of((w) => w.byQuery[query].p95),
        xP95: of((w) => w.byQuery[query].p95 / w.byQuery['{ __typename }'].p95),
        pooledXP95: pooledP95(ws, query) / pooledP95(ws, '{ __typename }'),
        byProcess: windowsByProcess(ws).map(([process, pws]) => ({
          process,
          windows: pws.length,
          xP50: spreadOf(pws.map((w) => w.byQuery[query].p50 / w.byQuery['{ __typename }'].p50)).median,
          pooledXP95: pooledP95(pws, query) / pooledP95(pws, '{ __typename }'),
        })),
        cpuAloneMs: of((w) => w.byQuery[query].cpuAloneMs),
      });
    }
    cpu.push({
      client,
      concurrentGames,
      windows: ws.length,
      cpuPerMoveMs: spreadOf(ws.map((w) => w.apiCpuMs / w.moves)),
      clientCpuPerMoveMs: spreadOf(ws.map((w) => w.clientCpuMs / w.moves)),
      movesPerSecond: spreadOf(ws.map((w) => w.moves / w.seconds)),
      cpuPerMoveMsByProcess: windowsByProcess(ws).map(
        ([, pws]) => spreadOf(pws.map((w) => w.apiCpuMs / w.moves)).median,
      ),
    });
  }
  return { latency, cpu };
}

export interface LoadReport {
  /** Load average before and after the latency part (the machine may be shared). */
  machine: { cpu: string; cores: number; node: string; loadBefore: number[]; loadAfter: number[] };
  /** Every repetition of every level, in the order run: stack by stack, level by level (`process` says which stack). */
  windows: LoadWindow[];
  /** Fresh stacks the latency part ran in, one after the other (absent in older reports: one). */
  processes?: number;
  /** Wall time of the latency part, s. */
  latencySeconds?: number;
  /** Where the first stack's API process's CPU profile went (`--profile`), or null. */
  profileDir: string | null;
  /** Complete 4-player games of each edition. */
  costs: CostRow[];
  requestPath: RequestPathRow[];
  prices: typeof PRICES;
}

/** The levels of the latency part: [client, concurrent games]; each runs once per round. */
export const LEVELS: [ClientKind, number][] = [
  ['turns', 1],
  ['turns', 10],
  ['racing', 1],
  ['racing', 10],
];

/**
 * The latency part: the levels in `processes` fresh stacks (store and API processes started
 * anew) one after the other, each warmed up by one game and by every level's warm-up window,
 * each measuring its share of the windows (windowShares: 9 in all, `quick` 5); the windows of
 * all stacks are pooled by latencyFigures. Every stack plays the same seeds, so the stacks
 * differ by their processes, not by their games. `profile`: the first stack's API process only.
 */
export async function latency(
  quick: boolean,
  profile: boolean,
  processes = quick ? 2 : 3,
): Promise<Pick<LoadReport, 'machine' | 'windows' | 'profileDir' | 'processes' | 'latencySeconds'>> {
  if (!Number.isInteger(processes) || processes < 1) throw new Error('--processes takes a whole number of 1 or more');
  const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
  const t0 = performance.now();
  const shares = windowShares(quick ? 5 : 9, processes);
  const windows: LoadWindow[] = [];
  let profileDir: string | null = null;
  for (const [i, share] of shares.entries()) {
    process.stderr.write(
      `api: stack ${i + 1} of ${shares.length} (fresh store and API processes), ${share} windows a level\n`,
    );
    const stack = await startApart({ profile: profile && i === 0 });
    profileDir ??= stack.profileDir;
    try {
      // Warm-up of the API process as a whole (JIT, connections, dynalite's LevelDB): one game.
      await botGame(stack.url, 1, undefined, undefined, 'CLASSIC', 'turns');
      for (const [client, c] of LEVELS) {
        // 160 moves (about 90 playCard answers) a window at every level: with 80 at one game, the
        // p95 of 45 answers moved 18% between two runs on a quiet machine (3 December 2026).
        const moves = quick ? 80 : 160;
        windows.push(
          ...(await loadLevel(stack, client, c, share, moves, 100_000 * c + (client === 'racing' ? 50_000 : 0), i + 1)),
        );
      }
    } finally {
      await stack.close();
    }
  }
  const c = cpus();
  return {
    machine: {
      cpu: c[0]?.model ?? 'unknown',
      cores: c.length,
      node: process.version,
      loadBefore,
      loadAfter: loadavg().map((x) => Number(x.toFixed(2))),
    },
    windows,
    processes: shares.length,
    latencySeconds: Math.round((performance.now() - t0) / 1000),
    profileDir,
  };
}

export async function benchLoad(quick: boolean, profile = false, processes?: number): Promise<LoadReport> {
  const lat = await latency(quick, profile, processes);
  // Units are counted, not timed: dynalite in this process with a metered client is enough.
  const stack = await startStack();
  let costs: CostRow[];
  try {
    costs = [await cost(stack, quick ? 1 : 3, 'CLASSIC'), await cost(stack, quick ? 1 : 3, 'GALECREST')];
  } finally {
    await stack.close();
  }
  return { ...lat, costs, requestPath: await requestPath(), prices: PRICES };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const only = process.argv.includes('--latency');
  const quick = process.argv.includes('--quick');
  const profile = process.argv.includes('--profile');
  const at = process.argv.indexOf('--processes');
  // `--processes <n>`: fresh stacks of the latency part (scripts/bench.ts validates it).
  const processes = at > 0 ? Number(process.argv[at + 1]) : undefined;
  console.log(
    JSON.stringify(only ? await latency(quick, profile, processes) : await benchLoad(quick, profile, processes)),
  );
}
