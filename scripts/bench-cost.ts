// The AWS cost of a complete 4-player game, measured on the local stack (`npm run bench -- --cost`,
// also part of the default `npm run bench`; alone: `npx tsx scripts/bench-cost.ts`).
//
// Four bot clients play a whole 4-seat classic game through the real local server (the same
// buildApp, HTTP adapter and push endpoint as `npm start`, dynalite in this process), each with
// its own token and a push connection (functions/push: the protocol the AWS WebSocket API
// speaks). What is COUNTED, not estimated: HTTP requests by kind, DynamoDB read and write units
// (ReturnConsumedCapacity on every call of the app's client, queries sized from their items as
// DynamoDB bills them), push messages and their sizes both ways, notice-queue messages, the
// bytes the app logs (JSON), the round-trip time of each request, the units of archiving the
// finished game (retention) and of one sweep visit to an active game.
//
// What is MODELED (said so in the table): how long the game lasts in real life (30 minutes
// live; 14 days with each player's page open 1 hour a day for correspondence), hence the
// connection minutes, pings, sweep visits and the number of polls (polls are priced with the
// measured cost of a poll); what AWS adds to the logs (platform lines, the access log line);
// the time of PostToConnection calls on AWS.
//
// Variants, each priced line by line at the us-east-1 list prices below:
//   live, push           the push carries each player's own view: no fetch after a version
//   live, push (version) the push says only "game X is at version V": each client fetches
//   live, polling 3 s    no push: game { version } every 3 s per client, a fetch on a change
//   14 days, push        page open 1 h/day per player: reconnect + subscribe + fetch daily
//   14 days, polling     3 s while the page is open, and with the SDK's back-off (60 s)
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { buildApp } from '../functions/api/http/app.js';
import { pushStoreOf } from '../functions/api/http/core.js';
import { createLocalQueue } from '../functions/api/notify/notices.js';
import type { NoticeMessage } from '../functions/api/services.js';
import { RECENT_MS } from '../functions/api/ops/sweep.js';
import { botRandom } from '../functions/engine/index.js';
import { localDocumentClient, startDynalite } from '../functions/local/dynalite.js';
import { createHttpServer } from '../functions/local/http.js';
import { createLocalPush } from '../functions/local/push.js';
import type { PushGateway } from '../functions/push/protocol.js';
import { createTable } from '../functions/store/index.js';
import { meterCapacity, type Capacity } from './bench-load.js';

/**
 * us-east-1 (N. Virginia) on-demand list prices, as published on the AWS pricing pages
 * (DynamoDB since the 1 November 2024 cut; the others unchanged since 2021-2023), read
 * 2025-06; check them before relying on the totals.
 */
export const AWS_PRICES = {
  region: 'us-east-1',
  date: '2025-06 (AWS pricing pages; DynamoDB on-demand after the 2024-11-01 cut)',
  httpApiPerMillionRequests: 1.0, // HTTP API, first 300 M requests a month, per 512 KB
  lambdaPerMillionRequests: 0.2,
  lambdaArmPerGbSecond: 0.0000133334, // arm64, first 6 B GB-s a month
  dynamoPerMillionWRU: 0.625,
  dynamoPerMillionRRU: 0.125,
  websocketPerMillionMessages: 1.0, // per 32 KB, both directions, first 1 B a month
  websocketPerMillionConnectionMinutes: 0.25,
  logsPerGbIngested: 0.5, // CloudWatch Logs standard
  sqsPerMillionRequests: 0.4, // standard queue, per 64 KB
};

/** Memory of the functions (infra/stack.ts, infra/push.ts), GB. */
const MEMORY_GB = { api: 1, push: 0.5, notices: 0.25, sweep: 0.5 };

/** What AWS adds that the local stack cannot count (modeled). */
const MODEL = {
  liveMinutes: 30,
  correspondenceDays: 14,
  openHoursPerDay: 1,
  players: 4,
  pollSeconds: 3,
  backoffPollSeconds: 60,
  /** The SDK's ping interval (PUSH_PING_MS). */
  pingMinutes: 8,
  sweepMinutes: 5,
  /** Lambda's platform log lines per invocation (JSON format: platform.start, platform.report). */
  platformLogBytes: 700,
  /** One HTTP API access log line (the stack's JSON format). */
  accessLogBytes: 450,
  /** One EMF metrics line, written by each invocation that counted something (commits). */
  metricsLogBytes: 600,
  /** PostToConnection calls of a fan-out, in parallel: added to a commit's duration on AWS. */
  fanOutMs: 15,
  /** A push Lambda invocation (authorizer, $connect, a message, $disconnect). */
  pushInvocationMs: 20,
  /** SQS requests per notice message: send, receive, delete. */
  sqsRequestsPerMessage: 3,
  /** A poll's and a fetch's Lambda time on AWS are taken as measured here (upper bound: a loaded local machine). */
};

