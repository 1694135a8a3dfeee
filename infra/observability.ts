import { ArnFormat, Aspects, CfnCondition, CfnParameter, Duration, Fn, type IAspect, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct, type IConstruct } from 'constructs';
import type { ServiceFunction } from './function.js';

/** Namespace and service dimension of the custom metrics (functions/api/http/telemetry.ts). */
export const METRICS_NAMESPACE = 'Libertalia';
export const SERVICE = 'libertalia';

/** The DynamoDB operations the code calls, for the system-errors alarm (see infra/data-access.ts). */
const OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.BATCH_GET_ITEM,
];

export interface ObservabilityProps {
  table: dynamodb.ITable;
  api: apigw.IHttpApi;
  apiFunction: ServiceFunction;
  sweepFunction: ServiceFunction;
  /** The sweep's backlog (due decisions + webhook retries found in one run) that pages someone. */
  sweepBacklogThreshold: number;
}

/**
 * Every CloudWatch alarm of the stack sends ALARM and OK to `topic`: applied as an aspect, so the
 * alarms other constructs add (a dead-letter queue's, say) are covered without wiring.
 */
class AlarmsToTopic implements IAspect {
  private readonly done = new Set<IConstruct>();

  constructor(private readonly topic: sns.ITopic) {}

  visit(node: IConstruct): void {
    if (this.done.has(node)) return;
    if (node instanceof cloudwatch.Alarm) {
      this.done.add(node);
      this.done.add(node.node.defaultChild as IConstruct);
      node.addAlarmAction(new actions.SnsAction(this.topic));
      node.addOkAction(new actions.SnsAction(this.topic));
    } else if (node instanceof cloudwatch.CfnAlarm) {
      // An alarm made without the L2 construct: plain lists only.
      this.done.add(node);
      const arn = this.topic.topicArn;
      node.alarmActions = [...((node.alarmActions as string[] | undefined) ?? []), arn];
      node.okActions = [...((node.okActions as string[] | undefined) ?? []), arn];
    }
  }
}

const count = (metric: cloudwatch.IMetric, threshold: number, description: string, evaluationPeriods = 1) => ({
  alarmDescription: description,
  metric,
  threshold,
  evaluationPeriods,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
});

/**
 * Alarms that reach someone and a dashboard:
 * - the SNS topic every alarm goes to, with an e-mail subscription when the stack parameter
 *   `AlarmEmail` is set (`cdk deploy --parameters AlarmEmail=ops@example.com`);
 * - alarms on the real error metric (`Errors` with `code=INTERNAL_SERVER_ERROR`: resolver
 *   failures are HTTP 200, so neither the 5xx nor the Lambda Errors alarm sees them), DynamoDB
 *   throttles and system errors, the sweep's backlog and failed sweep steps (the functions' own
 *   Errors/Throttles alarms and the API's 5xx alarm are created with them);
 * - a CloudWatch dashboard `<stack>-operations`.
 */
