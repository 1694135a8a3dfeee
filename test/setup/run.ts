// Vitest global setup: a folder of this run's own in the system's temporary directory, for work
// the test files of one run share (test/setup/once.ts: the real `cdk synth`, the Lambda bundles).
// Removed when the run ends, so every run does that work again: nothing is reused from an older
// run or from another checkout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    runDir: string;
  }
}

export default function setup(project: TestProject) {
  const runDir = mkdtempSync(join(tmpdir(), 'libertalia-test-run-'));
  project.provide('runDir', runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}