interface Counts {
  http: Record<string, { n: number; ms: number }>;
  pushOut: number;
  pushOutBytes: number;
  pushOutMaxBytes: number;
  pushIn: number;
  notices: number;
  logBytes: number;
  capacity: Capacity;
}

const VIEW = `id version status phase awaiting me { seat hand prompts { id options { id } } }`;
const GAME = `query($id: ID!) { game(id: $id) { id version status round day phase awaiting island { seat rank } days bagSize
  seats { seat name isBot hasChosen awaited deadline doubloons score handSize den graveyardSize lootCount loot { kind count } }
  me { seat hand choice choiceDeadline prompts { id kind text deadline options { id label } } } } }`;

async function startCostStack() {
  const dynamo = await startDynalite();
  const client = localDocumentClient(dynamo.endpoint);
  const capacity = meterCapacity(client);
  await createTable(client as never, 'cost');
  const push = createLocalPush();
  const out = { n: 0, bytes: 0, max: 0 };
  const gateway: PushGateway = {
    close: (connectionId) => push.gateway.close(connectionId),
    async post(connectionId, message) {
      const r = await push.gateway.post(connectionId, message);
      if (r === 'ok') {
        const b = Buffer.byteLength(JSON.stringify(message));
        out.n++;
        out.bytes += b;
        out.max = Math.max(out.max, b);
      }
      return r;
    },
  };
  let notices = 0;
  let handle: (m: NoticeMessage) => Promise<void> = async () => {};
  const local = createLocalQueue(
    (m) => handle(m),
    () => new Date(),
  );
  const app = buildApp({
    tableName: 'cost',
    client,
    signingKey: 'bench-signing-key-0123456789-abcdefghijkl',
    rateLimits: false,
    pushGateway: gateway,
    noticeQueue: {
      async send(messages, delay) {
        notices += messages.length;
        await local.send(messages, delay);
      },
    },
  });
  handle = (m) => app.handleNotice(m);
  await app.apollo.start();
  const server = createHttpServer(app);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const closePush = push.attach(server, app, pushStoreOf(client as never, 'cost'));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    app,
    capacity,
    pushOut: out,
    notices: () => notices,
    drain: () => local.drain(),
    close: async () => {
      local.close();
      await closePush();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await app.apollo.stop();
      client.destroy();
      await dynamo.close();
    },
  };
}

type CostStack = Awaited<ReturnType<typeof startCostStack>>;

/** Captures what the process writes to stdout/stderr (the app's JSON log lines) while `on`. */
function logMeter() {
  let bytes = 0;
  let on = false;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...a: unknown[]) => boolean;
    (stream as unknown as { write: (...a: unknown[]) => boolean }).write = (chunk: unknown, ...rest: unknown[]) => {
      if (on) {
        bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Uint8Array).length;
        return true; // counted, not shown (the report goes to stdout at the end)
      }
      return write(chunk, ...rest);
    };
  }
  return { start: () => void ((bytes = 0), (on = true)), stop: () => ((on = false), bytes) };
}

function httpCounter(url: string) {
  const http: Counts['http'] = {};
  const post = async (kind: string, query: string, variables: Record<string, unknown>, token?: string) => {
    const t0 = performance.now();
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: any; errors?: { message: string }[] };
    const h = (http[kind] ??= { n: 0, ms: 0 });
    h.n++;
    h.ms += performance.now() - t0;
    return body;
  };
  return { http, post };
}

/**
 * One 4-seat classic game, each seat a bot client with a push connection. `useView`: take the
 * view pushed with each version (no fetch); else fetch `game` whenever a push names a version
 * newer than the client's. A client acts when its view awaits it.
 */
