import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Annotations, type Template } from 'aws-cdk-lib/assertions';
import { CORS } from '../../functions/api/http/cors.js';
import { INDEX_SHARDS, keys, shardOf, tableDefinition } from '../../functions/store/dynamo/table.js';
import { synthStack } from './synth.js';

type Resource = {
  Type: string;
  Properties?: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

let template: Template;
let annotations: Annotations;
let resources: Record<string, Resource>;

const logicalIdOf = (type: string, prefix: string): string => {
  const ids = Object.keys(resources).filter((id) => resources[id].Type === type && id.startsWith(prefix));
  expect(ids, `${type} ${prefix}*`).toHaveLength(1);
  return ids[0];
};
const asArray = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);

/** Statements of the inline policies attached to a role (by the role's logical id). */
function statementsOfRole(roleId: string): Statement[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => asArray(r.Properties!.Roles).some((ref: any) => ref?.Ref === roleId))
    .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
}

// One synthesis (two esbuild bundles) for the whole file; generous for a busy CI machine.
beforeAll(() => {
  ({ template, annotations } = synthStack());
  resources = template.toJSON().Resources as Record<string, Resource>;
}, 120_000);

describe('DynamoDB table', () => {
  it('has the store keys, on-demand billing, PITR, TTL and no stream', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      StreamSpecification: Match.absent(),
    });
  });

  it('has the three GSIs of the store, all key attributes typed as strings', () => {
    const table = Object.values(resources).find((r) => r.Type === 'AWS::DynamoDB::Table')!;
    const gsis = table.Properties!.GlobalSecondaryIndexes as any[];
    expect(gsis.map((g) => g.IndexName).sort()).toEqual(['GSI1', 'GSI2', 'GSI3']);
    for (const n of [1, 2, 3]) {
      const gsi = gsis.find((g) => g.IndexName === `GSI${n}`);
      expect(gsi.KeySchema).toEqual([
        { AttributeName: `GSI${n}PK`, KeyType: 'HASH' },
        { AttributeName: `GSI${n}SK`, KeyType: 'RANGE' },
      ]);
    }
    const attrs = Object.fromEntries(
      (table.Properties!.AttributeDefinitions as any[]).map((a) => [a.AttributeName, a.AttributeType]),
    );
    expect(attrs).toEqual({
      PK: 'S',
      SK: 'S',
      GSI1PK: 'S',
      GSI1SK: 'S',
      GSI2PK: 'S',
      GSI2SK: 'S',
      GSI3PK: 'S',
      GSI3SK: 'S',
    });
  });

  it("matches the store's own table definition exactly (keys, attribute types, GSI projections)", () => {
    const table = Object.values(resources).find((r) => r.Type === 'AWS::DynamoDB::Table')!;
    const def = tableDefinition('x');
    const byName = <T extends { AttributeName?: string; IndexName?: string }>(xs: readonly T[]) =>
      [...xs].sort((a, b) =>
        String(a.AttributeName ?? a.IndexName).localeCompare(String(b.AttributeName ?? b.IndexName)),
      );
    expect(table.Properties!.KeySchema).toEqual(def.KeySchema);
    expect(byName(table.Properties!.AttributeDefinitions)).toEqual(byName(def.AttributeDefinitions));
    expect(byName(table.Properties!.GlobalSecondaryIndexes)).toEqual(byName(def.GlobalSecondaryIndexes));
    expect(table.Properties!.BillingMode).toBe(def.BillingMode);
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('Lambda functions', () => {
  it('are exactly the API, the sweep and the notice worker, Node.js 24 on arm64, esbuild bundles with source maps', () => {
    const fns = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    // The push function (WebSocket API) is asserted in production.test.ts.
    expect(fns.map(([id]) => id.replace(/[A-F0-9]{8}$/, '')).sort()).toEqual([
      'ApiFunction',
      'NoticeWorkerFunction',
      'PushFunction',
      'SweepFunction',
    ]);
    for (const [, fn] of fns) {
      expect(fn.Properties!.Runtime).toBe('nodejs24.x');
      expect(fn.Properties!.Architectures).toEqual(['arm64']);
      expect(fn.Properties!.Handler).toBe('index.handler');
      expect(fn.Properties!.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      expect(fn.Properties!.Timeout).toBeLessThanOrEqual(60);
      expect(fn.Properties!.MemorySize).toBeGreaterThanOrEqual(256);
    }
  });

  it('give the API function a timeout under the HTTP API limit and the table and secret by reference', () => {
    const fn = resources[logicalIdOf('AWS::Lambda::Function', 'ApiFunction')];
    expect(fn.Properties!.Timeout).toBeLessThan(30);
    const env = fn.Properties!.Environment.Variables;
    expect(env.TABLE_NAME).toEqual({ Ref: logicalIdOf('AWS::DynamoDB::Table', 'Table') });
    expect(env.SIGNING_KEY_SECRET_ARN).toEqual({ Ref: logicalIdOf('AWS::SecretsManager::Secret', 'SigningKey') });
    expect(env.SIGNING_KEY).toBeUndefined();
  });

  it('each have a log group with a retention and their own log group only', () => {
    for (const prefix of ['Api', 'Sweep', 'NoticeWorker']) {
      const fn = resources[logicalIdOf('AWS::Lambda::Function', `${prefix}Function`)];
      const logGroupId = logicalIdOf('AWS::Logs::LogGroup', `${prefix}Logs`);
      expect(fn.Properties!.LoggingConfig.LogGroup).toEqual({ Ref: logGroupId });
      expect(resources[logGroupId].Properties!.RetentionInDays).toBeGreaterThan(0);
      const roleId = fn.Properties!.Role['Fn::GetAtt'][0];
      expect(resources[roleId].Properties!.ManagedPolicyArns).toBeUndefined();
      const logStatements = statementsOfRole(roleId).filter((s) =>
        asArray(s.Action).some((a) => a.startsWith('logs:')),
      );
      expect(logStatements.length).toBeGreaterThan(0);
      for (const s of logStatements) expect(s.Resource).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    }
  });

  it('have alarms on errors and throttles', () => {
    for (const prefix of ['Api', 'Sweep', 'NoticeWorker']) {
      const fnId = logicalIdOf('AWS::Lambda::Function', `${prefix}Function`);
      for (const metric of ['Errors', 'Throttles']) {
        template.hasResourceProperties('AWS::CloudWatch::Alarm', {
          Namespace: 'AWS/Lambda',
          MetricName: metric,
          Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
          Threshold: 1,
        });
      }
    }
  });
});

describe('HTTP API', () => {
  it('routes GraphQL and the REST routes to the API function with payload 2.0', () => {
    const httpApi = { Ref: logicalIdOf('AWS::ApiGatewayV2::Api', 'HttpApi') };
    const onHttpApi = (r: { Properties?: Record<string, any> }) =>
      JSON.stringify(r.Properties?.ApiId) === JSON.stringify(httpApi);
    const routes = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route' && onHttpApi(r))
      .map((r) => r.Properties!.RouteKey)
      .sort();
    expect(routes).toEqual([
      'GET /games/{id}/events',
      'GET /games/{id}/scenario',
      'GET /graphql',
      'GET /health',
      // e-mail links (docs/correspondence.md): GET shows a page, POST (RFC 8058 one-click) acts
      'GET /reminders/confirm',
      'GET /unsubscribe',
      'POST /graphql',
      'POST /reminders/confirm',
      'POST /unsubscribe',
    ]);
    const apiFnId = logicalIdOf('AWS::Lambda::Function', 'ApiFunction');
    const integrations = Object.values(resources).filter(
      (r) => r.Type === 'AWS::ApiGatewayV2::Integration' && onHttpApi(r),
    );
    expect(integrations).toHaveLength(1);
    expect(integrations[0].Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [apiFnId, 'Arn'] },
    });
  });

  it('answers CORS with the local server policy, exposing the rate-limit headers to browsers', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: [...CORS.allowOrigins],
        AllowMethods: [...CORS.allowMethods],
        AllowHeaders: [...CORS.allowHeaders],
        ExposeHeaders: Match.arrayWith(['retry-after', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
        MaxAge: CORS.maxAgeSeconds,
      },
    });
  });

  it('has a throttled, access-logged $default stage', () => {
    // Two stages: this one and the push WebSocket API's (production.test.ts).
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 2);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context\\.requestId') },
    });
    const stage = Object.values(resources).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Stage' && r.Properties!.StageName === '$default',
    )!;
    const format = JSON.parse(stage.Properties!.AccessLogSettings.Format) as Record<string, string>;
    expect(format.routeKey).toBe('$context.routeKey');
    expect(format.status).toBe('$context.status');
  });

  it('has an alarm on 5xx answers of the API', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: Match.arrayWith([
        { Name: 'ApiId', Value: { Ref: logicalIdOf('AWS::ApiGatewayV2::Api', 'HttpApi') } },
      ]),
    });
    // Errors + Throttles for each function, the API's 5xx, the notice dead-letter queue, and the
    // observability alarms (production.test.ts).
    expect(Object.keys(template.findResources('AWS::CloudWatch::Alarm')).length).toBeGreaterThanOrEqual(8);
  });

  it('outputs the API URL', () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
    template.hasOutput('GraphqlUrl', { Value: Match.anyValue() });
  });
});

