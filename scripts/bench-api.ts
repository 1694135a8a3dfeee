// API latency on the local server (in-memory dynalite): playCard and a full game query
// against a trivial `{ __typename }` on the same server, as p50/p95 and ratios.
// `npm run bench:api`; `benchApi()` is exported for scripts/bench.ts.
import { startLocal } from '../functions/local/server.js';

const GAME_FIELDS = `id status round day phase awaiting island { seat rank } days bagSize
  seats { seat name isBot hasChosen awaited deadline doubloons score handSize den graveyardSize lootCount loot { kind count } }
  me { seat hand choice choiceDeadline prompts { id kind text deadline options { id label } } } ranking { seat score }`;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export interface ApiBenchRow {
  name: string;
  p50: number;
  p95: number;
  ratioP50: number;
  ratioP95: number;
}

export async function benchApi(opts: { samples?: number; warmup?: number } = {}): Promise<ApiBenchRow[]> {
  const samples = opts.samples ?? 300;
  const warmup = opts.warmup ?? 30;
  const local = await startLocal({ port: 0, dataDir: null, tableName: 'bench' });
  try {
    const post = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
      const res = await fetch(`${local.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: any; errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const signUp = async (name: string) => (await post(`mutation($n: String!) { signUp(name: $n) { token } }`, { n: name })).signUp.token as string;
    const [a, b] = [await signUp('Bench A'), await signUp('Bench B')];
    const game = (await post(`mutation { createGame(input: { edition: CLASSIC, seats: 3, bots: 1, seed: "bench" }) { id } }`, {}, a)).createGame.id;
    await post(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: game }, b);
    const hand = (await post(`mutation($g: ID!) { startGame(gameId: $g) { me { hand } } }`, { g: game }, a)).startGame.me.hand as number[];
    // Seat 0 keeps replacing its choice (allowed until the last seat chose): a full commit each time.
    let i = 0;
    const cases: [string, () => Promise<unknown>][] = [
      ['{ __typename }', () => post(`{ __typename }`)],
      ['game(id) as a player', () => post(`query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, { id: game }, a)],
      ['playCard', () => post(`mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id me { choice } } }`, { g: game, r: hand[i++ % hand.length] }, a)],
    ];
    const times = new Map<string, number[]>();
    for (const [name, run] of cases) {
      for (let k = 0; k < warmup; k++) await run();
      const ts: number[] = [];
      for (let k = 0; k < samples; k++) {
        const t0 = performance.now();
        await run();
        ts.push(performance.now() - t0);
      }
      times.set(name, ts);
    }
    const base = times.get('{ __typename }')!;
    return cases.map(([name]) => {
      const ts = times.get(name)!;
      return { name, p50: pct(ts, 50), p95: pct(ts, 95), ratioP50: pct(ts, 50) / pct(base, 50), ratioP95: pct(ts, 95) / pct(base, 95) };
    });
  } finally {
    await local.close();
  }
}

export function printApiBench(rows: ApiBenchRow[]): void {
  console.log('API latency (local server, in-memory dynalite, sequential requests)');
  console.log('query                    p50 ms   p95 ms   x trivial p50   x trivial p95');
  for (const r of rows) {
    console.log(`${r.name.padEnd(24)} ${r.p50.toFixed(2).padStart(7)}  ${r.p95.toFixed(2).padStart(7)}  ${r.ratioP50.toFixed(1).padStart(14)}  ${r.ratioP95.toFixed(1).padStart(14)}`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  printApiBench(await benchApi());
}
