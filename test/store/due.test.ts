// The store side of the sweep's work list: the sparse due-work index (GSI3) and delivery
// attempts claimed once by a conditional write, even when two sweeps try at the same moment.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CommitRecord,
  createDynamoStore,
  type DeliveryRecord,
  type GameRecord,
} from '../../functions/store/index.js';
import { freshTable } from '../setup/db.js';

let store: ReturnType<typeof createDynamoStore>;
beforeAll(async () => {
  const { client, tableName } = await freshTable('due');
  store = createDynamoStore({ tableName, client });
});

const game = (id: string, dueAt: string | null): GameRecord => ({
  id,
  version: 1,
  status: 'ACTIVE',
  createdAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-01T00:00:00.000Z',
  doc: {},
  lastSeq: 1,
  dueAt,
});
const first: CommitRecord = {
  version: 1,
  firstSeq: 1,
  at: '2031-01-01T00:00:00.000Z',
  status: 'ACTIVE',
  events: [{ type: 'x', data: {} }],
  body: {},
  notices: [],
};

describe('due-work index', () => {
  it('lists games due up to now, earliest first; a snapshot without dueAt leaves the index', async () => {
    await store.log.insertGame(game('late', '2031-01-01T10:00:00.000Z'), first);
    await store.log.insertGame(game('later', '2031-01-01T12:00:00.000Z'), first);
    await store.log.insertGame(game('untimed', null), first);
    expect(await store.ops.listDue('GAME', new Date('2031-01-01T09:59:59.999Z'), 10)).toEqual([]);
    expect(await store.ops.listDue('GAME', new Date('2031-01-01T10:00:00.000Z'), 10)).toEqual(['late']);
    expect(await store.ops.listDue('GAME', new Date('2031-01-02T00:00:00.000Z'), 10)).toEqual(['late', 'later']);
    expect(await store.log.saveSnapshot({ ...game('late', null), version: 2 })).toBe(true);
    expect(await store.ops.listDue('GAME', new Date('2031-01-02T00:00:00.000Z'), 10)).toEqual(['later']);
    expect((await store.log.loadGame('later'))!.game!.dueAt).toBe('2031-01-01T12:00:00.000Z');
  });

  it('a delivery attempt is claimed once; settling it takes it out of the index', async () => {
    const d: DeliveryRecord = {
      id: 'd1',
      hookId: 'h',
      playerId: 'p',
      body: '{}',
      attempts: 0,
      status: 'pending',
      nextAt: '2031-01-01T10:00:00.000Z',
      lastError: null,
      createdAt: '2031-01-01T10:00:00.000Z',
    };
    await store.notify.putDelivery(d);
    const now = new Date('2031-01-01T10:00:00.000Z');
    expect(await store.ops.listDue('DELIVERY', now, 10)).toEqual(['d1']);
    const retry = new Date('2031-01-01T10:01:00.000Z');
    const claims = await Promise.all([
      store.notify.claimDelivery('d1', 0, retry),
      store.notify.claimDelivery('d1', 0, retry),
    ]);
    expect(claims.sort()).toEqual([false, true]);
    expect(await store.ops.listDue('DELIVERY', now, 10)).toEqual([]); // next attempt not due yet
    expect(await store.ops.listDue('DELIVERY', retry, 10)).toEqual(['d1']);
    await store.notify.settleDelivery('d1', 1, 'delivered', null);
    expect(await store.ops.listDue('DELIVERY', new Date('2032-01-01T00:00:00Z'), 10)).toEqual([]);
    expect(await store.notify.getDelivery('d1')).toMatchObject({ status: 'delivered', attempts: 1, nextAt: null });
    expect(await store.notify.claimDelivery('d1', 1, null)).toBe(false); // delivered: nothing more to claim
  });
});

describe('sweep visits of old active games (inSlice)', () => {
  it('visits every old game exactly once an hour, at 1-, 5-, 10- and 15-minute intervals', async () => {
    const { inSlice, ACTIVE_SLICES } = await import('../../functions/api/ops/sweep.js');
    const ids = Array.from({ length: 500 }, (_, i) => `game-${i}-${i * 7919}`);
    const t0 = Date.UTC(2030, 0, 1, 0, 0, 30);
    for (const minutes of [1, 5, 10, 15]) {
      const visits = new Map<string, number>();
      for (let t = t0; t < t0 + 3_600_000; t += minutes * 60_000) {
        for (const id of ids) if (inSlice(id, new Date(t), minutes * 60_000)) visits.set(id, (visits.get(id) ?? 0) + 1);
      }
      expect(
        ids.every((id) => visits.get(id) === 1),
        `${minutes} min`,
      ).toBe(true);
    }
    // About a twelfth of the games per 5-minute run.
    const one = ids.filter((id) => inSlice(id, new Date(t0), 5 * 60_000)).length;
    expect(one).toBeGreaterThan(500 / ACTIVE_SLICES / 2);
    expect(one).toBeLessThan((500 / ACTIVE_SLICES) * 2);
    expect(ids.every((id) => inSlice(id, new Date(t0), 3_600_000))).toBe(true);
  });
});