describe('advance, notices and sweep', () => {
  it('needs no stream; one notice queue with a dead-letter queue, consumed by the notice worker', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.resourceCountIs('AWS::SQS::Queue', 2);
    const queueId = logicalIdOf('AWS::SQS::Queue', 'Notices');
    const dlqId = logicalIdOf('AWS::SQS::Queue', 'NoticeDeadLetters');
    const queue = resources[queueId].Properties!;
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 });
    expect(queue.SqsManagedSseEnabled).toBe(true);
    const worker = resources[logicalIdOf('AWS::Lambda::Function', 'NoticeWorkerFunction')].Properties!;
    // SQS wants the visibility timeout to cover the consumer's timeout (AWS advises six times).
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * worker.Timeout);
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalIdOf('AWS::Lambda::Function', 'NoticeWorkerFunction') },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // Both queues refuse plain HTTP.
    for (const id of [queueId, dlqId]) {
      const policy = Object.values(resources).find(
        (r) => r.Type === 'AWS::SQS::QueuePolicy' && asArray(r.Properties!.Queues).some((q: any) => q?.Ref === id),
      );
      expect(JSON.stringify(policy?.Properties?.PolicyDocument)).toContain('aws:SecureTransport');
    }
  });

  it('has an alarm as soon as one message is in the dead-letter queue', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        {
          Name: 'QueueName',
          Value: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'NoticeDeadLetters'), 'QueueName'] },
        },
      ],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('gives the queue URL to the API, the sweep and the worker; only they may send, only the worker may receive', () => {
    const queueId = logicalIdOf('AWS::SQS::Queue', 'Notices');
    const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    const sqsStatements = (prefix: string) => {
      const fn = resources[logicalIdOf('AWS::Lambda::Function', `${prefix}Function`)];
      expect(fn.Properties!.Environment.Variables.NOTICE_QUEUE_URL).toEqual({ Ref: queueId });
      return statementsOfRole(fn.Properties!.Role['Fn::GetAtt'][0]).filter((s) =>
        asArray(s.Action).some((a) => a.startsWith('sqs:')),
      );
    };
    for (const prefix of ['Api', 'Sweep', 'NoticeWorker']) {
      const statements = sqsStatements(prefix);
      const actions = statements.flatMap((s) => asArray(s.Action));
      expect(actions).toContain('sqs:SendMessage');
      for (const s of statements) expect(asArray(s.Resource)).toEqual([queueArn]);
      if (prefix === 'NoticeWorker')
        expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
      else expect(actions.filter((a) => a.startsWith('sqs:Receive') || a.startsWith('sqs:Delete'))).toEqual([]);
    }
    // No role may touch the dead-letter queue's messages but SQS itself.
    const dlqArn = { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'NoticeDeadLetters'), 'Arn'] };
    const all = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
    expect(all.filter((s) => asArray(s.Resource).some((r) => JSON.stringify(r) === JSON.stringify(dlqArn)))).toEqual(
      [],
    );
  });

  it('shards the index keys every game writes (status, due work), so no index partition takes every commit', () => {
    const ids = Array.from({ length: 64 }, (_, i) => `game-${i}`);
    expect(new Set(ids.map((id) => keys.status('ACTIVE', shardOf(id)))).size).toBe(INDEX_SHARDS);
    expect(new Set(ids.map((id) => keys.due('GAME', '2030-01-01T00:00:00.000Z', id).GSI3PK)).size).toBe(INDEX_SHARDS);
    expect(INDEX_SHARDS).toBeGreaterThanOrEqual(4);
  });

  it('runs the sweep function on a schedule of a few minutes', () => {
    const sweepId = logicalIdOf('AWS::Lambda::Function', 'SweepFunction');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweepId, 'Arn'] } })],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [sweepId, 'Arn'] },
    });
  });
});

