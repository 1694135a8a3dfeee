/**
 * The real `cdk synth` CLI, run once for every test file that needs its output (cdk-synth.test.ts
 * reads the template and bundles, lambda-harness.test.ts runs the bundles): its cloud assembly is
 * kept in a folder of the system's temporary directory named by a hash of everything the synth
 * reads (infra/, functions/, cdk.json, package-lock.json, tsconfig.json), so test files in other
 * workers of the same run, and later runs on unchanged sources, reuse it instead of bundling the
 * four functions again (esbuild, about 30 s each time on a busy machine). A lock folder makes the
 * first file synthesize and the others wait for it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../../infra/function.js';

export interface CdkOut {
  /** The cloud assembly (templates, assets, cdk-nag reports). */
  outDir: string;
  /** The CLI's exit status and output. */
  status: number | null;
  error?: string;
  stdout: string;
  stderr: string;
}

const INPUTS = ['infra', 'functions', 'cdk.json', 'package-lock.json', 'tsconfig.json'];

/** A hash of every input file's path and content. */
function inputsHash(): string {
  const h = createHash('sha256');
  const walk = (rel: string) => {
    const abs = path.join(PROJECT_ROOT, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) walk(path.join(rel, name));
      return;
    }
    h.update(rel).update('\0').update(readFileSync(abs)).update('\0');
  };
  for (const i of INPUTS) walk(i);
  return h.digest('hex').slice(0, 16);
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

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** The assembly of `cdk synth` for the current sources: synthesized by the first caller, shared by the rest. */
export async function cdkSynthOnce(): Promise<CdkOut> {
  // One folder per checkout (several worktrees may share the temporary directory).
  const root = path.join(
    os.tmpdir(),
    `libertalia-cdk-out-${createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8)}`,
  );
  mkdirSync(root, { recursive: true });
  const key = inputsHash();
  const dir = path.join(root, key);
  const done = path.join(dir, 'result.json');
  const lock = path.join(root, `${key}.lock`);
  for (let waited = 0; ; waited += 500) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as CdkOut;
    try {
      mkdirSync(lock); // atomic: exactly one caller synthesizes
      break;
    } catch {
      // Another worker is at it (or died at it: a lock older than 9 minutes is taken over).
      if (waited > 540_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as CdkOut;
    // Assemblies of older sources are of no use any more.
    for (const old of readdirSync(root))
      if (!old.startsWith(key)) rmSync(path.join(root, old), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
    const out = runCli(path.join(dir, 'cdk.out'));
    mkdirSync(dir, { recursive: true });
    // A failed synth is not kept: the next caller tries again (and its test shows the output).
    if (out.status === 0 && !out.error) writeFileSync(done, JSON.stringify(out));
    return out;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
