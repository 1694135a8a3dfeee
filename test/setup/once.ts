// Work done once per test run and shared by the files that need it, whichever worker runs them:
// the first file to ask does it in the run's folder (test/setup/run.ts), the others wait for it
// and read its result. A lock folder (mkdir is atomic) makes exactly one file do it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { inject } from 'vitest';

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * The result of `produce(dir)` (JSON), computed by the first caller of the run under `name`. A
 * result `keep` refuses (a failed synth) is not shared: the next caller tries again, and its test
 * shows the failure.
 */
export async function once<T>(
  name: string,
  produce: (dir: string) => T | Promise<T>,
  keep: (result: T) => boolean = () => true,
): Promise<T> {
  const dir = path.join(inject('runDir'), name);
  const done = path.join(dir, 'result.json');
  const lock = `${dir}.lock`;
  const read = () => JSON.parse(readFileSync(done, 'utf8')) as T;
  for (let waited = 0; ; waited += 250) {
    if (existsSync(done)) return read();
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another file is at it (or its worker died at it: a lock older than 9 minutes is taken over).
      if (waited > 540_000) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    if (existsSync(done)) return read();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const result = await produce(dir);
    if (keep(result)) writeFileSync(done, JSON.stringify(result));
    return result;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