describe('IAM', () => {
  it('scopes every DynamoDB action to the table and its indexes, never *', () => {
    const tableId = logicalIdOf('AWS::DynamoDB::Table', 'Table');
    const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
    const indexArns = tableDefinition('x').GlobalSecondaryIndexes.map((g) => ({
      'Fn::Join': ['', [tableArn, `/index/${g.IndexName}`]],
    }));
    const dynamoStatements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[])
      .filter((s) => asArray(s.Action).some((a) => a.startsWith('dynamodb:')));
    expect(dynamoStatements.length).toBeGreaterThan(0);
    for (const s of dynamoStatements) {
      expect(s.Effect).toBe('Allow');
      expect(asArray(s.Action).every((a) => a.startsWith('dynamodb:'))).toBe(true);
      expect(asArray(s.Action)).not.toContain('dynamodb:*');
      for (const r of asArray(s.Resource)) {
        expect(r).not.toBe('*');
        expect([tableArn, ...indexArns]).toContainEqual(r);
      }
    }
  });

  it('gives every function the table, but the secret only to the API', () => {
    const secretId = logicalIdOf('AWS::SecretsManager::Secret', 'SigningKey');
    for (const prefix of ['Api', 'Sweep', 'NoticeWorker']) {
      const fn = resources[logicalIdOf('AWS::Lambda::Function', `${prefix}Function`)];
      const statements = statementsOfRole(fn.Properties!.Role['Fn::GetAtt'][0]);
      expect(statements.some((s) => asArray(s.Action).includes('dynamodb:PutItem'))).toBe(true);
      const secretStatements = statements.filter((s) => asArray(s.Action).some((a) => a.startsWith('secretsmanager:')));
      if (prefix === 'Api') {
        expect(secretStatements).toHaveLength(1);
        expect(secretStatements[0].Resource).toEqual({ Ref: secretId });
        expect(asArray(secretStatements[0].Action)).toContain('secretsmanager:GetSecretValue');
      } else {
        expect(secretStatements).toHaveLength(0);
      }
    }
  });

  it('grants nothing on * except what no resource scoping exists for', () => {
    const all = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => r.Properties!.PolicyDocument.Statement as Statement[]);
    // X-Ray's PutTraceSegments/PutTelemetryRecords have no resource-level permissions.
    const onStar = all.filter((s) => asArray(s.Resource).includes('*'));
    for (const s of onStar)
      expect(asArray(s.Action).sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });
});

