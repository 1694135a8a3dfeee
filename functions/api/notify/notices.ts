// The notice queue: how what a commit must tell reaches webhook receivers without the move
// waiting for any of them. A commit records its notices in its own item, in its outbox (the same
// conditional put: see play/commit.ts), and hands them to the queue once that item is written,
// naming it (its key and a random id); a queue that fails leaves them in the outbox, and the
// sweep hands them again (`resendOutboxes`). The worker (the same `handleNotice` everywhere)
// first finds that commit, unless the message says its sender wrote it (`written`: the move's
// own hand-off, made only after its put won): a notice whose commit is not there (or is
// another writer's) is dropped; one whose commit is there is delivered: one delivery per
// matching webhook (ids derived from the notice: a notice handed twice is delivered once), attempted at once; a
// failed attempt comes back as a delayed `retry` message. Then it empties the commit's outbox
// (conditional: a repeat is a no-op). A worker that stops half-way leaves the outbox full, so
// the notice is handed again: delivery is at least once to the service, once per delivery id
// to a receiver (`x-libertalia-delivery` and the body's `deliveryId` name it for receivers
// that dedupe an attempt answered but not recorded).
//
// - On AWS the queue is SQS: the API sends, a consumer Lambda handles (a message whose handling
//   throws is received again, and after a few receives goes to the dead-letter queue, which
//   has an alarm; its notices are still in the outbox, so the sweep hands them again). Delays
//   above SQS's 15 minutes are made of several hops.
// - Locally (`npm start`, tests) the queue is in the process: `createLocalQueue`. A local
//   server killed between a hand-off and its delivery leaves the notices in the outbox: the
//   sweep hands them again; deliveries already recorded are retried by `deliverDue`.
import { parseOutboxId } from '../../store/records.js';
import type { Notice, NoticeMessage, NoticeQueue, Services } from '../services.js';
import { count, logger, METRIC } from '../http/telemetry.js';
import { attempt, backoffMs, recordDeliveries } from './webhooks.js';

/**
 * How long the worker looks for the commit a notice names (a writer of an earlier version
 * handed its notices before writing the commit): then the commit never happened.
 */
export const COMMIT_WAIT_MS = 15_000;

/** Whether the commit a notice names was written: waits for a writer still at it, up to COMMIT_WAIT_MS. */
async function committed(services: Services, m: Extract<NoticeMessage, { type: 'notices' }>): Promise<boolean> {
  for (let waited = 0; ; ) {
    const cid = await services.store.ops.getCommitId(m.gameId, m.firstSeq);
    if (cid !== null) return cid === m.cid; // another writer's commit at that place: ours lost its race
    if (waited >= COMMIT_WAIT_MS) return false;
    const pause = Math.min(1000, 20 * 2 ** Math.min(6, Math.floor(waited / 100)));
    await new Promise((r) => setTimeout(r, pause));
    waited += pause;
  }
}

/** SQS's longest delay; longer waits are made of several messages. */
export const MAX_DELAY_SECONDS = 900;

async function attemptAndSchedule(services: Services, d: Parameters<typeof attempt>[1]): Promise<void> {
  const outcome = await attempt(services, d);
  if (outcome === 'retry') {
    await services.notices.send(
      [{ type: 'retry', deliveryId: d.id }],
      Math.min(MAX_DELAY_SECONDS, Math.ceil(backoffMs(d.attempts + 1) / 1000)),
    );
  }
}

