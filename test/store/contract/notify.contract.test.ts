// The Notify port on both adapters: webhook registrations by owner, deliveries written once with
// attempts claimed once (racing sweeps: one wins) and listed as due work (DELIVERY) while an
// attempt is due; reminder settings listed as due work (REMIND) at `checkAt`, written over only
// if unchanged when asked; once-only mail marks; one mail link key.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRecord, ReminderRecord, Store, WebhookRecord } from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';
import { uid } from './ids.js';

const T0 = '2031-01-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000);
const LATER = new Date('2032-01-01T00:00:00.000Z');

const hook = (over: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id: uid('h'),
  playerId: 'anne',
  url: 'https://hooks.example.test/x',
  gameId: null,
  secret: 's3cret',
  createdAt: T0,
  ...over,
});

const delivery = (over: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id: uid('d'),
  hookId: 'h',
  playerId: 'p',
  body: '{"x":1}',
  attempts: 0,
  status: 'pending',
  nextAt: T0,
  lastError: null,
  createdAt: T0,
  ...over,
});

const settings = (playerId: string, over: Partial<ReminderRecord> = {}): ReminderRecord => ({
  playerId,
  email: 'anne@example.test',
  confirmed: true,
  enabled: true,
  delayHours: 12,
  dailyDigest: false,
  updatedAt: T0,
  checkAt: T0,
  ...over,
});

