/**
 * Synthesizes the stack the way `infra/app.ts` does (same cdk.json context, cdk-nag AwsSolutions
 * checks applied), for the infra tests. Bundling (esbuild, CPU-heavy) is skipped unless asked
 * for: the template is the same, only the code assets are placeholders. Call it once per test file.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PROJECT_ROOT } from '../../infra/function.js';
import { LibertaliaStack, type LibertaliaStackProps } from '../../infra/stack.js';

export interface SynthOptions {
  /** Run esbuild for the functions (only tests that read the bundles need it). Default false. */
  bundle?: boolean;
  stackName?: string;
  props?: LibertaliaStackProps;
}

export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

/**
 * A CDK app with cdk.json's context; without bundling unless `bundle`. Without CDK's built-in
 * CloudFormation validation too: its findings are only printed (as warnings) and no test reads
 * them, while starting its rules engine (WebAssembly) took 10-30 s of each file's synthesis. The
 * real `cdk synth` of test/infra/cdk-synth.test.ts still runs it, on every `npm test`.
 */
export function newApp(bundle = false): App {
  return new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
}

export function synthStack(options: SynthOptions = {}): {
  stack: LibertaliaStack;
  template: Template;
  annotations: Annotations;
} {
  const app = newApp(options.bundle);
  const stack = new LibertaliaStack(app, options.stackName ?? 'LibertaliaTest', options.props);
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  const template = Template.fromStack(stack);
  const annotations = Annotations.fromStack(stack);
  return { stack, template, annotations };
}
