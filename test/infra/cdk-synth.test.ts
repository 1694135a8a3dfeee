/**
 * The real `cdk synth`, as `npm run synth` runs it: the CLI from node_modules, the app command of
 * cdk.json (tsx infra/app.ts, cdk-nag included), telemetry, notices and version check off, so it
 * never needs the network or an AWS account. Output goes to the run's temporary folder,
 * synthesized once per run for the files that read it (test/infra/cdk-out.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { bundlesOnce, type CdkOut, cdkSynthOnce } from './cdk-out.js';
import { freshTable } from '../setup/db.js';

let outDir: string;
let result: CdkOut;

beforeAll(async () => {
  result = await cdkSynthOnce(); // shared with lambda-harness.test.ts (test/infra/cdk-out.ts)
  outDir = result.outDir;
}, 600_000);

/**
 * Imports a synthesized function bundle in a fresh Node process (as Lambda would, with
 * --enable-source-maps) and invokes its handler with each event, against a fresh dynalite table.
 */
async function runBundle(functionPrefix: string, events: unknown[]): Promise<unknown[]> {
  const template = JSON.parse(readFileSync(path.join(outDir, 'LibertaliaOnline.template.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>;
  };
  const fn = Object.entries(template.Resources).find(
    ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith(functionPrefix),
  );
  expect(fn, functionPrefix).toBeDefined();
  const bundle = path.join(outDir, `asset.${fn![1].Properties.Code!.S3Key!.replace(/\.zip$/, '')}`, 'index.mjs');
  expect(existsSync(bundle)).toBe(true);
  const { tableName } = await freshTable('bundle');
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const ctx = { awsRequestId: 'x', getRemainingTimeInMillis: () => 10000 };
    const out = [];
    for (const e of ${JSON.stringify(events)}) out.push(await handler(e, ctx));
    process.stdout.write('\\n@@RESULT@@' + JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH ?? '',
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      SIGNING_KEY: `bundle-test-key-${'k'.repeat(32)}`,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.split('\n@@RESULT@@').pop()!) as unknown[];
}

describe('cdk synth (CLI)', () => {
  it('exits 0', () => {
    expect(result.error).toBeUndefined();
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  });

  it('writes the stack template with the four functions (API, sweep, notice worker, push), the table and the notice queues', () => {
    const file = path.join(outDir, 'LibertaliaOnline.template.json');
    expect(existsSync(file)).toBe(true);
    const template = JSON.parse(readFileSync(file, 'utf8')) as { Resources: Record<string, { Type: string }> };
    const types = Object.values(template.Resources).map((r) => r.Type);
    expect(types.filter((t) => t === 'AWS::Lambda::Function')).toHaveLength(4);
    expect(types.filter((t) => t === 'AWS::SQS::Queue')).toHaveLength(2);
    expect(types.filter((t) => t === 'AWS::DynamoDB::Table')).toHaveLength(1);
    expect(types).toContain('AWS::ApiGatewayV2::Api');
  });

  it('bundles each handler into an asset with its source map and its license comments beside it', () => {
    const assets = readdirSync(outDir).filter((d) => d.startsWith('asset.'));
    expect(assets).toHaveLength(4);
    for (const a of assets) {
      const files = readdirSync(path.join(outDir, a)).sort();
      expect(files).toEqual(['index.mjs', 'index.mjs.LEGAL.txt', 'index.mjs.map']);
    }
  });

  it('each asset is byte for byte the bundle of infra/bundles.ts: npm run bench:lambda and test/infra/bundles.test.ts measure what is deployed', async () => {
    const assets = readdirSync(outDir)
      .filter((d) => d.startsWith('asset.'))
      .map((d) => readFileSync(path.join(outDir, d, 'index.mjs'), 'utf8'));
    // The bundles of infra/bundles.ts, built once per run (shared with bundles.test.ts).
    for (const [name, bundle] of Object.entries(await bundlesOnce())) {
      const js = readFileSync(bundle.file, 'utf8');
      expect(
        assets.some((a) => a === js),
        name,
      ).toBe(true);
    }
  }, 120_000);

  it('produces an API bundle that really runs: GET /health and a signUp against the local store', async () => {
    // The deployed artefact, not the TypeScript: catches bundling faults (ESM/CJS interop, two
    // copies of graphql, a missing module) that the in-process handler test cannot see.
    const event = (method: string, rawPath: string, body?: string) => ({
      version: '2.0',
      routeKey: `${method} ${rawPath}`,
      rawPath,
      rawQueryString: '',
      headers: { 'content-type': 'application/json', host: 'abc123.execute-api.eu-west-1.amazonaws.com' },
      requestContext: {
        accountId: '123456789012',
        apiId: 'abc123',
        domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
        domainPrefix: 'abc123',
        http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
        requestId: 'r1',
        routeKey: `${method} ${rawPath}`,
        stage: '$default',
        time: new Date().toUTCString(),
        timeEpoch: Date.now(),
      },
      isBase64Encoded: false,
      ...(body ? { body } : {}),
    });
    const [health, signUp] = (await runBundle('ApiFunction', [
      event('GET', '/health'),
      event('POST', '/graphql', JSON.stringify({ query: 'mutation { signUp(name: "Bundle") { playerId token } }' })),
    ])) as { statusCode: number; body: string }[];
    expect(health.statusCode).toBe(200);
    expect(JSON.parse(health.body).status).toBe('ok');
    expect(signUp.statusCode).toBe(200);
    const data = JSON.parse(signUp.body);
    expect(data.errors).toBeUndefined();
    expect(data.data.signUp.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('produces a sweep bundle that really runs against the local store', async () => {
    const [result] = await runBundle('SweepFunction', [
      { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} },
    ]);
    expect(result).toEqual({
      gamesChecked: 0,
      mailed: 0,
      advanced: 0,
      timeouts: 0,
      repaired: 0,
      lobbiesExpired: 0,
      archived: 0,
      noticesResent: 0,
      failures: 0,
    });
  });

  it('produces a push bundle that really runs: the $connect authorizer admits a spectator and denies a bad token', async () => {
    const ev = (token?: string) => ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:ws/live/$connect',
      queryStringParameters: token ? { token } : {},
    });
    const [spectator, bad] = (await runBundle('PushFunction', [ev(), ev('x.y.z')])) as {
      policyDocument: { Statement: { Effect: string }[] };
    }[];
    expect(spectator.policyDocument.Statement[0].Effect).toBe('Allow');
    expect(bad.policyDocument.Statement[0].Effect).toBe('Deny');
  });

  it('produces a notice worker bundle that really runs against the local store', async () => {
    const message = { type: 'retry', deliveryId: 'no-such-delivery' };
    const [result] = await runBundle('NoticeWorkerFunction', [
      { Records: [{ messageId: 'm1', body: JSON.stringify(message) }] },
    ]);
    expect(result).toEqual({ batchItemFailures: [] });
  });

  it('ran the cdk-nag AwsSolutions checks with nothing left unsuppressed', () => {
    const reports = readdirSync(outDir).filter((f) => /^AwsSolutions-.*LibertaliaOnline-NagReport\.csv$/.test(f));
    expect(reports).toHaveLength(1);
    const rows = readFileSync(path.join(outDir, reports[0]), 'utf8').trim().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    // Columns: Rule ID, Resource ID, Compliance, Exception Reason, Rule Level, Rule Info
    const compliance = rows.map((r) => r.split('","')[2]);
    expect(
      compliance.every((c) => c === 'Compliant' || c === 'Suppressed'),
      rows.join('\n'),
    ).toBe(true);
    expect(compliance).toContain('Suppressed');
  });

  it('has no stale suppression: each one (rule and reason) matches a finding cdk-nag reported', () => {
    const template = JSON.parse(readFileSync(path.join(outDir, 'LibertaliaOnline.template.json'), 'utf8')) as {
      Resources: Record<string, { Metadata?: { cdk_nag?: { rules_to_suppress?: { id: string; reason: string }[] } } }>;
    };
    const suppressions = new Map<string, string>();
    for (const r of Object.values(template.Resources))
      for (const s of r.Metadata?.cdk_nag?.rules_to_suppress ?? []) suppressions.set(`${s.id}|${s.reason}`, s.id);
    const report = readdirSync(outDir).find((f) => /^AwsSolutions-.*LibertaliaOnline-NagReport\.csv$/.test(f))!;
    const rows = readFileSync(path.join(outDir, report), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((r) => r.replace(/^"|"$/g, '').split('","'));
    const used = rows
      .filter((c) => c[2] === 'Suppressed')
      .map((c) => `${c[0].replace(/\[.*$/, '')}|${c[3].replace(/^\[[^\]]*\] /, '')}`);
    expect(suppressions.size).toBeGreaterThan(0);
    for (const [key, id] of suppressions) {
      expect(
        used.some((u) => u === key),
        `${id} is suppressed but cdk-nag reports no such finding`,
      ).toBe(true);
    }
  });
});