async function playWithPush(
  s: CostStack,
  seed: number,
  useView: boolean,
): Promise<Counts & { versions: number; gameId: string }> {
  const { http, post } = httpCounter(s.url);
  const rnd = botRandom(seed);
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++)
    tokens.push(
      (
        await post('setup', `mutation($n: String!) { signUp(name: $n) { token } }`, {
          n: `Cost ${useView ? 'View' : 'Fetch'} ${seed} ${i}`,
        })
      ).data.signUp.token,
    );
  const id = (
    await post(
      'setup',
      `mutation { createGame(input: { edition: CLASSIC, seats: 4, seed: "cost${seed}" }) { id } }`,
      {},
      tokens[0],
    )
  ).data.createGame.id as string;
  for (const t of tokens.slice(1))
    await post('setup', `mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, t);
  // Counting starts with the connections: what a game costs once its players sit at the table.
  s.capacity.reset();
  const out0 = { ...s.pushOut };
  const notices0 = s.notices();
  const logs = logMeter();
  logs.start();
  let pushIn = 0;
  let done = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));
  const sockets: WebSocket[] = [];
  const clients = tokens.map((token, seat) => {
    let view: any = null;
    let acting = false;
    let fetching: Promise<void> | null = null;
    let wanted = 0;
    let over = false;
    const act = async () => {
      if (acting || !view || view.status !== 'ACTIVE' || !view.awaiting.includes(seat)) return;
      acting = true;
      try {
        const prompt = view.me.prompts[0];
        const r = prompt
          ? await post(
              'command',
              `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { ${VIEW} } }`,
              { g: id, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id },
              token,
            )
          : await post(
              'command',
              `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { ${VIEW} } }`,
              { g: id, r: view.me.hand[Math.floor(rnd() * view.me.hand.length)] },
              token,
            );
        const g = r.data?.answerPrompt ?? r.data?.playCard;
        if (g && g.version >= view.version) view = g;
        else if (!g) view = { ...view, awaiting: [] }; // stale: wait for the next push
      } finally {
        acting = false;
      }
      await update();
    };
    const update = async () => {
      if (view?.status === 'FINISHED' && !over) {
        over = true;
        if (++done === 4) finished();
        return;
      }
      await act();
    };
    const fetchTo = async (version: number) => {
      wanted = Math.max(wanted, version);
      if (view && view.version >= wanted) return;
      fetching ??= (async () => {
        try {
          for (let i = 0; i < 5 && (!view || view.version < wanted); i++) {
            const g = (await post('fetch', GAME, { id }, token)).data.game;
            if (!view || g.version > view.version) view = g;
          }
        } finally {
          fetching = null;
        }
      })();
      await fetching;
      await update();
    };
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/push?token=${encodeURIComponent(token)}`);
    sockets.push(ws);
    const subscribed = new Promise<void>((ok, fail) => {
      ws.on('open', () => {
        pushIn++;
        ws.send(JSON.stringify({ action: 'subscribe', gameId: id }));
      });
      ws.on('error', fail);
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.type === 'subscribed') ok();
        if (m.type !== 'game' || m.gameId !== id) return;
        if (useView && m.game) {
          if (!view || m.version > view.version) view = m.game;
          void update();
        } else void fetchTo(m.version);
      });
    });
    return { subscribed, start: () => fetchTo(1) };
  });
  await Promise.all(clients.map((c) => c.subscribed));
  await Promise.all(clients.map((c) => c.start()));
  await post('start', `mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, tokens[0]);
  const timeout = setTimeout(() => finished(), 600_000);
  await allDone;
  clearTimeout(timeout);
  for (const ws of sockets) ws.close();
  await s.drain();
  const logBytes = logs.stop();
  const final = (await post('setup', `query($id: ID!) { game(id: $id) { version status } }`, { id }, tokens[0])).data
    .game;
  if (final.status !== 'FINISHED') throw new Error(`game ${id} did not finish`);
  return {
    gameId: id,
    versions: final.version,
    http,
    pushOut: s.pushOut.n - out0.n,
    pushOutBytes: s.pushOut.bytes - out0.bytes,
    pushOutMaxBytes: s.pushOut.max,
    pushIn,
    notices: s.notices() - notices0,
    logBytes,
    capacity: structuredClone(s.capacity.get()),
  };
}

/** The measured cost of one poll (`game { version }`) and of one sweep visit to an active game. */
async function samples(s: CostStack, gameId: string) {
  const { http, post } = httpCounter(s.url);
  const token = (await post('setup', `mutation { signUp(name: "Poller") { token } }`, {})).data.signUp.token;
  s.capacity.reset();
  const logs = logMeter();
  logs.start();
  const N = 100;
  for (let i = 0; i < N; i++)
    await post('poll', `query($id: ID!) { game(id: $id) { id version status } }`, { id: gameId }, token);
  const pollLogBytes = logs.stop() / N;
  const poll = { readUnits: s.capacity.get().readUnits / N, ms: http.poll.ms / N, logBytes: pollLogBytes };
  // Archiving the finished game (the sweep's retention step), then one sweep visit to an active game.
  s.capacity.reset();
  const swept = await s.app.sweep(); // the games played above: each archived once
  const archive = {
    writeUnits: s.capacity.get().writeUnits,
    readUnits: s.capacity.get().readUnits,
    archived: swept.archived,
  };
  const empty = async () => {
    s.capacity.reset();
    await s.app.sweep();
    return structuredClone(s.capacity.get());
  };
  const base = await empty();
  const id = (
    await post(
      'setup',
      `mutation { createGame(input: { edition: CLASSIC, seats: 4, decisionTimeLimitHours: 24 }) { id } }`,
      {},
      token,
    )
  ).data.createGame.id;
  await post('setup', `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { id } }`, { g: id }, token);
  await s.app.sweep(); // settles what the start left (nothing, normally)
  const one = await empty();
  const visit = {
    readUnits: one.readUnits - base.readUnits,
    writeUnits: one.writeUnits - base.writeUnits,
    fixedReadUnits: base.readUnits,
  };
  return { poll, archive, visit };
}

interface Line {
  line: string;
  [variant: string]: string | number;
}

export interface CostReport {
  prices: typeof AWS_PRICES;
  model: typeof MODEL;
  measured: Record<string, unknown>;
  lines: Line[];
  totals: Record<string, number>;
  variants: string[];
}

export async function benchCost(): Promise<CostReport> {
  process.env.LOG_FORMAT = 'json';
  const s = await startCostStack();
  try {
    process.stderr.write('cost: a 4-player game with push carrying the view...\n');
    const viewRun = await playWithPush(s, 1, true);
    process.stderr.write('cost: the same game with push carrying the version only (clients fetch)...\n');
    const versionRun = await playWithPush(s, 1, false);
    process.stderr.write('cost: polls, archiving and a sweep visit...\n');
    const sm = await samples(s, versionRun.gameId);
    return price(viewRun, versionRun, sm);
  } finally {
    await s.close();
  }
}

function price(
  viewRun: Awaited<ReturnType<typeof playWithPush>>,
  versionRun: Awaited<ReturnType<typeof playWithPush>>,
  sm: Awaited<ReturnType<typeof samples>>,
): CostReport {
  const P = AWS_PRICES;
  const M = MODEL;
  const m = (x: number) => x / 1e6;
  const ms = (run: typeof viewRun, kind: string) => (run.http[kind] ? run.http[kind].ms / run.http[kind].n : 0);
  const n = (run: typeof viewRun, kind: string) => run.http[kind]?.n ?? 0;
  const liveMin = M.liveMinutes;
  const openMin = M.correspondenceDays * M.openHoursPerDay * 60;
  const sessions = M.players * M.correspondenceDays; // one page-open session per player and day
  const commits = viewRun.versions;

  interface Variant {
    name: string;
    run: typeof viewRun;
    push: boolean;
    /** Connection minutes (all players). */
    connMin: number;
    /** Extra client -> server push messages (pings, daily subscribes beyond the first). */
    pings: number;
    extraSubscribes: number;
    /** Extra fetches (a reconnecting page fetches its view). */
    extraFetches: number;
    polls: number;
    sweepVisits: number;
  }
  const pingsFor = (minutes: number) => Math.floor(minutes / M.pingMinutes) * M.players;
  // The sweep visits an active game every run while it is recent (RECENT_MS), then once an hour.
  const recentRuns = RECENT_MS / 60_000 / M.sweepMinutes;
  const correspondenceVisits = recentRuns + (M.correspondenceDays * 24 - RECENT_MS / 3_600_000);
  const variants: Variant[] = [
    {
      name: 'live, push (view)',
      run: viewRun,
      push: true,
      connMin: M.players * liveMin,
      pings: pingsFor(liveMin),
      extraSubscribes: 0,
      extraFetches: 0,
      polls: 0,
      sweepVisits: liveMin / M.sweepMinutes,
    },
    {
      name: 'live, push (version)',
      run: versionRun,
      push: true,
      connMin: M.players * liveMin,
      pings: pingsFor(liveMin),
      extraSubscribes: 0,
      extraFetches: 0,
      polls: 0,
      sweepVisits: liveMin / M.sweepMinutes,
    },
    {
      name: `live, polling ${M.pollSeconds} s`,
      run: versionRun,
      push: false,
      connMin: 0,
      pings: 0,
      extraSubscribes: 0,
      extraFetches: 0,
      polls: (M.players * liveMin * 60) / M.pollSeconds,
      sweepVisits: liveMin / M.sweepMinutes,
    },
    {
      name: `${M.correspondenceDays} d, push (view)`,
      run: viewRun,
      push: true,
      connMin: M.players * openMin,
      pings: M.players * M.correspondenceDays * Math.floor((M.openHoursPerDay * 60) / M.pingMinutes),
      extraSubscribes: sessions - M.players,
      extraFetches: sessions,
      polls: 0,
      sweepVisits: correspondenceVisits,
    },
    {
      name: `${M.correspondenceDays} d, polling ${M.pollSeconds} s`,
      run: versionRun,
      push: false,
      connMin: 0,
      pings: 0,
      extraSubscribes: 0,
      extraFetches: 0,
      polls: (M.players * openMin * 60) / M.pollSeconds,
      sweepVisits: correspondenceVisits,
    },
    {
      name: `${M.correspondenceDays} d, polling ${M.backoffPollSeconds} s`,
      run: versionRun,
      push: false,
      connMin: 0,
      pings: 0,
      extraSubscribes: 0,
      extraFetches: 0,
      polls: (M.players * openMin * 60) / M.backoffPollSeconds,
      sweepVisits: correspondenceVisits,
    },
  ];

  const lines: Line[] = [];
  const add = (line: string, f: (v: Variant) => number) => {
    const row: Line = { line };
    for (const v of variants) row[v.name] = f(v);
    lines.push(row);
  };
  const fetches = (v: Variant) => n(v.run, 'fetch') + v.extraFetches;
  const apiRequests = (v: Variant) => n(v.run, 'command') + n(v.run, 'start') + fetches(v) + v.polls;
  /** Client -> server push messages: the subscribes (measured once per player, then daily), pings. */
  const pushIn = (v: Variant) => (v.push ? v.run.pushIn + v.pings + v.extraSubscribes : 0);
  /** Push Lambda invocations: authorizer, $connect and $disconnect per session, one per client message. */
  const pushInvocations = (v: Variant) => (v.push ? (v.extraSubscribes + M.players) * 3 + pushIn(v) : 0);
  // The game's own DynamoDB work (commands, fan-out queries, notice worker), measured.
  add(
    'DynamoDB: the game (measured)',
    (v) => m(v.run.capacity.writeUnits) * P.dynamoPerMillionWRU + m(v.run.capacity.readUnits) * P.dynamoPerMillionRRU,
  );
  // A daily page-open session beyond the measured one: subscribe (UpdateItem + PutItem) and
  // $disconnect (GetItem + 2 DeleteItem), 1 unit each, plus its fetch (as measured).
  add(
    'DynamoDB: daily push sessions',
    (v) =>
      m(v.extraSubscribes * 4) * P.dynamoPerMillionWRU +
      m(
        v.extraSubscribes * 0.5 +
          v.extraFetches *
            (versionRun.capacity.readUnits / Math.max(1, n(versionRun, 'fetch') + n(versionRun, 'command'))),
      ) *
        P.dynamoPerMillionRRU,
  );
  add('DynamoDB: polls', (v) => m(v.polls * sm.poll.readUnits) * P.dynamoPerMillionRRU);
  const perArchive = (u: number) => u / Math.max(1, sm.archive.archived);
  add(
    'DynamoDB: archive + TTL (retention)',
    () =>
      m(perArchive(sm.archive.writeUnits)) * P.dynamoPerMillionWRU +
      m(perArchive(sm.archive.readUnits)) * P.dynamoPerMillionRRU,
  );
  add(
    'DynamoDB: sweep visits while active',
    (v) =>
      m(v.sweepVisits * sm.visit.readUnits) * P.dynamoPerMillionRRU +
      m(v.sweepVisits * sm.visit.writeUnits) * P.dynamoPerMillionWRU,
  );
  add('HTTP API requests', (v) => m(apiRequests(v)) * P.httpApiPerMillionRequests);
  add(
    'Lambda requests (API, push, notices)',
    (v) => m(apiRequests(v) + pushInvocations(v) + v.run.notices) * P.lambdaPerMillionRequests,
  );
  add('Lambda duration', (v) => {
    const apiMs =
      n(v.run, 'command') * (ms(v.run, 'command') + (v.push ? M.fanOutMs : 0)) +
      n(v.run, 'start') * ms(v.run, 'start') +
      fetches(v) * ms(versionRun, 'fetch') +
      v.polls * sm.poll.ms;
    const pushMs = pushInvocations(v) * M.pushInvocationMs;
    const noticeMs = v.run.notices * M.pushInvocationMs;
    return (
      ((apiMs / 1000) * MEMORY_GB.api + (pushMs / 1000) * MEMORY_GB.push + (noticeMs / 1000) * MEMORY_GB.notices) *
      P.lambdaArmPerGbSecond
    );
  });
  add('Push messages (both ways, 32 KB units)', (v) =>
    v.push ? m(v.run.pushOut + pushIn(v)) * P.websocketPerMillionMessages : 0,
  );
  add('Push connection minutes', (v) => m(v.connMin) * P.websocketPerMillionConnectionMinutes);
  add(
    'SQS (notice messages x 3 requests)',
    (v) => m(v.run.notices * M.sqsRequestsPerMessage) * P.sqsPerMillionRequests,
  );
  add('CloudWatch Logs', (v) => {
    const invocations = apiRequests(v) + pushInvocations(v) + v.run.notices;
    const bytes =
      v.run.logBytes +
      v.polls * sm.poll.logBytes +
      invocations * M.platformLogBytes +
      apiRequests(v) * M.accessLogBytes +
      n(v.run, 'command') * M.metricsLogBytes;
    return (bytes / 1024 ** 3) * P.logsPerGbIngested;
  });
  const totals: Record<string, number> = {};
  for (const v of variants) totals[v.name] = lines.reduce((t, l) => t + (l[v.name] as number), 0);
  return {
    prices: P,
    model: M,
    variants: variants.map((v) => v.name),
    measured: {
      commits,
      requests: { view: viewRun.http, version: versionRun.http },
      dynamo: {
        view: {
          wru: viewRun.capacity.writeUnits,
          rru: viewRun.capacity.readUnits,
          writes: viewRun.capacity.writes,
          reads: viewRun.capacity.reads,
        },
        version: {
          wru: versionRun.capacity.writeUnits,
          rru: versionRun.capacity.readUnits,
          writes: versionRun.capacity.writes,
          reads: versionRun.capacity.reads,
        },
      },
      push: {
        view: {
          out: viewRun.pushOut,
          outBytes: viewRun.pushOutBytes,
          maxBytes: viewRun.pushOutMaxBytes,
          in: viewRun.pushIn,
        },
        version: {
          out: versionRun.pushOut,
          outBytes: versionRun.pushOutBytes,
          maxBytes: versionRun.pushOutMaxBytes,
          in: versionRun.pushIn,
        },
      },
      notices: { view: viewRun.notices, version: versionRun.notices },
      appLogBytes: { view: viewRun.logBytes, version: versionRun.logBytes },
      poll: sm.poll,
      archive: sm.archive,
      sweepVisit: sm.visit,
    },
    lines,
    totals,
  };
}

/** The cost table as text, one line per item, one column per variant. */
export function costTable(r: CostReport): string {
  const usd = (x: number) => (x === 0 ? '-' : x < 0.00001 ? `$${x.toFixed(7)}` : `$${x.toFixed(5)}`);
  const cols = ['line', ...r.variants];
  const rows = [
    ...r.lines.map((l) => [l.line, ...r.variants.map((v) => usd(l[v] as number))]),
    ['TOTAL', ...r.variants.map((v) => usd(r.totals[v]))],
  ];
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => row[i].length)));
  const fmt = (xs: string[]) => xs.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  return [fmt(cols), ...rows.map(fmt)].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchCost();
  if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  else {
    console.log(costTable(r));
    console.log(JSON.stringify(r.measured, null, 2));
  }
}
