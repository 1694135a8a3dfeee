#!/usr/bin/env node
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EdgeFirewallStack } from './edge.js';
import { LibertaliaStack } from './stack.js';

// Environment-agnostic on purpose: no account/region and no lookups, so `cdk synth` works offline
// (CI has no AWS account). `cdk deploy` takes account and region from the caller's credentials.
const app = new App();
/** Context values given as numbers (`-c name=N`), for the stack props of the same names. */
function numberContext(...names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of names) {
    const v = app.node.tryGetContext(n);
    if (v === undefined) continue;
    if (!Number.isFinite(Number(v)) || Number(v) < 0) throw new Error(`-c ${n}=${v}: a number of 0 or more`);
    out[n] = Number(v);
  }
  return out;
}
new LibertaliaStack(app, app.node.tryGetContext('stackName') ?? 'LibertaliaOnline', {
  description: 'Libertalia Online backend: GraphQL/REST API on Lambda + DynamoDB',
  sweepIntervalMinutes: Number(app.node.tryGetContext('sweepIntervalMinutes') ?? 5),
  // `-c dataProtection=false` for a throw-away dev stack (no deletion protection, no PITR).
  dataProtection: String(app.node.tryGetContext('dataProtection') ?? 'true') !== 'false',
  webAclArn: app.node.tryGetContext('webAclArn'),
  // Launch limits (infra/limits.ts; docs/aws.md "Limits and how to raise them"): e.g. `-c apiRateLimit=2000`.
  ...numberContext('apiRateLimit', 'apiBurstLimit', 'sweepReservedConcurrency', 'tableMaxReadUnits', 'tableMaxWriteUnits'),
});
// Per-address limits at the edge (docs/security.md, "Left to AWS"): the WAF web ACL for
// CloudFront must be in us-east-1, so it is its own stack, synthesized on request only
// (`-c edgeFirewall=1`): `npx cdk deploy LibertaliaEdgeFirewall -c edgeFirewall=1`, then
// `npx cdk deploy -c webAclArn=<its WebAclArn output>`.
if (app.node.tryGetContext('edgeFirewall')) {
  new EdgeFirewallStack(app, 'LibertaliaEdgeFirewall', { env: { region: 'us-east-1' }, description: 'Libertalia Online: WAF web ACL (per-address rate limits) for the API distribution' });
}
// Every synth (and so every deploy) runs the AWS Solutions checks; an unsuppressed finding is an
// error and stops the synth.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
