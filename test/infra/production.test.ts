/**
 * Production readiness of the synthesized stack (issue 15): alarms that reach someone, structured
 * logs and tracing, data protection, exactly the DynamoDB actions the code calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_ACTIONS, TABLE_ACTIONS } from '../../infra/data-access.js';
import { PROJECT_ROOT } from '../../infra/function.js';
import { tableDefinition, TTL_ATTRIBUTE } from '../../functions/store/dynamo/table.js';
import { RETENTION_DAYS } from '../../functions/api/ops/retention.js';
import {
  API_CONCURRENCY_AT_TARGET,
  API_THROTTLE,
  GAME,
  NOTICE_MAX_CONCURRENCY,
  SWEEP_RESERVED_CONCURRENCY,
  TABLE_MAX_UNITS,
  TARGET_LIVE_GAMES,
  TARGET_REQUESTS_PER_SECOND,
} from '../../infra/limits.js';
import { synthStack } from './synth.js';

type Resource = { Type: string; Properties?: any; Condition?: string; DeletionPolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const asArray = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);

let template: Template;
let resources: Record<string, Resource>;

const idOf = (type: string, prefix: string) => {
  const ids = Object.entries(resources)
    .filter(([id, r]) => r.Type === type && id.startsWith(prefix))
    .map(([id]) => id);
  expect(ids, `${type} ${prefix}`).toHaveLength(1);
  return ids[0];
};

beforeAll(() => {
  template = synthStack().template;
  resources = template.toJSON().Resources;
}, 120_000);

describe('alarms that reach someone', () => {
  it('sends every alarm (ALARM and OK) to the one SNS topic', () => {
    const topicRef = { Ref: idOf('AWS::SNS::Topic', 'ObservabilityAlarmTopic') };
    const alarms = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThanOrEqual(10);
    for (const [id, a] of alarms) {
      expect(a.Properties.AlarmActions, id).toEqual([topicRef]);
      expect(a.Properties.OKActions, id).toEqual([topicRef]);
    }
  });

  it('subscribes the e-mail of the AlarmEmail stack parameter, only when it is set', () => {
    template.hasParameter('AlarmEmail', { Type: 'String', Default: '' });
    const subId = idOf('AWS::SNS::Subscription', 'ObservabilityAlarmEmailSubscription');
    expect(resources[subId].Properties).toMatchObject({ Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' } });
    expect(resources[subId].Condition).toBeDefined();
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('alarms on the real error metric: Errors with code INTERNAL_SERVER_ERROR (answered as HTTP 200)', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Libertalia',
      MetricName: 'Errors',
      Dimensions: Match.arrayWith([
        { Name: 'code', Value: 'INTERNAL_SERVER_ERROR' },
        { Name: 'service', Value: 'libertalia' },
      ]),
      Threshold: 1,
    });
  });

  it('alarms on DynamoDB throttles and system errors, the sweep backlog and failed sweep steps', () => {
    const alarms = Object.values(resources)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((r) => JSON.stringify(r.Properties));
    expect(alarms.some((a) => a.includes('ReadThrottleEvents') && a.includes('WriteThrottleEvents'))).toBe(true);
    expect(alarms.some((a) => a.includes('"SystemErrors"'))).toBe(true);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Libertalia',
      MetricName: 'SweepBacklog',
      Statistic: 'Maximum',
      EvaluationPeriods: 3,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'Libertalia', MetricName: 'SweepFailures' });
  });

  it('has an operations dashboard', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(
      Object.values(resources).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties.DashboardBody,
    );
    for (const m of ['Moves', 'Advances', 'CommitRetries', 'SweepBacklog', 'ConsumedWriteCapacityUnits', 'Latency'])
      expect(body).toContain(m);
  });
});

describe('live updates: the push WebSocket API', () => {
  it('has a WebSocket API routed on the action, its $connect guarded by the Lambda token authorizer', () => {
    const wsId = idOf('AWS::ApiGatewayV2::Api', 'PushApi');
    expect(resources[wsId].Properties).toMatchObject({
      ProtocolType: 'WEBSOCKET',
      RouteSelectionExpression: '$request.body.action',
    });
    const pushFn = idOf('AWS::Lambda::Function', 'PushFunction');
    const routes = Object.values(resources).filter(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.ApiId.Ref === wsId,
    );
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual([
      '$connect',
      '$default',
      '$disconnect',
      'ping',
      'subscribe',
      'unsubscribe',
    ]);
    const connect = routes.find((r) => r.Properties.RouteKey === '$connect')!;
    expect(connect.Properties.AuthorizationType).toBe('CUSTOM');
    for (const r of routes.filter((x) => x.Properties.RouteKey !== '$connect'))
      expect(r.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    const authorizer = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Authorizer')!;
    expect(authorizer.Properties).toMatchObject({ ApiId: { Ref: wsId }, AuthorizerType: 'REQUEST' });
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(pushFn);
    const integrations = Object.values(resources).filter(
      (r) => r.Type === 'AWS::ApiGatewayV2::Integration' && r.Properties.ApiId.Ref === wsId,
    );
    expect(integrations.length).toBeGreaterThanOrEqual(1);
    for (const i of integrations) expect(JSON.stringify(i.Properties.IntegrationUri)).toContain(pushFn);
  });

  it('has a throttled, access-logged stage and outputs its wss:// URL', () => {
    const wsId = idOf('AWS::ApiGatewayV2::Api', 'PushApi');
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: wsId },
      StageName: 'live',
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('connectionId') },
    });
    template.hasOutput('PushUrl', { Value: Match.anyValue() });
  });

  it("lets the notice worker post (it runs the commits' fan-out), the API close (signOut) and push do both, on this API and stage only; the sweep never", () => {
    const wsId = idOf('AWS::ApiGatewayV2::Api', 'PushApi');
    const methods: Record<string, string[]> = {
      ApiFunction: ['DELETE'],
      NoticeWorkerFunction: ['POST'],
      PushFunction: ['POST', 'DELETE'],
      SweepFunction: [],
    };
    for (const [prefix, allowed] of Object.entries(methods)) {
      const fn = resources[idOf('AWS::Lambda::Function', prefix)].Properties;
      const roleId = fn.Role['Fn::GetAtt'][0];
      const statements = Object.values(resources)
        .filter(
          (r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === roleId),
        )
        .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => asArray(s.Action).some((a) => a.startsWith('execute-api:')));
      if (allowed.length === 0) {
        expect(statements, prefix).toHaveLength(0);
        expect(fn.Environment.Variables.PUSH_ENDPOINT, prefix).toBeUndefined();
        continue;
      }
      expect(JSON.stringify(fn.Environment.Variables.PUSH_ENDPOINT), prefix).toContain(wsId);
      expect(statements, prefix).toHaveLength(1);
      expect(statements[0].Action).toBe('execute-api:ManageConnections');
      const arn = JSON.stringify(statements[0].Resource);
      expect(arn).toContain(wsId);
      for (const m of ['POST', 'DELETE'])
        expect(arn.includes(`/live/${m}/@connections/*`), `${prefix} ${m}`).toBe(allowed.includes(m));
    }
  });
});

describe('logs and traces', () => {
  it('runs both functions with JSON logs, Powertools settings and active X-Ray tracing', () => {
    for (const prefix of ['ApiFunction', 'SweepFunction', 'PushFunction']) {
      const fn = resources[idOf('AWS::Lambda::Function', prefix)].Properties;
      expect(fn.LoggingConfig).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO' });
      expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.Environment.Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'libertalia',
        POWERTOOLS_METRICS_NAMESPACE: 'Libertalia',
      });
    }
  });

  it('writes the Lambda request id into the API access log, to join it to the function logs', () => {
    const stage = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format) as Record<string, string>;
    expect(format.integrationRequestId).toBe('$context.integration.requestId');
    expect(format.requestId).toBe('$context.requestId');
  });
});

describe('data safety', () => {
  it('protects the table: deletion protection, point-in-time recovery, RETAIN, TTL on expiresAt', () => {
    const id = idOf('AWS::DynamoDB::Table', 'Table');
    expect(resources[id].Properties).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
    expect(resources[id].DeletionPolicy).toBe('Retain');
  });

  it('the TTL attribute is the one the store writes on expiring items (finished games: after RETENTION_DAYS)', () => {
    const id = idOf('AWS::DynamoDB::Table', 'Table');
    expect(TTL_ATTRIBUTE).toBe('expiresAt');
    expect(resources[id].Properties.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    // The store names the attribute only through TTL_ATTRIBUTE or the literal it stands for.
    const games = readFileSync(path.join(PROJECT_ROOT, 'functions/store/dynamo/games.ts'), 'utf8');
    expect(games).toContain("'#ttl': TTL_ATTRIBUTE");
    expect(RETENTION_DAYS).toBe(90);
  });
});

describe('launch limits (infra/limits.ts, docs/aws.md "Limits and how to raise them")', () => {
  it('sizes the HTTP API stage throttle for the target: 1,000 live games need about 431 requests/s', () => {
    expect(TARGET_LIVE_GAMES).toBe(1_000);
    expect(TARGET_REQUESTS_PER_SECOND).toBeCloseTo((1_000 * GAME.commits * GAME.requestsPerCommit) / GAME.seconds, 6);
    expect(Math.round(TARGET_REQUESTS_PER_SECOND)).toBe(431);
    // Room for peaks over the mean, and a burst of twice the rate.
    expect(API_THROTTLE.rateLimit).toBeGreaterThanOrEqual(2 * TARGET_REQUESTS_PER_SECOND);
    expect(API_THROTTLE.burstLimit).toBe(2 * API_THROTTLE.rateLimit);
    const httpApi = idOf('AWS::ApiGatewayV2::Api', 'HttpApi');
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: httpApi },
      DefaultRouteSettings: {
        ThrottlingRateLimit: API_THROTTLE.rateLimit,
        ThrottlingBurstLimit: API_THROTTLE.burstLimit,
      },
    });
  });

  it('reserves no concurrency by default, and with -c sweepReservedConcurrency=1 the account arithmetic holds (1,000 default, 100 kept unreserved)', () => {
    const reserved = Object.entries(resources).filter(
      ([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties.ReservedConcurrentExecutions !== undefined,
    );
    expect(reserved).toEqual([]);
    expect(SWEEP_RESERVED_CONCURRENCY).toBe(0);
    const accountDefault = 1_000;
    const reservedByChoice = 1;
    expect(accountDefault - reservedByChoice).toBeGreaterThanOrEqual(100);
    // The API at the throttle's full rate (50 ms a request) fits in what is left.
    expect(API_CONCURRENCY_AT_TARGET).toBeLessThan(50);
    expect(API_THROTTLE.burstLimit * 0.05).toBeLessThan(accountDefault - reservedByChoice);
  });

  it("caps the notice worker's concurrency (SQS event source maximum concurrency)", () => {
    const mappings = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties.ScalingConfig).toEqual({ MaximumConcurrency: NOTICE_MAX_CONCURRENCY });
    expect(NOTICE_MAX_CONCURRENCY).toBeGreaterThanOrEqual(2); // SQS's minimum
  });

  it('caps the table’s on-demand throughput at about 10x the target’s mean', () => {
    const id = idOf('AWS::DynamoDB::Table', 'Table');
    expect(resources[id].Properties.OnDemandThroughput).toEqual({
      MaxReadRequestUnits: TABLE_MAX_UNITS.read,
      MaxWriteRequestUnits: TABLE_MAX_UNITS.write,
    });
    const meanWrite = (TARGET_LIVE_GAMES * GAME.writeUnits) / GAME.seconds;
    const meanRead = (TARGET_LIVE_GAMES * GAME.readUnits) / GAME.seconds;
    expect(TABLE_MAX_UNITS.write / meanWrite).toBeGreaterThan(8);
    expect(TABLE_MAX_UNITS.read / meanRead).toBeGreaterThan(8);
  });
});

describe('least privilege', () => {
  /** The DynamoDB actions the source sends: every command class of the DynamoDB clients it uses. */
  function actionsInSource(): string[] {
    const found = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts')) {
          const src = readFileSync(p, 'utf8');
          // Command classes imported from the DynamoDB client or document client (an alias
          // `QueryCommand as QueryItemsCommand` counts as Query) and used anywhere outside the
          // import: `new XCommand(`, or a class handed to the store's resolved handlers (db.ts).
          const imports = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@aws-sdk\/(?:lib|client)-dynamodb';?/g;
          const body = src.replace(imports, '');
          for (const m of src.matchAll(imports))
            for (const part of m[1].split(',')) {
              const [real, alias = real] = part
                .replace(/^\s*type\s+/, '')
                .trim()
                .split(/\s+as\s+/);
              if (real.endsWith('Command') && new RegExp(`\\b${alias}\\b`).test(body))
                found.add(real.slice(0, -'Command'.length));
            }
        }
      }
    };
    walk(path.join(PROJECT_ROOT, 'functions'));
    // Only the local server and tests create the table (the stack does on AWS) and check its
    // schema marker (checkSchema's Scan of an old local table).
    for (const local of ['CreateTable', 'DescribeTable', 'DeleteTable', 'ListTables', 'Scan']) found.delete(local);
    const item = new Set(['Get', 'Put', 'Update', 'Delete', 'BatchGet', 'BatchWrite', 'TransactWrite', 'TransactGet']);
    // The document client's GetCommand and the client's GetItemCommand are the same action.
    const actions = [...found].map(
      (c) => `dynamodb:${item.has(c) ? `${c}Item${c.startsWith('Transact') ? 's' : ''}` : c}`,
    );
    return [...new Set(actions)].sort();
  }

  it('grants exactly the DynamoDB actions the code calls, on the table and each named index', () => {
    expect([...TABLE_ACTIONS].sort()).toEqual(actionsInSource());
    const tableId = idOf('AWS::DynamoDB::Table', 'Table');
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const indexArns = tableDefinition('x').GlobalSecondaryIndexes.map((g) => ({
      'Fn::Join': ['', [tableArn, `/index/${g.IndexName}`]],
    }));
    for (const prefix of ['ApiFunction', 'SweepFunction', 'PushFunction']) {
      const roleId = resources[idOf('AWS::Lambda::Function', prefix)].Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(resources)
        .filter(
          (r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: { Ref: string }) => x.Ref === roleId),
        )
        .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => asArray(s.Action).some((a) => a.startsWith('dynamodb:')));
      expect(statements).toEqual([
        { Effect: 'Allow', Action: [...TABLE_ACTIONS], Resource: tableArn },
        {
          Effect: 'Allow',
          Action: INDEX_ACTIONS.length === 1 ? INDEX_ACTIONS[0] : [...INDEX_ACTIONS],
          Resource: indexArns,
        },
      ]);
    }
  });
});