/** Handles one message (the worker's whole job). Throws only when the store fails: the queue then tries again. */
export async function handleNotice(services: Services, m: NoticeMessage): Promise<void> {
  if (m.type === 'push') {
    await services.push?.deliver(m.gameId, m.version);
    return;
  }
  if (m.type === 'chat') {
    await services.push?.deliverChat?.(m.gameId, m.seq);
    return;
  }
  if (m.type === 'notices') {
    // Handed by the writer once its conditional put won (play/commit.ts): the commit is there,
    // with this id. Else (the sweep's re-sends, messages of an older version) look for it first.
    if (!m.written && !(await committed(services, m))) return;
    const pending = await recordDeliveries(services, m.notices);
    await Promise.all(
      pending.map(async (d) => {
        const wait = d.nextAt === null ? 0 : Date.parse(d.nextAt) - services.now().getTime();
        if (wait > 0)
          await services.notices.send(
            [{ type: 'retry', deliveryId: d.id }],
            Math.min(MAX_DELAY_SECONDS, Math.ceil(wait / 1000)),
          );
        else await attemptAndSchedule(services, d);
      }),
    );
    await services.store.ops.clearOutbox(m.gameId, m.firstSeq, m.cid);
    return;
  }
  const d = await services.store.notify.getDelivery(m.deliveryId);
  if (!d || d.status !== 'pending' || d.nextAt === null) return;
  const wait = Date.parse(d.nextAt) - services.now().getTime();
  if (wait > 0) {
    await services.notices.send([m], Math.min(MAX_DELAY_SECONDS, Math.ceil(wait / 1000)));
    return;
  }
  await attemptAndSchedule(services, d);
}

/** Outboxes re-sent per sweep run; the rest waits for the next run. */
const RESEND_LIMIT = 1000;

/**
 * How long a commit's notices may wait in its outbox before the sweep hands them to the queue
 * again (the hand-off after the commit failed, or its process stopped first): 2 minutes, or
 * `NOTICE_OUTBOX_AGE_SECONDS` (the local server and the Lambda harness shorten it; the stack
 * leaves it). The worker normally empties an outbox within a second; a notice handed twice is
 * delivered once anyway.
 */
export function outboxAgeMs(): number {
  const seconds = Number(process.env.NOTICE_OUTBOX_AGE_SECONDS ?? '');
  return process.env.NOTICE_OUTBOX_AGE_SECONDS !== undefined && seconds >= 0 ? seconds * 1000 : 120_000;
}

/**
 * Hands the notices still in outboxes older than `outboxAgeMs` to the queue again (the sweep).
 * Returns how many commits' notices were handed; throws if the queue still fails (the sweep
 * logs and counts it).
 */
export async function resendOutboxes(services: Services): Promise<number> {
  const before = new Date(services.now().getTime() - outboxAgeMs());
  const due = await services.store.ops.listDue('OUTBOX', before, RESEND_LIMIT);
  const messages: NoticeMessage[] = [];
  for (const id of due) {
    const { gameId, firstSeq } = parseOutboxId(id);
    const box = await services.store.ops.getOutbox<Notice>(gameId, firstSeq);
    if (box) messages.push({ type: 'notices', gameId, firstSeq, cid: box.cid, notices: box.notices });
  }
  if (messages.length > 0) {
    await services.notices.send(messages);
    count(METRIC.noticesResent, messages.length);
    logger.info('notices handed again from outboxes', { commits: messages.length });
  }
  return messages.length;
}

export interface LocalQueue extends NoticeQueue {
  /** Handles every message due by the service clock (delayed ones included) until none is left or running. */
  drain(): Promise<number>;
  /** Stops the timers (messages still queued are dropped). */
  close(): void;
}

/**
 * The in-process queue: messages are handled right after the hand-off, off the request (the
 * sender does not wait); delayed ones when the service clock reaches them (a timer checks).
 */
export function createLocalQueue(handle: (m: NoticeMessage) => Promise<void>, now: () => Date): LocalQueue {
  const queued: { m: NoticeMessage; due: number }[] = [];
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let handled = 0;
  let closed = false;

  const pump = () => {
    if (closed) return;
    const t = now().getTime();
    for (let i = 0; i < queued.length; ) {
      if (queued[i].due > t) {
        i++;
        continue;
      }
      const { m } = queued.splice(i, 1)[0];
      const p: Promise<void> = handle(m)
        .catch((e) => console.error('notice handling failed', m.type, e))
        .finally(() => {
          handled++;
          running.delete(p);
        });
      running.add(p);
    }
  };

  return {
    async send(messages, delaySeconds = 0) {
      const due = now().getTime() + delaySeconds * 1000;
      for (const m of messages) queued.push({ m, due });
      if (delaySeconds > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          pump();
        }, delaySeconds * 1000);
        timer.unref();
        timers.add(timer);
      } else setImmediate(pump);
    },
    async drain() {
      const before = handled;
      for (;;) {
        pump();
        if (running.size === 0) return handled - before;
        await Promise.all([...running]);
      }
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
