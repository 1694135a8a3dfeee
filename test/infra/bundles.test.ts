/**
 * What each Lambda bundle contains, read from esbuild's metafile with the options `cdk synth`
 * bundles with (infra/bundles.ts), against the synthesized template:
 * - lean bundles: only the API carries Apollo (the notice worker, sweep and push run on
 *   functions/api/http/core.ts alone); no bundle holds two builds (ESM and CommonJS) of one
 *   module, nor a tracer SDK;
 * - least privilege: each role holds only actions its bundle can send (the AWS SDK commands the
 *   bundle contains), besides what Lambda itself sends with the role (logs, X-Ray, the SQS event
 *   source of the notice worker).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import * as openskill from 'openskill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions, HANDLERS, type HandlerName, packagesOf } from '../../infra/bundles.js';
import { PROJECT_ROOT } from '../../infra/function.js';
import { type Bundle, bundlesOnce } from './cdk-out.js';
import { synthStack } from './synth.js';

type Inputs = Record<string, { bytesInOutput: number }>;
const inputs = new Map<HandlerName, Inputs>();
let dir: string;
let resources: Record<string, { Type: string; Properties: Record<string, any> }>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'libertalia-bundles-'));
  // Built once per run, shared with cdk-synth.test.ts (test/infra/cdk-out.ts).
  for (const [name, bundle] of Object.entries(await bundlesOnce()) as [HandlerName, Bundle][])
    inputs.set(name, bundle.inputs);
  // With a sender: the e-mail reminders' grant is part of what is checked.
  resources = synthStack({ props: { sesFromEmail: 'reminders@example.com' } }).template.toJSON().Resources;
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The IAM action each SDK command the code sends needs (most are service:Command). */
const SERVICE_OF: Record<string, string> = {
  dynamodb: 'dynamodb',
  sqs: 'sqs',
  'secrets-manager': 'secretsmanager',
  apigatewaymanagementapi: 'execute-api',
  sesv2: 'ses',
};
function iamAction(client: string, command: string): string {
  if (client === 'apigatewaymanagementapi') return 'execute-api:ManageConnections'; // PostToConnection, DeleteConnection
  if (client === 'sqs' && command === 'SendMessageBatch') return 'sqs:SendMessage';
  return `${SERVICE_OF[client]}:${command}`;
}

/** The actions a bundle can send: one per AWS SDK command module it contains. */
function bundleActions(name: HandlerName): Set<string> {
  const out = new Set<string>();
  for (const file of Object.keys(inputs.get(name)!)) {
    const m = /@aws-sdk\/client-([a-z0-9-]+)\/dist-[a-z]+\/commands\/(\w+)Command\.js$/.exec(file);
    if (m) out.add(iamAction(m[1], m[2]));
  }
  return out;
}

/** Sent by Lambda with the function's role, not by its code: its logs, its traces. */
const RUNTIME_ACTIONS = [
  'logs:CreateLogStream',
  'logs:PutLogEvents',
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
];
/** Sent by the SQS event source mapping of the notice worker (Lambda polls with the function's role). */
const EVENT_SOURCE_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueAttributes',
];

const FUNCTION_IDS: Record<HandlerName, string> = {
  api: 'ApiFunction',
  notices: 'NoticeWorkerFunction',
  sweep: 'SweepFunction',
  push: 'PushFunction',
};

/** Every action of the policies attached to the function's role in the template. */
function roleActions(name: HandlerName): Set<string> {
  const [, fn] = Object.entries(resources).find(
    ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith(FUNCTION_IDS[name]),
  )!;
  const role = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const out = new Set<string>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::IAM::Policy' || !r.Properties.Roles.some((x: { Ref?: string }) => x.Ref === role)) continue;
    for (const s of r.Properties.PolicyDocument.Statement) for (const a of [s.Action].flat()) out.add(a);
  }
  // No managed policy on a function's role: its inline policies are all it holds.
  expect(resources[role].Properties.ManagedPolicyArns).toBeUndefined();
  return out;
}

describe('lean bundles', () => {
  it('only the API bundle contains Apollo; the notice worker, sweep and push bundles contain none of @apollo/*', () => {
    const apollo = (name: HandlerName) =>
      [...packagesOf(inputs.get(name)!).keys()].filter((p) => p.startsWith('@apollo/'));
    expect(apollo('api')).toContain('@apollo/server');
    for (const name of ['notices', 'sweep', 'push'] as const) expect(apollo(name), name).toEqual([]);
  });

  it('no bundle holds two builds of one module (ESM and CommonJS copies of Apollo, graphql, lru-cache: the aliases of infra/function.ts)', () => {
    for (const name of Object.keys(HANDLERS) as HandlerName[]) {
      const copies = new Map<string, string[]>();
      for (const file of Object.keys(inputs.get(name)!)) {
        const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
        if (!m) continue;
        // The same module in another build folder (dist/cjs, dist/esm, dist-cjs, dist-es, cjs,
        // esm, commonjs) or with another extension (.js, .mjs, .cjs) is the same module again.
        const key = `${m[1]}/${m[2].replace(/(^|\/)(dist[-/])?(cjs|esm|es|commonjs)(?=\/)/, '$1*').replace(/\.[cm]?js$/, '.js')}`;
        copies.set(key, [...(copies.get(key) ?? []), file]);
      }
      const twice = [...copies.values()].filter((files) => files.length > 1);
      expect(twice, name).toEqual([]);
    }
  });

  it('no bundle carries a tracer SDK: traces are Lambda active tracing (the X-Ray SDK and the Powertools tracer weighed about 120 KB)', () => {
    for (const name of Object.keys(HANDLERS) as HandlerName[]) {
      const pkgs = [...packagesOf(inputs.get(name)!).keys()];
      expect(
        pkgs.filter((p) => p === 'aws-xray-sdk-core' || p === '@aws-lambda-powertools/tracer'),
        name,
      ).toEqual([]);
    }
  });

  it('the sweep and the notice worker carry no Secrets Manager client (they never read a secret), push no SQS client, the sweep no management API client', () => {
    const has = (name: HandlerName, pkg: string) => packagesOf(inputs.get(name)!).has(pkg);
    expect(has('sweep', '@aws-sdk/client-secrets-manager')).toBe(false);
    expect(has('notices', '@aws-sdk/client-secrets-manager')).toBe(false);
    expect(has('push', '@aws-sdk/client-sqs')).toBe(false);
    expect(has('sweep', '@aws-sdk/client-apigatewaymanagementapi')).toBe(false);
    expect(has('api', '@aws-sdk/client-secrets-manager')).toBe(true);
    // The SES client only where mail is sent from.
    expect(has('sweep', '@aws-sdk/client-sesv2')).toBe(true);
    for (const name of ['api', 'notices', 'push'] as const)
      expect(has(name, '@aws-sdk/client-sesv2'), name).toBe(false);
  });
});

