// The order test files start in: the longest first, so that the last files to start are short
// ones and both cores stay busy to the end (vitest's own order falls back to file size on a
// fresh clone, which starts a 1-minute file like test/docs/readme.test.ts among the last).
// A file's length is its duration in vitest's results cache when it has one (a machine's
// earlier runs), else its share of a quiet `npm test` below, else a guess from its size.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds a file takes in a quiet `npm test` on 2 cores, roughly: the files over about 10 s (a
 * stale figure only moves a file in the queue). `lambda-harness` is listed below its length on
 * purpose: it reads the `cdk synth` that `cdk-synth.test.ts` makes (test/infra/cdk-out.ts), so it
 * starts once that synthesis is under way instead of waiting for it beside it.
 */
const KNOWN: Record<string, number> = {
  'test/e2e/table.test.ts': 200,
  'test/web/client.test.ts': 80,
  'test/docs/readme.test.ts': 60,
  'test/infra/cdk-synth.test.ts': 45,
  'test/engine/properties.test.ts': 35,
  'test/reliability/faults.test.ts': 30,
  'test/reliability/secrets.test.ts': 30,
  'test/e2e/games.test.ts': 30,
  'test/clients/install.test.ts': 30,
  'test/e2e/replay.test.ts': 25,
  'test/web/replay-frames.test.ts': 25,
  'test/clients/watch.test.ts': 25,
  'test/reliability/hostile.test.ts': 20,
  'test/e2e/verify.test.ts': 20,
  'test/clients/sdk.test.ts': 20,
  'test/local/push.test.ts': 20,
  'test/infra/bundles.test.ts': 15,
  'test/e2e/galecrest.test.ts': 15,
  'test/e2e/oidc.test.ts': 15,
  'test/store/bounds.test.ts': 15,
  'test/infra/lambda-harness.test.ts': 15,
  'test/engine/rng.test.ts': 10,
  'test/api/view/events-typed.test.ts': 10,
};

/** Bytes of a test file per second it runs, roughly, for files neither run nor listed. */
const BYTES_PER_SECOND = 2500;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const seconds = new Map<TestSpecification, number>();
    for (const spec of files) {
      const file = relative(this.ctx.config.root, spec.moduleId);
      const key = `${spec.project.name}:${file}`;
      const ran = cache.getFileTestResults(key)?.duration;
      const size = cache.getFileStats(key)?.size ?? 0;
      seconds.set(spec, ran !== undefined ? ran / 1000 : (KNOWN[file] ?? size / BYTES_PER_SECOND));
    }
    return [...files].sort((a, b) => seconds.get(b)! - seconds.get(a)!);
  }
}
