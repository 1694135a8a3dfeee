/**
 * Synthesizes the stack the way `infra/app.ts` does (same cdk.json context, cdk-nag AwsSolutions
 * checks applied), for the infra tests. Bundling runs esbuild, so call it once per test file.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PROJECT_ROOT } from '../../infra/function.js';
import { LibertaliaStack } from '../../infra/stack.js';

export function synthStack(): { stack: LibertaliaStack; template: Template; annotations: Annotations } {
  const cdkJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  const app = new App({ context: cdkJson.context ?? {} });
  const stack = new LibertaliaStack(app, 'LibertaliaTest');
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  const template = Template.fromStack(stack);
  const annotations = Annotations.fromStack(stack);
  return { stack, template, annotations };
}
