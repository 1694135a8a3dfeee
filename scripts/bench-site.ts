// `npm run bench:site`: does a play-by-web site's traffic slow its own games down? One site
// (client credentials `dev-site` of the local OpenID Provider) plays 4-seat classic games whose
// every seat is one of its users (`actAs`), against the local server exactly as `npm start` runs
// it (its own process, embedded store, rate limits ON). It plays one game alone, then four at
// once, alternating, R times; the headline is the ratio of a game's duration among four to one
// alone, median / min / max over the repetitions (issue 26: at most 1.5x), with the 429 answers
// the site got (each waited out as its Retry-After says, as a client should).
//
// A site's users think before they act: each decision waits `--think <ms>` (default 150 ms; a
// site of bots, far faster than people). `--think 0` measures the server's capacity instead:
// then four games share one API process's CPU and the ratio says how much (printed, not a goal).
// `--quick`: fewer repetitions.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { botRandom } from '../functions/engine/index.js';

const argValue = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const quick = process.argv.includes('--quick');
const THINK_MS = argValue('--think', 150);
const REPS = argValue('--reps', quick ? 3 : 5);
const GAMES = 4;

interface Counters {
  requests: number;
  limited: number;
}

/** The local server as `npm start` runs it, in memory, rate limits on; resolves its URL. */
function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/server.ts'], {
    cwd: resolve('.'),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT: '0', LOCAL_IN_MEMORY: '1', SWEEP_INTERVAL_SECONDS: '0', LOG_LEVEL: 'WARN' },
  });
  return new Promise((ok, fail) => {
    let buf = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /GraphQL at (http:\/\/\S+)\/graphql/.exec(buf);
      if (m) ok({ url: m[1], child });
    });
    child.once('exit', (code) => fail(new Error(`the local server exited (${code}): ${buf.slice(-400)}`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GraphQL over HTTP; a 429 is waited out (Retry-After) and sent again, and counted. */
function caller(url: string, counters: Counters) {
  return async (query: string, variables: Record<string, unknown>, token: string): Promise<any> => {
    for (;;) {
      counters.requests++;
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      if (res.status === 429) {
        counters.limited++;
        await res.arrayBuffer();
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      const body = (await res.json()) as { data?: any; errors?: { message: string }[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    }
  };
}

async function siteToken(url: string): Promise<string> {
  const res = await fetch(`${url}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('dev-site:dev-site-secret').toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=libertalia%2Fgames.create%20libertalia%2Fusers.act',
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no client-credentials token: ${JSON.stringify(body)}`);
  return body.access_token;
}

const VIEW = 'status awaiting';
const MINE = `query($g: ID!) { game(gameId: $g) { status awaiting me { seat hand prompts { id options { id } } } } }`;

/**
 * One site game: four of the site's users (fresh ids), every seat acting only when the game
 * awaits it, after thinking; returns its duration (ms).
 */
async function siteGame(url: string, site: string, label: string, seed: number, counters: Counters): Promise<number> {
  const gql = caller(url, counters);
  const rnd = botRandom(seed);
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++)
    tokens.push(
      (
        await gql(
          `mutation($u: String!, $n: String!) { actAs(user: $u, name: $n) { token } }`,
          {
            u: `${label}-${i}`,
            n: `Sailor ${label} ${i}`,
          },
          site,
        )
      ).actAs.token,
    );
  const t0 = performance.now();
  const id = (await gql(`mutation { createGame(input: { edition: CLASSIC, seats: 4 }) { id } }`, {}, tokens[0]))
    .createGame.id as string;
  for (const t of tokens.slice(1)) await gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, t);
  let g = (await gql(`mutation($g: ID!) { startGame(gameId: $g) { ${VIEW} } }`, { g: id }, tokens[0])).startGame;
  for (let step = 0; step < 2000 && g.status !== 'FINISHED'; step++) {
    const seat: number = g.awaiting[0];
    await sleep(THINK_MS);
    const mine = (await gql(MINE, { g: id }, tokens[seat])).game;
    const prompt = mine.me.prompts[0];
    g = prompt
      ? (
          await gql(
            `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { ${VIEW} } }`,
            { g: id, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id },
            tokens[seat],
          )
        ).answerPrompt
      : (
          await gql(
            `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { ${VIEW} } }`,
            { g: id, r: mine.me.hand[Math.floor(rnd() * mine.me.hand.length)] },
            tokens[seat],
          )
        ).playCard;
  }
  if (g.status !== 'FINISHED') throw new Error(`game ${id} did not finish`);
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x: number) => x.toFixed(2);

async function main(): Promise<void> {
  const { url, child } = await startServer();
  try {
    const site = await siteToken(url);
    const counters: Counters = { requests: 0, limited: 0 };
    // Warm-up: one game, not measured (the server's JIT and caches).
    await siteGame(url, site, 'warm', 1, counters);
    const ratios: number[] = [];
    const alone: number[] = [];
    const together: number[] = [];
    let limitedTogether = 0;
    let requestsTogether = 0;
    for (let r = 0; r < REPS; r++) {
      const one = await siteGame(url, site, `a${r}`, 100 + r, counters);
      const before = { ...counters };
      const four = await Promise.all(
        Array.from({ length: GAMES }, (_, k) => siteGame(url, site, `f${r}-${k}`, 200 + r * GAMES + k, counters)),
      );
      limitedTogether += counters.limited - before.limited;
      requestsTogether += counters.requests - before.requests;
      const worst = Math.max(...four);
      alone.push(one);
      together.push(worst);
      ratios.push(worst / one);
      process.stderr.write(
        `  repetition ${r + 1}/${REPS}: alone ${(one / 1000).toFixed(1)} s, four at once ${(worst / 1000).toFixed(1)} s (slowest)\n`,
      );
    }
    console.log(
      `bench:site  one site, ${GAMES} classic 4-seat games of its users at once vs one alone; think ${THINK_MS} ms per decision; ${REPS} repetitions; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
    );
    console.log(`  one game alone        median ${(median(alone) / 1000).toFixed(1)} s`);
    console.log(`  slowest of ${GAMES} at once  median ${(median(together) / 1000).toFixed(1)} s`);
    console.log(
      `  ratio (four / alone)  median ${fmt(median(ratios))}x, min ${fmt(Math.min(...ratios))}x, max ${fmt(Math.max(...ratios))}x  (goal at most 1.5x)`,
    );
    console.log(`  429 answers while four played: ${limitedTogether} of ${requestsTogether} requests`);
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
