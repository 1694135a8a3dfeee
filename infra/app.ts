#!/usr/bin/env node
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { LibertaliaStack } from './stack.js';

// Environment-agnostic on purpose: no account/region and no lookups, so `cdk synth` works offline
// (CI has no AWS account). `cdk deploy` takes account and region from the caller's credentials.
const app = new App();
new LibertaliaStack(app, app.node.tryGetContext('stackName') ?? 'LibertaliaOnline', {
  description: 'Libertalia Online backend: GraphQL/REST API on Lambda + DynamoDB',
  sweepIntervalMinutes: Number(app.node.tryGetContext('sweepIntervalMinutes') ?? 5),
  // `-c dataProtection=false` for a throw-away dev stack (no deletion protection, no PITR).
  dataProtection: String(app.node.tryGetContext('dataProtection') ?? 'true') !== 'false',
});
// Every synth (and so every deploy) runs the AWS Solutions checks; an unsuppressed finding is an
// error and stops the synth.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
