import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The runtime of every function (`npm run bench:lambda` measures module init on its Node major). */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** Repository root (infra/ is one level below it). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * esbuild options shared by the stack and `scripts/bench-lambda.ts`, so the bench measures exactly
 * what is deployed. ESM output (`index.mjs`) with a `require` shim for the few CommonJS
 * dependencies that call `require` on Node built-ins.
 */
// Lambda runs nodejs24.x; the syntax target stays node22 so that the same bundles also run on the
// Node 20 and 22 of CI and the local harness (test/infra/lambda-harness.test.ts).
export const BUNDLE_TARGET = 'node22';
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __cjsCreateRequire } from 'node:module'; const require = __cjsCreateRequire(import.meta.url);";
export const BUNDLE_MAIN_FIELDS = ['module', 'main'];
/** Non-ASCII text (the confusables table of names, the schema's descriptions) kept as UTF-8, not as `\uXXXX` escapes. */
export const BUNDLE_CHARSET = 'utf8';
/** License comments go to `index.mjs.LEGAL.txt` beside the bundle (shipped, never loaded). */
export const BUNDLE_LEGAL_COMMENTS = 'external';
const nodeModule = (p: string) => path.join(PROJECT_ROOT, 'node_modules', p);
/**
 * Import paths the bundles resolve elsewhere than esbuild would:
 * - Apollo's usage-reporting protobuf: an empty stub, no code path of ours reaches it (the
 *   plugins are disabled in functions/api/http/app.ts).
 * - The two @stdlib functions openskill imports for its predictions (erf, the normal quantile):
 *   a stub that throws, since we call only rate, ordinal and rating (test/infra/bundles.test.ts
 *   checks the imports); esbuild keeps a CommonJS module whose import goes unused. 30 KB less in
 *   every bundle.
 * - One copy of a dual (ESM and CommonJS) package instead of both: `@as-integrations/aws-lambda`
 *   is CommonJS, and its `require('@apollo/server')` took Apollo's CommonJS build (with the
 *   CommonJS graphql-tools and lru-cache) beside the ESM build our code imports; graphql-armor's
 *   `graphql/language/parser` took graphql's CommonJS parser and lexer beside the ESM ones. Two
 *   copies are loaded twice, and their classes differ (`instanceof` across them fails). The
 *   aliases point every import of those at the ESM build (a folder alias keeps subpaths such as
 *   `@apollo/server/plugin/disabled`); test/infra/bundles.test.ts checks that no bundle holds a
 *   package in both formats.
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@apollo/usage-reporting-protobuf': path.join(PROJECT_ROOT, 'infra', 'bundle-stubs', 'empty.cjs'),
  '@stdlib/math-base-special-erf': path.join(PROJECT_ROOT, 'infra', 'bundle-stubs', 'unreached-function.cjs'),
  '@stdlib/stats-base-dists-normal-quantile': path.join(
    PROJECT_ROOT,
    'infra',
    'bundle-stubs',
    'unreached-function.cjs',
  ),
  '@apollo/server': nodeModule('@apollo/server/dist/esm'),
  'graphql/language/parser': nodeModule('graphql/language/parser.mjs'),
  'lru-cache': nodeModule('lru-cache/dist/esm/node/index.min.js'),
};

export interface ServiceFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/handlers/api.ts`. */
  entry: string;
  description: string;
  memorySize: number;
  timeout: Duration;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** Powertools service name (logs' `service`, metrics' `service` dimension). Default `libertalia`. */
  serviceName?: string;
  /** Reserved concurrency (e.g. to keep the sweep from starving the API); default none. */
  reservedConcurrentExecutions?: number;
}

/**
 * A Node.js 24 / arm64 function bundled locally by esbuild (never Docker), with its own log group
 * (fixed retention) and its own role that may write only to that log group. Callers add the data
 * permissions it needs (the table, the secret) explicitly. Also creates the Errors and Throttles
 * alarms of the function.
 */
export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly errorsAlarm: cloudwatch.Alarm;
  readonly throttlesAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Own role instead of the AWSLambdaBasicExecutionRole managed policy: logs only to this
    // function's log group.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.description} (execution role)`,
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      // Structured logs: Lambda's own lines in JSON, and the Powertools logger
      // (functions/api/http/telemetry.ts) writes JSON with the request, player and game ids.
      // System level INFO keeps the platform.start and platform.report lines (duration, billed
      // duration, memory, init duration of a cold start); WARN would drop them.
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      // X-Ray: Lambda's own segments (Init, Invocation, Overhead); the AWS SDK passes the trace header
      // on (SQS: the notice worker joins the move's trace). No tracer SDK in the bundles (functions/handlers/observe.ts).
      tracing: lambda.Tracing.ACTIVE,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: props.serviceName ?? 'libertalia',
        POWERTOOLS_METRICS_NAMESPACE: 'Libertalia',
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        minify: true,
        sourceMap: true,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: false,
        target: BUNDLE_TARGET,
        format: OutputFormat.ESM,
        mainFields: BUNDLE_MAIN_FIELDS,
        banner: ESM_REQUIRE_BANNER,
        // As esbuild arguments: the `charset` bundling prop is not passed on to esbuild (aws-cdk-lib
        // 2.276; test/infra/cdk-synth.test.ts compares the synthesized bundles with the bench's).
        esbuildArgs: {
          ...Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
          '--charset': BUNDLE_CHARSET,
          '--legal-comments': BUNDLE_LEGAL_COMMENTS,
        },
        // Bundle the AWS SDK too: the versions in package-lock.json are the ones tested, and a
        // bundled, tree-shaken client initialises faster than the runtime's full copy.
        externalModules: [],
      },
    });

    NagSuppressions.addResourceSuppressions(
      this.role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Resource::* only for xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing): X-Ray has no ' +
            'resource-level permissions for them. DynamoDB is granted on the table and each named index.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );

    this.errorsAlarm = new cloudwatch.Alarm(this, 'ErrorsAlarm', {
      alarmDescription: `${props.description}: invocations ended in an error`,
      metric: this.fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.throttlesAlarm = new cloudwatch.Alarm(this, 'ThrottlesAlarm', {
      alarmDescription: `${props.description}: invocations were throttled`,
      metric: this.fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
