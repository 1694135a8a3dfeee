/**
 * The four Lambda handlers and the esbuild options `cdk synth` bundles them with (infra/function.ts
 * hands the same options to NodejsFunction), for the bench (`npm run bench:lambda`) and the tests
 * that read what each bundle contains (test/infra/bundles.test.ts).
 */
import * as path from 'node:path';
import type { BuildOptions } from 'esbuild';
import {
  BUNDLE_ALIASES,
  BUNDLE_CHARSET,
  BUNDLE_LEGAL_COMMENTS,
  BUNDLE_MAIN_FIELDS,
  BUNDLE_TARGET,
  ESM_REQUIRE_BANNER,
  PROJECT_ROOT,
} from './function.js';

/** Each function's entry, by the name the bench and tests use. */
export const HANDLERS = {
  api: 'functions/handlers/api.ts',
  notices: 'functions/handlers/notices.ts',
  sweep: 'functions/handlers/sweep.ts',
  push: 'functions/handlers/push.ts',
} as const;

export type HandlerName = keyof typeof HANDLERS;

/** esbuild options of one bundle (`outfile`: its index.mjs), as NodejsFunction runs esbuild. */
export function bundleOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [path.join(PROJECT_ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_TARGET,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: BUNDLE_MAIN_FIELDS,
    banner: { js: ESM_REQUIRE_BANNER },
    alias: BUNDLE_ALIASES,
    charset: BUNDLE_CHARSET,
    legalComments: BUNDLE_LEGAL_COMMENTS,
    outfile,
    logLevel: 'warning',
  };
}

/** The npm package (`@scope/name` or `name`) a metafile input comes from; undefined for the project's own files. */
const packageOf = (file: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];

/** The npm packages a bundle's metafile inputs come from (`@scope/name` or `name`), with their bytes in the output. */
export function packagesOf(inputs: Record<string, { bytesInOutput: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const p = packageOf(file);
    if (p) out.set(p, (out.get(p) ?? 0) + bytesInOutput);
  }
  return out;
}

/**
 * A bundle's bytes by where they come from: each npm package (`@scope/name` or `name`; the @stdlib
 * family as one) and each folder of the project's own code (`functions/api/view`).
 */
export function sourcesOf(inputs: Record<string, { bytesInOutput: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const p = packageOf(file);
    const key = p ? (p.startsWith('@stdlib/') ? '@stdlib/*' : p) : path.posix.dirname(file);
    out.set(key, (out.get(key) ?? 0) + bytesInOutput);
  }
  return out;
}
