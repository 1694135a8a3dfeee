/**
 * The scheduled sweep Lambda (EventBridge rule, every few minutes). Entry point only: the sweep
 * itself (deadlines; snapshots, notices and bot moves that a crashed invocation left undone) is `app.sweep` from
 * `functions/api/app.ts`, idempotent like every write of the store, so a retried or overlapping
 * run is harmless.
 */
import { getApp } from './config.js';

export async function handler(): Promise<{ gamesChecked: number; advanced: number; timeouts: number; repaired: number }> {
  const app = await getApp({ needsSigningKey: false });
  const result = await app.sweep(new Date());
  console.log(JSON.stringify({ msg: 'sweep done', ...result }));
  return result;
}