describe.each(ADAPTERS)('notify on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });

  describe('webhooks', () => {
    it("registers once per id; a player's and a site's registrations are apart; lists oldest first", async () => {
      const player = uid('p');
      const client = uid('c');
      const a = hook({ playerId: player, createdAt: at(2).toISOString(), gameId: 'g1' });
      const b = hook({ playerId: player, createdAt: at(1).toISOString() });
      const site = hook({ playerId: null, clientId: client, id: a.id });
      expect(await store.notify.putWebhook(a)).toBe(true);
      expect(await store.notify.putWebhook({ ...a, url: 'https://other.test' })).toBe(false);
      expect(await store.notify.putWebhook(b)).toBe(true);
      expect(await store.notify.putWebhook(site)).toBe(true); // same id, another owner
      expect(await store.notify.getWebhook({ playerId: player }, a.id)).toEqual({ ...a, clientId: null });
      expect(await store.notify.getWebhook({ clientId: client }, a.id)).toEqual(site);
      expect(await store.notify.listWebhooks({ playerId: player })).toEqual([
        { ...b, clientId: null },
        { ...a, clientId: null },
      ]);
      expect(await store.notify.listWebhooks({ clientId: client })).toEqual([site]);
      expect(await store.notify.deleteWebhook({ playerId: player }, a.id)).toBe(true);
      expect(await store.notify.deleteWebhook({ playerId: player }, a.id)).toBe(false);
      expect(await store.notify.getWebhook({ playerId: player }, a.id)).toBeNull();
      expect(await store.notify.getWebhook({ clientId: client }, a.id)).toEqual(site);
      expect(await store.notify.listWebhooks({ playerId: uid('nobody') })).toEqual([]);
    });
  });

  describe('deliveries', () => {
    it('a delivery is written once, and read back as written', async () => {
      const d = delivery({ clientId: 'site-1' });
      expect(await store.notify.putDelivery(d)).toBe(true);
      expect(await store.notify.putDelivery({ ...d, body: 'other' })).toBe(false);
      expect(await store.notify.getDelivery(d.id)).toEqual(d);
      expect(await store.notify.getDelivery(uid('none'))).toBeNull();
    });

    it('an attempt is claimed once by racing sweeps; the retry is due at its time; settling takes it off the index', async () => {
      const fresh = await adapter.make();
      const d = delivery();
      await fresh.notify.putDelivery(d);
      expect(await fresh.ops.listDue('DELIVERY', at(-1), 10)).toEqual([]);
      expect(await fresh.ops.listDue('DELIVERY', at(0), 10)).toEqual([d.id]);
      const claims = await Promise.all([0, 1, 2].map(() => fresh.notify.claimDelivery(d.id, 0, at(1))));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await fresh.ops.listDue('DELIVERY', at(0), 10)).toEqual([]); // the next attempt is not due yet
      expect(await fresh.ops.listDue('DELIVERY', at(1), 10)).toEqual([d.id]);
      expect(await fresh.notify.getDelivery(d.id)).toMatchObject({ attempts: 1, nextAt: at(1).toISOString() });
      await fresh.notify.settleDelivery(d.id, 1, 'pending', 'HTTP 500');
      expect(await fresh.ops.listDue('DELIVERY', at(1), 10)).toEqual([d.id]); // still pending: still due
      await fresh.notify.settleDelivery(d.id, 0, 'delivered', null); // an older attempt's outcome: ignored
      expect(await fresh.notify.getDelivery(d.id)).toMatchObject({ status: 'pending', lastError: 'HTTP 500' });
      await fresh.notify.settleDelivery(d.id, 1, 'delivered', null);
      expect(await fresh.ops.listDue('DELIVERY', LATER, 10)).toEqual([]);
      expect(await fresh.notify.getDelivery(d.id)).toEqual({
        ...d,
        attempts: 1,
        status: 'delivered',
        nextAt: null,
        lastError: null,
      });
      expect(await fresh.notify.claimDelivery(d.id, 1, null)).toBe(false); // delivered: nothing more to claim
      expect(await fresh.notify.claimDelivery(uid('none'), 0, null)).toBe(false);
    });

    it('the last attempt (no retry) leaves the index; a failed delivery stays off it; one not pending or without a time was never on it', async () => {
      const fresh = await adapter.make();
      const last = delivery({ attempts: 4 });
      const failed = delivery();
      const done = delivery({ status: 'delivered', nextAt: null });
      const untimed = delivery({ nextAt: null });
      for (const d of [last, failed, done, untimed]) await fresh.notify.putDelivery(d);
      expect((await fresh.ops.listDue('DELIVERY', LATER, 10)).sort()).toEqual([last.id, failed.id].sort());
      expect(await fresh.notify.claimDelivery(last.id, 4, null)).toBe(true);
      expect(await fresh.notify.getDelivery(last.id)).toMatchObject({ attempts: 5, nextAt: null, status: 'pending' });
      await fresh.notify.settleDelivery(failed.id, 0, 'failed', 'gone');
      expect(await fresh.ops.listDue('DELIVERY', LATER, 10)).toEqual([]);
      // A claim's retry time does not put a delivery that was never listed on the index.
      expect(await fresh.notify.claimDelivery(untimed.id, 0, at(1))).toBe(true);
      expect(await fresh.ops.listDue('DELIVERY', LATER, 10)).toEqual([]);
    });

    it('lists due deliveries earliest first, then by id, at most limit', async () => {
      const fresh = await adapter.make();
      const times = [5, 1, 3, 1, 4, 2, 9, 0, 7, 6, 8, 3];
      const ds = times.map((m, i) => delivery({ id: `d${String(i).padStart(2, '0')}`, nextAt: at(m).toISOString() }));
      for (const d of ds) await fresh.notify.putDelivery(d);
      const order = [...ds]
        .sort((a, b) => (a.nextAt as string).localeCompare(b.nextAt as string) || a.id.localeCompare(b.id))
        .map((d) => d.id);
      expect(await fresh.ops.listDue('DELIVERY', LATER, 100)).toEqual(order);
      expect(await fresh.ops.listDue('DELIVERY', LATER, 4)).toEqual(order.slice(0, 4));
      expect(await fresh.ops.listDue('DELIVERY', at(3), 100)).toEqual(
        order.filter((id) => ds.find((d) => d.id === id)!.nextAt! <= at(3).toISOString()),
      );
      expect(await fresh.ops.listDue('REMIND', LATER, 100)).toEqual([]); // kinds apart
    });
  });

  describe('reminders and mail', () => {
    it('settings are due work at checkAt (none without); a conditional write holds only if unchanged', async () => {
      const fresh = await adapter.make();
      const anne = settings('anne', { checkAt: at(5).toISOString() });
      const mary = settings('mary', { checkAt: at(2).toISOString() });
      const jack = settings('jack', { checkAt: null });
      for (const s of [anne, mary, jack]) expect(await fresh.notify.putReminders(s)).toBe(true);
      expect(await fresh.notify.getReminders('anne')).toEqual(anne);
      expect(await fresh.notify.getReminders('nobody')).toBeNull();
      expect(await fresh.ops.listDue('REMIND', at(1), 10)).toEqual([]);
      expect(await fresh.ops.listDue('REMIND', at(5), 10)).toEqual(['mary', 'anne']);
      expect(await fresh.ops.listDue('REMIND', at(5), 1)).toEqual(['mary']);
      const moved = { ...mary, updatedAt: at(1).toISOString() };
      expect(await fresh.notify.putReminders(moved)).toBe(true);
      expect(await fresh.notify.putReminders({ ...mary, checkAt: null }, mary.updatedAt)).toBe(false); // changed meanwhile
      expect(await fresh.notify.putReminders({ ...moved, checkAt: null }, moved.updatedAt)).toBe(true);
      expect(await fresh.ops.listDue('REMIND', LATER, 10)).toEqual(['anne']);
      expect(await fresh.notify.putReminders(settings('nobody'), T0)).toBe(false); // nothing to be unchanged
      expect(await fresh.notify.getReminders('nobody')).toBeNull();
      expect(await fresh.ops.listDue('DELIVERY', LATER, 10)).toEqual([]);
    });

    it('a mail mark is claimed once (racing senders: one wins), per player, until released', async () => {
      const p = uid('p');
      const now = new Date(T0);
      const won = await Promise.all([0, 1, 2, 3].map(() => store.notify.claimMailMark(p, 'TURN#g#5', now, 30)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await store.notify.claimMailMark(p, 'DIGEST#2031-01-01', now, 2)).toBe(true);
      expect(await store.notify.claimMailMark(uid('p'), 'TURN#g#5', now, 30)).toBe(true);
      await store.notify.releaseMailMark(p, 'TURN#g#5');
      await store.notify.releaseMailMark(p, 'TURN#g#5'); // idempotent
      expect(await store.notify.claimMailMark(p, 'TURN#g#5', now, 30)).toBe(true);
      expect(await store.notify.claimMailMark(p, 'DIGEST#2031-01-01', now, 2)).toBe(false);
    });

    it('the mail link key is made once: every caller, racing or later, reads the same', async () => {
      const fresh = await adapter.make();
      const keys = await Promise.all([0, 1, 2].map(() => fresh.notify.mailKey()));
      expect(new Set(keys).size).toBe(1);
      expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(await fresh.notify.mailKey()).toBe(keys[0]);
      expect(await (await adapter.make()).notify.mailKey()).not.toBe(keys[0]);
    });
  });
});
