#!/usr/bin/env node
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { propsFromContext } from './context.js';
import { EdgeFirewallStack } from './edge.js';
import { LibertaliaStack } from './stack.js';

// Environment-agnostic on purpose: no account/region and no lookups, so `cdk synth` works offline
// (CI has no AWS account). `cdk deploy` takes account and region from the caller's credentials.
const app = new App();
// Every deploy-time setting is a `-c name=value` (infra/context.ts; docs/aws.md "Every -c setting").
new LibertaliaStack(app, app.node.tryGetContext('stackName') ?? 'LibertaliaOnline', {
  description: 'Libertalia Online backend: GraphQL/REST API on Lambda + DynamoDB',
  ...propsFromContext((name) => app.node.tryGetContext(name)),
});
// Per-address limits at the edge (docs/security.md, "Left to AWS"): the WAF web ACL for
// CloudFront must be in us-east-1, so it is its own stack, synthesized on request only
// (`-c edgeFirewall=1`), and us-east-1 needs its own `cdk bootstrap` (docs/aws.md "The edge stack").
if (app.node.tryGetContext('edgeFirewall')) {
  new EdgeFirewallStack(app, 'LibertaliaEdgeFirewall', {
    env: { region: 'us-east-1' },
    description: 'Libertalia Online: WAF web ACL (per-address rate limits) for the API distribution',
  });
}
// Every synth (and so every deploy) runs the AWS Solutions checks; an unsuppressed finding is an
// error and stops the synth.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