export class Observability extends Construct {
  readonly topic: sns.Topic;
  readonly alarmEmail: CfnParameter;
  readonly dashboard: cloudwatch.Dashboard;
  readonly realErrors: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const period = Duration.minutes(5);
    const custom = (metricName: string, statistic = 'Sum', extra: Record<string, string> = {}) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: SERVICE, ...extra },
        period,
        statistic,
      });

    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Libertalia Online alarms',
      enforceSSL: true,
    });
    // enforceSSL writes a topic policy, and a topic policy replaces the default one: without this
    // statement it holds only the Deny, and no alarm of the stack could publish.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        effect: iam.Effect.ALLOW,
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    this.alarmEmail = new CfnParameter(stack, 'AlarmEmail', {
      type: 'String',
      default: '',
      description: 'E-mail address that receives the alarms (confirm the subscription mail). Empty: no subscription.',
      allowedPattern: '^$|^[^@\\s]+@[^@\\s]+$',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(this.alarmEmail.valueAsString, '')),
    });
    const subscription = new sns.CfnSubscription(this, 'AlarmEmailSubscription', {
      topicArn: this.topic.topicArn,
      protocol: 'email',
      endpoint: this.alarmEmail.valueAsString,
    });
    subscription.cfnOptions.condition = hasEmail;
    Aspects.of(stack).add(new AlarmsToTopic(this.topic));

    // ---- alarms ---------------------------------------------------------------------------------
    const internalErrors = custom('Errors', 'Sum', { code: 'INTERNAL_SERVER_ERROR' });
    this.realErrors = new cloudwatch.Alarm(
      this,
      'InternalErrorsAlarm',
      count(
        internalErrors,
        1,
        'Libertalia Online: requests failed with INTERNAL_SERVER_ERROR (resolver or REST failures, DynamoDB throttling included)',
      ),
    );

    const tableName = props.table.tableName;
    const throttles = new cloudwatch.MathExpression({
      expression: 'r + w',
      usingMetrics: {
        r: new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'ReadThrottleEvents',
          dimensionsMap: { TableName: tableName },
          period,
          statistic: 'Sum',
        }),
        w: new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'WriteThrottleEvents',
          dimensionsMap: { TableName: tableName },
          period,
          statistic: 'Sum',
        }),
      },
      label: 'DynamoDB throttle events',
      period,
    });
    new cloudwatch.Alarm(
      this,
      'TableThrottlesAlarm',
      count(throttles, 1, 'Libertalia Online: DynamoDB throttled reads or writes (on-demand cap or a hot partition)'),
    );
    const systemErrors = props.table.metricSystemErrorsForOperations({
      operations: OPERATIONS,
      period,
      label: 'DynamoDB system errors',
    });
    new cloudwatch.Alarm(
      this,
      'TableSystemErrorsAlarm',
      count(systemErrors, 1, 'Libertalia Online: DynamoDB answered with system errors (HTTP 500)'),
    );

    new cloudwatch.Alarm(
      this,
      'SweepBacklogAlarm',
      count(
        custom('SweepBacklog', 'Maximum'),
        props.sweepBacklogThreshold,
        `Libertalia Online: the sweep found at least ${props.sweepBacklogThreshold} due decisions and webhook retries in a run, three runs in a row (falling behind)`,
        3,
      ),
    );
    new cloudwatch.Alarm(
      this,
      'SweepFailuresAlarm',
      count(custom('SweepFailures'), 1, 'Libertalia Online: sweep steps failed (logged with the game or delivery id)'),
    );

    // ---- dashboard ------------------------------------------------------------------------------
    const api = (metricName: string, statistic = 'Sum') =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.api.apiId, Stage: '$default' },
        period,
        statistic,
      });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-operations`,
      defaultInterval: Duration.hours(6),
    });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'HTTP API requests and errors',
        left: [api('Count'), api('4xx'), api('5xx')],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'HTTP API latency (p50, p99 ms)',
        left: [api('Latency', 'p50'), api('Latency', 'p99')],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'Play: moves, advances, commits, retries',
        left: [custom('Moves'), custom('Advances'), custom('Commits'), custom('CommitRetries')],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'Errors by code',
        left: [
          new cloudwatch.MathExpression({
            expression: `SEARCH('{${METRICS_NAMESPACE},code,service} MetricName="Errors"', 'Sum', 300)`,
            label: 'Errors',
            period,
          }),
        ],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'Lambda errors, throttles, concurrency',
        left: [
          props.apiFunction.fn.metricErrors({ period }),
          props.sweepFunction.fn.metricErrors({ period }),
          props.apiFunction.fn.metricThrottles({ period }),
        ],
        right: [props.apiFunction.fn.metric('ConcurrentExecutions', { period, statistic: 'Maximum' })],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'Lambda duration (p50, p99 ms)',
        left: [
          props.apiFunction.fn.metricDuration({ period, statistic: 'p50' }),
          props.apiFunction.fn.metricDuration({ period, statistic: 'p99' }),
          props.sweepFunction.fn.metricDuration({ period, statistic: 'Maximum' }),
        ],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'DynamoDB consumed units',
        left: [
          props.table.metricConsumedReadCapacityUnits({ period }),
          props.table.metricConsumedWriteCapacityUnits({ period }),
        ],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'DynamoDB throttles and system errors',
        left: [throttles, systemErrors],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'Sweep backlog, failures; webhooks',
        left: [custom('SweepBacklog', 'Maximum'), custom('SweepFailures')],
        right: [
          new cloudwatch.MathExpression({
            expression: `SEARCH('{${METRICS_NAMESPACE},outcome,service} MetricName="Webhooks"', 'Sum', 300)`,
            label: 'Webhooks',
            period,
          }),
        ],
        width: 8,
      }),
    );
  }
}
