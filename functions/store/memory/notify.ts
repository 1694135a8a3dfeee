// The in-memory twin of dynamo/webhooks.ts and dynamo/reminders.ts: webhooks and deliveries
// (webhooks.ts), each player's reminder settings (due work of kind REMIND at `checkAt`), marks
// of mails that go at most once, and the key that signs mail links. As on dynalite, a mark is
// never dropped at its TTL: only releaseMailMark frees it.
import { randomBytes } from 'node:crypto';
import type { Notify } from '../ports.js';
import type { ReminderRecord } from '../records.js';
import { copy, dueIndex } from './pages.js';
import { memoryDeliveries, memoryWebhooks } from './webhooks.js';

type Reminders = Pick<Notify, 'getReminders' | 'putReminders' | 'claimMailMark' | 'releaseMailMark' | 'mailKey'>;

export function memoryNotify(): {
  notify: Notify;
  due(kind: 'DELIVERY' | 'REMIND', now: Date, limit: number): Promise<string[]>;
} {
  const { deliveries, due: deliveriesDue } = memoryDeliveries();
  const reminders = memoryReminders();
  return {
    notify: { ...memoryWebhooks(), ...deliveries, ...reminders.reminders },
    due: (kind, now, limit) => (kind === 'DELIVERY' ? deliveriesDue(now, limit) : reminders.due(now, limit)),
  };
}

function memoryReminders() {
  const settings = new Map<string, ReminderRecord>();
  const marks = new Set<string>();
  const index = dueIndex();
  let key: string | undefined;
  const mark = (playerId: string, m: string) => JSON.stringify([playerId, m]);
  const reminders: Reminders = {
    getReminders: async (playerId) => copy(settings.get(playerId) ?? null),
    async putReminders(rec, ifUpdatedAt) {
      if (ifUpdatedAt !== undefined && settings.get(rec.playerId)?.updatedAt !== ifUpdatedAt) return false;
      settings.set(rec.playerId, copy(rec));
      index.set(rec.playerId, rec.checkAt);
      return true;
    },
    async claimMailMark(playerId, m) {
      const k = mark(playerId, m);
      if (marks.has(k)) return false;
      marks.add(k);
      return true;
    },
    releaseMailMark: async (playerId, m) => void marks.delete(mark(playerId, m)),
    mailKey: async () => (key ??= randomBytes(32).toString('base64url')),
  };
  return { reminders, due: index.due };
}