describe('secrets', () => {
  it('generates the signing key in Secrets Manager and never writes a value into the template', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: Match.anyValue() }),
      SecretString: Match.absent(),
    });
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toMatch(/"SecretString"/);
    expect(json).not.toMatch(/"SIGNING_KEY"/);
    expect(json).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    // Any environment variable that looks like a credential must be a reference, not a literal.
    for (const r of Object.values(resources).filter((x) => x.Type === 'AWS::Lambda::Function')) {
      for (const [name, value] of Object.entries(r.Properties!.Environment.Variables as Record<string, unknown>)) {
        if (/KEY|SECRET|TOKEN|PASSWORD/i.test(name)) expect(typeof value, name).not.toBe('string');
      }
    }
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unsuppressed error or warning', () => {
    const format = (msgs: { id: string; entry: { data?: unknown } }[]) =>
      msgs.map((m) => `${m.id}: ${String(m.entry.data)}`);
    expect(format(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*')))).toEqual([]);
    expect(format(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*')))).toEqual([]);
  });

  it('has a written reason for every suppression', () => {
    const suppressions = Object.values(template.toJSON().Resources as Record<string, any>).flatMap(
      (r) => r.Metadata?.cdk_nag?.rules_to_suppress ?? [],
    ) as { id: string; reason: string }[];
    expect(suppressions.length).toBeGreaterThan(0);
    for (const s of suppressions) expect(s.reason.length, s.id).toBeGreaterThan(40);
  });
});
