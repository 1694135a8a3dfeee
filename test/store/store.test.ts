import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStore, type GameRecord, RECENT_REQUESTS, type Store, type StoredEvent } from '../../functions/store/index.js';
import { freshTable } from '../setup/db.js';

let store: Store;
let client: DynamoDBDocumentClient;
let tableName: string;
let n = 0;

beforeAll(async () => {
  ({ client, tableName } = await freshTable('store'));
  store = createStore({ tableName, client });
});

const ev = (seq: number, type = 'x'): StoredEvent => ({ seq, at: '2024-01-01T00:00:00.000Z', type, data: { seq } });

function game(over: Partial<GameRecord> = {}): GameRecord<{ note: string }> {
  n++;
  return {
    id: `g${n}-${Date.now()}`,
    version: 1,
    status: 'LOBBY',
    createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString(),
    updatedAt: '2024-01-01T00:00:00.000Z',
    doc: { note: 'hello' },
    lastSeq: 0,
    outbox: [],
    requests: {},
    ...over,
  } as GameRecord<{ note: string }>;
}

/** A client that "crashes" (throws) on event puts after `okPuts` of them: an interrupted copy. */
function crashingClient(okPuts: number): DynamoDBDocumentClient {
  let puts = 0;
  return new Proxy(client, {
    get(target, prop, recv) {
      if (prop !== 'send') return Reflect.get(target, prop, recv);
      return (cmd: unknown) => {
        if (cmd instanceof PutCommand && String(cmd.input.Item?.SK).startsWith('EVENT#') && puts++ >= okPuts) {
          return Promise.reject(new Error('crash'));
        }
        return target.send(cmd as never);
      };
    },
  });
}

describe('game items', () => {
  it('inserts once and loads what was written', async () => {
    const g = game();
    expect(await store.insertGame(g)).toBe(true);
    expect(await store.insertGame(g)).toBe(false);
    const back = await store.loadGame<{ note: string }>(g.id);
    expect(back).toEqual(g);
    expect(await store.loadGame('nope')).toBeNull();
  });

  it('commits only on the expected version; exactly one of racing writers wins', async () => {
    const g = game();
    await store.insertGame(g);
    const stale = { ...g, version: 3, doc: { note: 'stale' } };
    expect(await store.commitGame(stale)).toBe(false);
    const racers = Array.from({ length: 8 }, (_, i) => ({ ...g, version: 2, doc: { note: `w${i}` } }));
    const wins = await Promise.all(racers.map((r) => store.commitGame(r)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const back = await store.loadGame<{ note: string }>(g.id);
    expect(back!.version).toBe(2);
    expect(back!.doc.note).toBe(`w${wins.indexOf(true)}`);
  });

  it('copies the outbox to event items and empties it', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.insertGame(g);
    const events = Array.from({ length: 30 }, (_, i) => ev(i + 1));
    expect(await store.commitGame({ ...g, version: 2, lastSeq: 30, outbox: events })).toBe(true);
    expect((await store.getGameRaw(g.id))!.outbox).toEqual([]);
    const p1 = await store.listEvents(g.id, 0, 20);
    expect(p1.events.map((e) => e.seq)).toEqual(events.slice(0, 20).map((e) => e.seq));
    expect(p1.hasMore).toBe(true);
    const p2 = await store.listEvents(g.id, 20, 20);
    expect(p2.events.map((e) => e.seq)).toEqual(events.slice(20).map((e) => e.seq));
    expect(p2.hasMore).toBe(false);
    expect(p2.events[0]).toEqual(ev(21));
  });

  it('a reader finishes a copy a crashed writer left half done', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.insertGame(g);
    const crashing = createStore({ tableName, client: crashingClient(3) });
    const events = Array.from({ length: 40 }, (_, i) => ev(i + 1, 'secret' + i));
    await expect(crashing.commitGame({ ...g, version: 2, lastSeq: 40, outbox: events })).rejects.toThrow('crash');
    const raw = await store.getGameRaw(g.id);
    expect(raw!.version).toBe(2); // the commit itself happened
    expect(raw!.outbox).toHaveLength(40);
    expect((await store.listEvents(g.id, 0, 100)).events.length).toBeLessThan(40);
    const loaded = await store.loadGame(g.id);
    expect(loaded!.outbox).toEqual([]);
    expect((await store.getGameRaw(g.id))!.outbox).toEqual([]);
    const all = await store.listEvents(g.id, 0, 100);
    expect(all.events).toEqual(events);
  });

  it('a trim never empties a newer commit’s outbox', async () => {
    const g = game({ status: 'ACTIVE' });
    await store.insertGame(g);
    const v2 = { ...g, version: 2, lastSeq: 1, outbox: [ev(1)] };
    await expect(createStore({ tableName, client: crashingClient(0) }).commitGame(v2)).rejects.toThrow('crash');
    // The next writer loads (copying seq 1), then commits seq 2; a late trim of v2 must not touch v3.
    await store.loadGame(g.id);
    const v3 = { ...g, version: 3, lastSeq: 2, outbox: [ev(2)] };
    await expect(createStore({ tableName, client: crashingClient(0) }).commitGame(v3)).rejects.toThrow('crash');
    await store.flushOutbox(v2); // the stale trim: condition fails silently
    expect((await store.getGameRaw(g.id))!.outbox).toEqual([ev(2)]);
    await store.loadGame(g.id);
    expect((await store.listEvents(g.id, 0, 10)).events).toEqual([ev(1), ev(2)]);
  });

  it('keeps only the newest request ids in the game item', async () => {
    const g = game();
    await store.insertGame(g);
    const requests = Object.fromEntries(Array.from({ length: RECENT_REQUESTS + 10 }, (_, i) => [`r${i}`, i]));
    await store.commitGame({ ...g, version: 2, requests });
    const back = await store.getGameRaw(g.id);
    expect(Object.keys(back!.requests)).toHaveLength(RECENT_REQUESTS);
    expect(back!.requests.r0).toBeUndefined();
    expect(back!.requests[`r${RECENT_REQUESTS + 9}`]).toBe(RECENT_REQUESTS + 9);
  });
});

