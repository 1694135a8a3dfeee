/**
 * The real `cdk synth`, as `npm run synth` runs it: the CLI from node_modules, the app command of
 * cdk.json (tsx infra/app.ts, cdk-nag included), telemetry, notices and version check off, so it
 * never needs the network or an AWS account. Output goes to a temporary directory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/function.js';

let outDir: string;
let result: ReturnType<typeof spawnSync>;

beforeAll(() => {
  outDir = mkdtempSync(path.join(os.tmpdir(), 'libertalia-cdk-synth-'));
  const cdk = path.join(PROJECT_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'cdk.cmd' : 'cdk');
  result = spawnSync(cdk, ['synth', '--no-notices', '--quiet', '--output', outDir], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      CDK_DISABLE_CLI_TELEMETRY: 'true',
      CDK_DISABLE_VERSION_CHECK: 'true',
      // Never reach for real credentials or a region: the stack is environment-agnostic.
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
}, 130_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('cdk synth (CLI)', () => {
  it('exits 0', () => {
    expect(result.error).toBeUndefined();
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  });

  it('writes the stack template with both functions and the table', () => {
    const file = path.join(outDir, 'LibertaliaOnline.template.json');
    expect(existsSync(file)).toBe(true);
    const template = JSON.parse(readFileSync(file, 'utf8')) as { Resources: Record<string, { Type: string }> };
    const types = Object.values(template.Resources).map((r) => r.Type);
    expect(types.filter((t) => t === 'AWS::Lambda::Function')).toHaveLength(2);
    expect(types.filter((t) => t === 'AWS::DynamoDB::Table')).toHaveLength(1);
    expect(types).toContain('AWS::ApiGatewayV2::Api');
  });

  it('bundles each handler into an asset with its source map', () => {
    const assets = readdirSync(outDir).filter((d) => d.startsWith('asset.'));
    expect(assets).toHaveLength(2);
    for (const a of assets) {
      const files = readdirSync(path.join(outDir, a)).sort();
      expect(files).toEqual(['index.mjs', 'index.mjs.map']);
    }
  });

  it('ran the cdk-nag AwsSolutions checks with nothing left unsuppressed', () => {
    const reports = readdirSync(outDir).filter((f) => /^AwsSolutions-.*LibertaliaOnline-NagReport\.csv$/.test(f));
    expect(reports).toHaveLength(1);
    const rows = readFileSync(path.join(outDir, reports[0]), 'utf8').trim().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    // Columns: Rule ID, Resource ID, Compliance, Exception Reason, Rule Level, Rule Info
    const compliance = rows.map((r) => r.split('","')[2]);
    expect(compliance.every((c) => c === 'Compliant' || c === 'Suppressed'), rows.join('\n')).toBe(true);
    expect(compliance).toContain('Suppressed');
  });
});
