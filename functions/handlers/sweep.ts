/**
 * The scheduled sweep Lambda (EventBridge rule, every few minutes). Entry point only: the sweep
 * itself (deadlines; snapshots, notices and bot moves that a crashed invocation left undone) is `app.sweep` from
 * `functions/api/http/app.ts`, idempotent like every write of the store, so a retried or overlapping
 * run is harmless.
 */
import type { Context } from 'aws-lambda';
import type { SweepResult } from '../api/ops/sweep.js';
import { getApp } from './config.js';
import { noticeQueueFromEnv } from './queue.js';
import { invocation } from './observe.js';
import { sesMailer } from './ses.js';

export async function handler(_event?: unknown, context?: Context): Promise<SweepResult> {
  const ctx = context ?? ({ awsRequestId: 'local' } as Context);
  return invocation(ctx, {}, async () => {
    const app = await getApp({ noticeQueue: noticeQueueFromEnv(), mailer: sesMailer });
    const result = await app.sweep(new Date());
    // Failed steps were logged and counted one by one; the invocation itself fails too, so the
    // function's Errors metric (and alarm) sees it. The next run retries them (idempotent).
    if (result.failures > 0) throw new Error(`sweep: ${result.failures} step(s) failed (see the errors above)`);
    return result;
  });
}
