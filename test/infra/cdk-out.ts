/**
 * Built once per test run (test/setup/once.ts) and shared by the files that read it:
 * - the real `cdk synth` CLI (cdk-synth.test.ts reads the template and bundles,
 *   lambda-harness.test.ts runs the bundles): one synthesis of the four functions (esbuild) and
 *   cdk-nag per run instead of one per file;
 * - the four Lambda bundles as infra/bundles.ts builds them, with esbuild's metafile
 *   (bundles.test.ts reads what each contains, cdk-synth.test.ts checks that the synthesized
 *   assets are byte for byte these files).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, HANDLERS, type HandlerName } from '../../infra/bundles.js';
import { PROJECT_ROOT } from '../../infra/function.js';
import { once } from '../setup/once.js';

export interface CdkOut {
  /** The cloud assembly (templates, assets, cdk-nag reports). */
  outDir: string;
  /** The CLI's exit status and output. */
  status: number | null;
  error?: string;
  stdout: string;
  stderr: string;
}

function runCli(outDir: string): CdkOut {
  const cdk = path.join(PROJECT_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'cdk.cmd' : 'cdk');
  const r = spawnSync(cdk, ['synth', '--no-notices', '--quiet', '--output', outDir], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      CDK_DISABLE_CLI_TELEMETRY: 'true',
      CDK_DISABLE_VERSION_CHECK: 'true',
      // Never reach for real credentials or a region: the stack is environment-agnostic.
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    encoding: 'utf8',
    timeout: 480_000, // a busy machine: the four bundles and cdk-nag
  });
  return {
    outDir,
    status: r.status,
    ...(r.error ? { error: String(r.error) } : {}),
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
  };
}

/** The assembly of `cdk synth` for this run: synthesized by the first caller, shared by the rest. */
export const cdkSynthOnce = (): Promise<CdkOut> =>
  once(
    'cdk-synth',
    (dir) => runCli(path.join(dir, 'cdk.out')),
    (out) => out.status === 0 && !out.error,
  );

export interface Bundle {
  /** The bundle's index.mjs. */
  file: string;
  /** esbuild's metafile inputs of it: each source file and its bytes in the output. */
  inputs: Record<string, { bytesInOutput: number }>;
}

/** Each handler bundled with the options `cdk synth` uses (infra/bundles.ts), once per run. */
export const bundlesOnce = (): Promise<Record<HandlerName, Bundle>> =>
  once('bundles', async (dir) => {
    const out = {} as Record<HandlerName, Bundle>;
    for (const [name, entry] of Object.entries(HANDLERS) as [HandlerName, string][]) {
      const file = path.join(dir, name, 'index.mjs');
      const { metafile } = await build({ ...bundleOptions(entry, file), metafile: true });
      out[name] = { file, inputs: Object.values(metafile.outputs).find((o) => o.entryPoint)!.inputs };
    }
    return out;
  });
