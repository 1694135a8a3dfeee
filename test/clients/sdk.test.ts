// The TypeScript SDK (clients/typescript) against the current schema: its code is generated from
// schema/*.graphql and operations/*.graphql (codegen validates every operation: a schema change
// that breaks one fails here; additive changes just flow in), the SDK and its example
// type-check, and the example bot plays a whole game of each edition against the local server
// over HTTP using only the SDK.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../clients/typescript/codegen.js';
import { startServer } from '../setup/http.js';

const SDK = join(import.meta.dirname, '..', '..', 'clients', 'typescript');

// The SDK by path (its own tsconfig type-checks it below); its generated module is committed
// and kept fresh by test/scripts/codegen.test.ts.
let sdk: any;
let bot: any;
beforeAll(async () => {
  sdk = await import(join(SDK, 'src', 'index.ts'));
  bot = await import(join(SDK, 'examples', 'bot.ts'));
}, 60_000);

describe('the SDK matches the schema', () => {
  it('generates typed documents for every query, mutation and subscription of the schema', async () => {
    const text = readFileSync(join(SDK, 'src', 'generated.ts'), 'utf8');
    const schema = readFileSync(join(SDK, '..', '..', 'functions', 'api', 'schema.generated.ts'), 'utf8');
    const sdl = JSON.parse(schema.split('export const typeDefs = ')[1].replace(/;\n$/, '')) as string;
    const { buildSchema } = await import('graphql');
    const built = buildSchema(sdl);
    const ops = readdirSync(join(SDK, 'operations'))
      .map((f) => readFileSync(join(SDK, 'operations', f), 'utf8'))
      .join('\n');
    for (const root of [built.getQueryType()!, built.getMutationType()!, built.getSubscriptionType()!]) {
      for (const f of Object.values(root.getFields())) {
        if (f.deprecationReason) continue;
        // `name(args)`, `name { selection }`, or a bare scalar field on its own line (`signOut`).
        expect(ops, `${root.name}.${f.name} has no SDK operation`).toMatch(
          new RegExp(`\\b${f.name}\\(|\\b${f.name}\\s*\\{|^\\s*${f.name}\\s*$`, 'm'),
        );
      }
    }
    expect(text).toContain('export const PlayCardDocument');
    expect(text).toContain('export const GameUpdatedDocument');
  });

  it('LibertaliaClient has a method for every operation (named after it)', () => {
    const ops = readdirSync(join(SDK, 'operations'))
      .flatMap((f) => [
        ...readFileSync(join(SDK, 'operations', f), 'utf8').matchAll(/^(?:query|mutation|subscription) (\w+)/gm),
      ])
      .map((m) => m[1]);
    expect(ops.length).toBeGreaterThan(30);
    // The few whose method has another name: the event log pages (and iterates), the subscription.
    const renamed: Record<string, string> = { Events: 'eventsPage', GameUpdated: 'subscribe' };
    const missing = ops
      .map((op) => renamed[op] ?? op[0].toLowerCase() + op.slice(1))
      .filter((m) => typeof sdk.LibertaliaClient.prototype[m] !== 'function');
    expect(missing).toEqual([]);
  });

  it('codegen refuses operations the schema no longer supports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-schema-'));
    try {
      cpSync(join(SDK, '..', '..', 'schema'), dir, { recursive: true });
      const game = readFileSync(join(dir, 'game.graphql'), 'utf8');
      writeFileSync(join(dir, 'game.graphql'), game.replace(/\n {2}hand: \[Int!\]!/, '\n  cards: [Int!]!'));
      await expect(generate(dir)).rejects.toThrow(/hand/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the SDK and its example type-check (tsc --noEmit -p clients/typescript)', async () => {
    const tsc = join(SDK, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', SDK])).resolves.toBeDefined();
  }, 120_000);
});

describe('the example bot', () => {
  let s: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('retries a move whose answer was lost with the same requestId: applied once', async () => {
    let drop = 0;
    const flaky: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (drop > 0 && String(init?.body).includes('PlayCard')) {
        drop--;
        throw new TypeError('fetch failed (answer lost after the server applied the move)');
      }
      return res;
    };
    const api = new sdk.LibertaliaClient({ url: s.url, fetch: flaky, retryDelayMs: 10 });
    await api.signUp('Retry bot');
    const other = new sdk.LibertaliaClient({ url: s.url });
    await other.signUp('Other');
    const g = await api.createGame({ edition: 'CLASSIC', seats: 3, bots: 1 });
    await other.joinGame(g.id);
    const started = await api.startGame(g.id);
    drop = 1;
    const after = await api.playCard(g.id, started.me!.hand[0]);
    expect(after.me!.choice).toBe(started.me!.hand[0]);
    const chosen = [];
    for await (const e of api.events(g.id) as AsyncIterable<any>)
      if (e.__typename === 'CardChosenEvent' && e.seat === 0) chosen.push(e);
    expect(chosen).toHaveLength(1);
    // A typed error, not retried: the server's code.
    await expect(api.playCard(g.id, 99)).rejects.toMatchObject({ name: 'ApiRequestError', code: 'ILLEGAL_MOVE' });
    await expect(new sdk.LibertaliaClient({ url: s.url }).joinGame(g.id)).rejects.toBeInstanceOf(sdk.ApiRequestError);
  });

  for (const edition of ['CLASSIC', 'GALECREST'] as const) {
    it(`plays a whole ${edition} game with the SDK only`, async () => {
      const lines: string[] = [];
      const r = await bot.playOneGame({
        url: s.url,
        edition,
        seats: edition === 'GALECREST' ? 2 : 3,
        seed: 13,
        // names are unique on a server (issue 23): one per edition's game
        name: `SDK bot ${edition.toLowerCase()}`,
        log: (l: string) => lines.push(l),
      });
      expect(r.game.status).toBe('FINISHED');
      expect(r.game.ranking).toHaveLength(r.game.seatCount);
      expect(r.moves).toBeGreaterThan(10);
      expect(lines.some((l) => l.startsWith('game over'))).toBe(true);
    }, 180_000);
  }
});
