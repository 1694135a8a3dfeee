// The game item (the snapshot) is bounded: its size does not depend on the game's length.
// Checked as DynamoDB counts item size (attribute names + values) after every commit of complete
// 6-player games of both editions, and through changes of one seat's daily choice (the per-day
// limit answers LIMIT_EXCEEDED and writes nothing: the item stays byte for byte the same, so the
// item does not grow however many changes come). 1,000 changes in CI, 20,000 in `npm run stress`.
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../functions/api/http/app.js';
import type { Player } from '../../functions/api/accounts/auth.js';
import type { Services } from '../../functions/api/services.js';
import { MAX_CHOICE_CHANGES_PER_DAY } from '../../functions/api/doc.js';
import { ApiError } from '../../functions/api/errors.js';
import { command, createGame, getGame, joinGame, startGame } from '../../functions/api/play/games.js';
import { awaitedSeats, botCommand, botRandom } from '../../functions/engine/index.js';
import { keys } from '../../functions/store/index.js';
import { SIGNING_KEY } from '../setup/app.js';
import { freshTable } from '../setup/db.js';
import { size } from '../setup/stress.js';

/** The bound stated in docs/storage.md: a game item never exceeds 8 KB. */
const GAME_ITEM_BOUND = 8 * 1024;

/** An item's size as DynamoDB bills and limits it: attribute names plus values. */
function itemBytes(item: Record<string, unknown>): number {
  const size = (v: unknown): number => {
    if (typeof v === 'string') return Buffer.byteLength(v);
    if (typeof v === 'number') return Math.ceil(String(Math.abs(v)).replace(/^0\.|\./, '').length / 2) + 1;
    if (typeof v === 'boolean' || v === null) return 1;
    if (v instanceof Uint8Array) return v.byteLength;
    if (Array.isArray(v)) return 3 + v.reduce((n, x) => n + 1 + size(x), 0);
    if (typeof v === 'object')
      return 3 + Object.entries(v as object).reduce((n, [k, x]) => n + 1 + Buffer.byteLength(k) + size(x), 0);
    return 0;
  };
  return Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + size(v), 0);
}

let services: Services;
let client: DynamoDBDocumentClient;
let tableName: string;
let clock = Date.parse('2032-01-01T00:00:00.000Z');

beforeAll(async () => {
  ({ client, tableName } = await freshTable('bounds'));
  services = buildApp({ tableName, client, signingKey: SIGNING_KEY, now: () => new Date((clock += 2000)) }).services;
});

/** The game item as stored. */
async function gameItem(gameId: string): Promise<Record<string, unknown>> {
  const r = await client.send(new GetCommand({ TableName: tableName, Key: keys.game(gameId), ConsistentRead: true }));
  return r.Item!;
}

const snapshotBytes = async (gameId: string): Promise<number> => itemBytes(await gameItem(gameId));

async function newGame(edition: 'CLASSIC' | 'GALECREST', seats: number, seed: string) {
  const players: Player[] = Array.from({ length: seats }, (_, i) => ({
    id: `${seed}-p${i}`,
    name: `Pirate With A Long Name ${i}`.slice(0, 40),
  }));
  // Signed-up players (the creator's item holds its open lobbies and creation count).
  for (const p of players) await services.store.players.insertPlayer({ ...p, createdAt: new Date(0).toISOString() });
  const rec = await createGame(services, players[0], { edition, seats, seed });
  for (const p of players.slice(1)) await joinGame(services, p, rec.id);
  await startGame(services, players[0], rec.id);
  return { id: rec.id, players };
}

describe('game item bound', () => {
  for (const edition of ['CLASSIC', 'GALECREST'] as const) {
    it(`stays under ${GAME_ITEM_BOUND} bytes through a complete 6-player ${edition.toLowerCase()} game`, async () => {
      const { id, players } = await newGame(edition, 6, `bound-${edition}`);
      let max = await snapshotBytes(id);
      let commits = 0;
      for (let i = 0; i < 2000; i++) {
        const rec = (await getGame(services, id))!;
        if (rec.status === 'FINISHED') break;
        const seat = awaitedSeats(rec.doc.state!)[0];
        const cmd = botCommand(rec.doc.state!, seat, 'random', botRandom(`${id}:${i}`));
        await command(services, players[seat], id, () => cmd, JSON.stringify(cmd));
        commits++;
        max = Math.max(max, await snapshotBytes(id));
      }
      expect((await getGame(services, id))!.status).toBe('FINISHED');
      expect(commits).toBeGreaterThan(150);
      expect(max).toBeLessThan(GAME_ITEM_BOUND);
      console.log(`${edition} 6 players: ${commits} commits, largest game item ${max} bytes`);
    }, 120_000);
  }

  // A refused change reads the game and writes nothing, so the next one meets the same stored game
  // and is refused the same way: checked below byte for byte over every refused change, which
  // makes 1,000 changes prove what 20,000 do (those stay in `npm run stress`).
  const CHANGES = size(1_000, 20_000);
  it(`stays bounded through ${CHANGES.toLocaleString('en')} changes of one seat's daily choice: after ${MAX_CHOICE_CHANGES_PER_DAY} changes, LIMIT_EXCEEDED and nothing written`, async () => {
    const { id, players } = await newGame('CLASSIC', 6, 'bound-changes');
    const hand = (await getGame(services, id))!.doc.state!.seats[0].hand;
    const start = await snapshotBytes(id);
    let accepted = 0;
    let refused = 0;
    let max = start;
    /** The game item when the limit was reached: every refused change must leave it as it is. */
    let atLimit: Record<string, unknown> | undefined;
    for (let i = 0; i < CHANGES; i++) {
      const card = hand[i % 2];
      try {
        await command(services, players[0], id, () => ({ seat: 0, play: card }), `play:${card}`);
        accepted++;
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).code).toBe('LIMIT_EXCEEDED');
        refused++;
      }
      if (accepted === MAX_CHOICE_CHANGES_PER_DAY + 1 && !atLimit) atLimit = await gameItem(id);
      if (i % 1000 === 0 || i < 40) max = Math.max(max, await snapshotBytes(id));
    }
    max = Math.max(max, await snapshotBytes(id));
    expect(accepted).toBe(MAX_CHOICE_CHANGES_PER_DAY + 1); // the first choice, then the changes
    expect(refused).toBe(CHANGES - accepted);
    expect(await gameItem(id)).toEqual(atLimit);
    const rec = (await getGame(services, id))!;
    expect(rec.doc.state!.seats[0].choice).toBe(hand[MAX_CHOICE_CHANGES_PER_DAY % 2]);
    const commits = await services.store.log.listCommits(id);
    expect(commits.length).toBeLessThan(MAX_CHOICE_CHANGES_PER_DAY + 10);
    expect(max).toBeLessThan(GAME_ITEM_BOUND);
    expect(max - start).toBeLessThan(200); // a counter, not a history
    console.log(
      `${CHANGES} choice changes: ${accepted} accepted, ${refused} refused, game item ${start} -> ${max} bytes, ${commits.length} commits`,
    );
  }, 300_000);
});