/** Every TypeScript file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('stubbed modules (BUNDLE_ALIASES, infra/bundle-stubs/unreached-function.cjs)', () => {
  const USED = ['ordinal', 'rate', 'rating'];

  it(`functions/ import only ${USED.join(', ')} from openskill (its predictions need the @stdlib functions the bundles leave out)`, () => {
    const imported = new Set<string>();
    for (const file of sources(path.join(PROJECT_ROOT, 'functions'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /import\s*(type\s*)?\{([^}]*)\}\s*from\s*'openskill(?:\/[^']*)?'/g,
      )) {
        if (m[1]) continue;
        for (const name of m[2].split(',')) if (name.trim()) imported.add(name.trim().split(/\s+as\s+/)[0]);
      }
      expect(readFileSync(file, 'utf8'), file).not.toMatch(
        /import\s+\*\s+as\s+\w+\s+from\s+'openskill|from\s+'@stdlib\//,
      );
    }
    expect([...imported].sort()).toEqual(USED);
    for (const name of Object.keys(HANDLERS) as HandlerName[])
      expect(
        [...packagesOf(inputs.get(name)!).keys()].filter((p) => p.startsWith('@stdlib/')),
        name,
      ).toEqual([]);
  });

  it('bundled with the stubs, rate, ordinal and rating answer exactly what openskill answers unbundled', async () => {
    const outfile = path.join(dir, 'openskill', 'index.mjs');
    const options = bundleOptions(HANDLERS.api, outfile);
    await build({
      ...options,
      entryPoints: undefined,
      stdin: { contents: `export { ${USED.join(', ')} } from 'openskill';`, resolveDir: PROJECT_ROOT, loader: 'ts' },
      sourcemap: false,
    });
    const bundled = (await import(pathToFileURL(outfile).href)) as typeof openskill;
    const teams = [
      [{ mu: 25, sigma: 25 / 3 }],
      [{ mu: 31.2, sigma: 4.1 }],
      [{ mu: 18.5, sigma: 6.6 }],
      [{ mu: 25, sigma: 2 }],
    ];
    for (const rank of [
      [1, 2, 3, 4],
      [4, 1, 3, 2],
      [1, 1, 3, 4],
    ]) {
      const after = bundled.rate(teams, { rank });
      expect(after).toEqual(openskill.rate(teams, { rank }));
      expect(after.flat().map((r) => bundled.ordinal(r))).toEqual(after.flat().map((r) => openskill.ordinal(r)));
    }
    expect(bundled.rating()).toEqual(openskill.rating());
  });
});

describe('least privilege: each role against its own bundle', () => {
  for (const name of Object.keys(HANDLERS) as HandlerName[]) {
    it(`${name}: the role holds no action its bundle never sends`, () => {
      const sends = bundleActions(name);
      const allowedBesides = new Set([...RUNTIME_ACTIONS, ...(name === 'notices' ? EVENT_SOURCE_ACTIONS : [])]);
      const extra = [...roleActions(name)].filter((a) => !sends.has(a) && !allowedBesides.has(a));
      expect(extra, `${name} holds actions its bundle never sends`).toEqual([]);
    });

    it(`${name}: every non-DynamoDB action its bundle sends is granted`, () => {
      // DynamoDB: the store's module also holds Scan (checkSchema, the local server's start-up
      // check) and the client DescribeEndpoints (endpoint discovery, off): never sent on Lambda.
      const granted = roleActions(name);
      const missing = [...bundleActions(name)].filter((a) => !a.startsWith('dynamodb:') && !granted.has(a));
      expect(missing).toEqual([]);
    });
  }

  it('grants exactly what each function needs: the sweep neither reads the secret nor touches connections, push sends to no queue', () => {
    const has = (name: HandlerName, prefix: string) => [...roleActions(name)].some((a) => a.startsWith(prefix));
    expect(has('sweep', 'secretsmanager:')).toBe(false);
    expect(has('sweep', 'execute-api:')).toBe(false);
    expect(has('notices', 'secretsmanager:')).toBe(false);
    expect(has('push', 'sqs:')).toBe(false);
    // Only the sweep sends e-mail.
    expect([...roleActions('sweep')].filter((a) => a.startsWith('ses:'))).toEqual(['ses:SendEmail']);
    for (const name of ['api', 'notices', 'push'] as const) expect(has(name, 'ses:'), name).toBe(false);
    for (const name of ['api', 'sweep', 'notices'] as const) expect(roleActions(name)).toContain('sqs:SendMessage');
  });
});