describe('status index', () => {
  it('lists lobbies, moves started games and drops finished ones once copied', async () => {
    const { client: c2, tableName: t2 } = await freshTable('status');
    const s = createStore({ tableName: t2, client: c2 });
    const a = game();
    const b = game();
    await s.insertGame(a);
    await s.insertGame(b);
    expect(await s.listGameIdsByStatus('LOBBY', 10)).toEqual([b.id, a.id]);
    await s.commitGame({ ...a, version: 2, status: 'ACTIVE' });
    expect(await s.listGameIdsByStatus('LOBBY', 10)).toEqual([b.id]);
    expect(await s.listGameIdsByStatus('ACTIVE', 10)).toEqual([a.id]);
    // Finished, but the copy crashed: still listed for the sweep until a reader finishes it.
    const fin = { ...a, version: 3, status: 'FINISHED' as const, lastSeq: 1, outbox: [ev(1)] };
    await expect(createStore({ tableName: t2, client: crashingClient(0) }).commitGame(fin)).rejects.toThrow('crash');
    expect(await s.listGameIdsByStatus('ACTIVE', 10)).toEqual([a.id]);
    await s.loadGame(a.id);
    expect(await s.listGameIdsByStatus('ACTIVE', 10)).toEqual([]);
    expect(await s.listGameIdsByStatus('LOBBY', 1)).toEqual([b.id]);
    expect((await s.getGames([a.id, b.id, 'missing'])).map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe('players, members and request records', () => {
  it('signs a player up once', async () => {
    const p = { id: `p-${Date.now()}`, name: 'Anne Bonny', createdAt: '2024-01-01T00:00:00.000Z' };
    expect(await store.insertPlayer(p)).toBe(true);
    expect(await store.insertPlayer({ ...p, name: 'other' })).toBe(false);
    expect(await store.getPlayer(p.id)).toEqual(p);
    expect(await store.getPlayer('nobody')).toBeNull();
  });

  it('indexes a player’s games newest first', async () => {
    const pid = `member-${Date.now()}`;
    await store.putMember('old', pid, '2024-01-01T00:00:00.000Z');
    await store.putMember('new', pid, '2024-02-01T00:00:00.000Z');
    await store.putMember('new', pid, '2024-02-01T00:00:00.000Z'); // idempotent
    expect(await store.listMemberGameIds(pid, 10)).toEqual(['new', 'old']);
    await store.deleteMember('new', pid);
    expect(await store.listMemberGameIds(pid, 10)).toEqual(['old']);
  });

  it('keeps the first request record', async () => {
    const now = new Date();
    expect(await store.getRequest('g', 'p', 'r1')).toBeNull();
    await store.putRequest('g', 'p', 'r1', { fingerprint: 'a', version: 2, answer: { x: 1 } }, now);
    await store.putRequest('g', 'p', 'r1', { fingerprint: 'b', version: 3, answer: { x: 2 } }, now);
    expect(await store.getRequest('g', 'p', 'r1')).toEqual({ fingerprint: 'a', version: 2, answer: { x: 1 } });
  });
});
