// A stack that creates in an empty account and region, and a second one beside it: the account's
// API Gateway logging role, no reserved concurrency, the same trusted issuers for every function
// that checks tokens, alarm topics CloudWatch may publish to, and no name two stacks would share.
import { beforeAll, describe, expect, it } from 'vitest';
import { Aspects } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { APP_CONTEXT, CONTEXT_SETTINGS, propsFromContext } from '../../infra/context.js';
import { defaultDomainPrefix, LibertaliaStack } from '../../infra/stack.js';
import { newApp, synthStack } from './synth.js';

type Resource = { Type: string; Properties?: Record<string, any>; DependsOn?: string[] };
let resources: Record<string, Resource>;
const asArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  resources = synthStack().template.toJSON().Resources as Record<string, Resource>;
}, 120_000);

describe('a fresh account: API Gateway access logs', () => {
  it("sets the account's CloudWatch role in the stack, a role API Gateway assumes with the push-to-logs policy", () => {
    const accounts = ofType('AWS::ApiGateway::Account');
    expect(accounts).toHaveLength(1);
    const roleId = accounts[0][1].Properties!.CloudWatchRoleArn['Fn::GetAtt'][0];
    const role = resources[roleId];
    expect(role.Type).toBe('AWS::IAM::Role');
    expect(JSON.stringify(role.Properties!.AssumeRolePolicyDocument)).toContain('apigateway.amazonaws.com');
    expect(JSON.stringify(role.Properties!.ManagedPolicyArns)).toContain(
      'service-role/AmazonAPIGatewayPushToCloudWatchLogs',
    );
  });

  it('never deploys a stage with access logs before the account role is set', () => {
    const accountId = ofType('AWS::ApiGateway::Account')[0][0];
    const logged = [...ofType('AWS::ApiGatewayV2::Stage'), ...ofType('AWS::ApiGateway::Stage')].filter(
      ([, r]) => r.Properties!.AccessLogSettings,
    );
    expect(logged.length).toBe(2); // the HTTP API and the push WebSocket API
    for (const [id, stage] of logged) expect(asArray(stage.DependsOn), id).toContain(accountId);
  });
});

describe('a fresh account: concurrency', () => {
  it("reserves no concurrency by default (a new account's quota of 10 cannot reserve any)", () => {
    for (const [id, fn] of ofType('AWS::Lambda::Function'))
      expect(fn.Properties!.ReservedConcurrentExecutions, id).toBeUndefined();
  });
});

describe('every function that checks a token trusts the same issuers', () => {
  it("each function with the signing key (it verifies tokens) has AUTH_ISSUERS, the API's", () => {
    const verifying = ofType('AWS::Lambda::Function').filter(
      ([, fn]) => fn.Properties!.Environment.Variables.SIGNING_KEY_SECRET_ARN,
    );
    expect(verifying.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['ApiFunction', 'PushFunction']);
    const issuers = verifying.map(([, fn]) => JSON.stringify(fn.Properties!.Environment.Variables.AUTH_ISSUERS));
    expect(issuers[0]).toContain('cognito-idp.');
    for (const i of issuers) expect(i).toBe(issuers[0]);
  });
});

describe('alarm topics', () => {
  it('let CloudWatch alarms of this account publish, and deny only plain HTTP', () => {
    const topics = ofType('AWS::SNS::Topic');
    expect(topics.length).toBeGreaterThan(0);
    for (const [topicId] of topics) {
      const policies = ofType('AWS::SNS::TopicPolicy').filter(([, p]) =>
        p.Properties!.Topics.some((t: any) => t.Ref === topicId),
      );
      const statements = policies.flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as any[]);
      const allow = statements.filter(
        (s) =>
          s.Effect === 'Allow' &&
          s.Principal?.Service === 'cloudwatch.amazonaws.com' &&
          asArray(s.Action).includes('sns:Publish'),
      );
      expect(allow, topicId).toHaveLength(1);
      expect(allow[0].Condition.StringEquals['aws:SourceAccount']).toEqual({ Ref: 'AWS::AccountId' });
      for (const deny of statements.filter((s) => s.Effect === 'Deny'))
        expect(deny.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
    }
  });
});

describe('a second stack beside the first (dev beside prod)', () => {
  let prod: Template;
  let dev: Template;
  beforeAll(() => {
    const app = newApp();
    const a = new LibertaliaStack(app, 'LibertaliaOnline');
    const b = new LibertaliaStack(app, 'LibertaliaDev', { dataProtection: false });
    Aspects.of(app).add(new AwsSolutionsChecks());
    prod = Template.fromStack(a);
    dev = Template.fromStack(b);
  }, 120_000);

  /** Every literal physical name of a resource type (domain prefixes, pool names, dashboards). */
  const names = (t: Template, type: string, prop: string) =>
    Object.values(t.findResources(type)).map((r) => JSON.stringify(r.Properties[prop]));

  it('shares no Cognito domain prefix, user pool name or dashboard name', () => {
    for (const [type, prop] of [
      ['AWS::Cognito::UserPoolDomain', 'Domain'],
      ['AWS::Cognito::UserPool', 'UserPoolName'],
      ['AWS::CloudWatch::Dashboard', 'DashboardName'],
    ]) {
      const a = names(prod, type, prop);
      const b = names(dev, type, prop);
      expect(a.length, type).toBeGreaterThan(0);
      for (const n of a) expect(b, `${type} ${n}`).not.toContain(n);
    }
    expect(names(prod, 'AWS::Cognito::UserPoolDomain', 'Domain')[0]).toContain('libertaliaonline-');
  });

  it('derives a valid Cognito prefix from any stack name', () => {
    expect(defaultDomainPrefix('LibertaliaDev', '123456789012')).toBe('libertaliadev-123456789012');
    expect(defaultDomainPrefix('My_AWS.Stack', '1')).toBe('my-x-stack-1');
    expect(defaultDomainPrefix('x'.repeat(80), '123456789012').length).toBeLessThanOrEqual(63);
  });
});

describe('every deploy-time setting is a -c context value', () => {
  const given: Record<string, string> = {
    sweepIntervalMinutes: '10',
    dataProtection: 'false',
    webAclArn: 'arn:aws:wafv2:us-east-1:1:global/webacl/x/y',
    apiRateLimit: '2000',
    apiBurstLimit: '4000',
    sweepReservedConcurrency: '1',
    noticeMaxConcurrency: '3',
    tableMaxReadUnits: '0',
    tableMaxWriteUnits: '100',
    pushRateLimit: '50',
    pushBurstLimit: '60',
    sweepBacklogAlarm: '900',
    logRetentionDays: '90',
    authDomainPrefix: 'libertalia-dev',
    webCallbackUrls: 'https://play.example.com/, https://dev.example.com/',
    integratorClients: 'rival-site,club',
    sesFromEmail: 'noreply@example.com',
    tableName: 'LibertaliaOnline-Table-restored',
  };

  it('reads each one into the stack prop of the same name (logRetentionDays: logRetention)', () => {
    expect(Object.keys(given).sort()).toEqual(Object.keys(CONTEXT_SETTINGS).sort());
    expect(propsFromContext((n) => given[n])).toEqual({
      sweepIntervalMinutes: 10,
      dataProtection: false,
      webAclArn: given.webAclArn,
      apiRateLimit: 2000,
      apiBurstLimit: 4000,
      sweepReservedConcurrency: 1,
      noticeMaxConcurrency: 3,
      tableMaxReadUnits: 0,
      tableMaxWriteUnits: 100,
      pushRateLimit: 50,
      pushBurstLimit: 60,
      sweepBacklogAlarm: 900,
      logRetention: 90,
      authDomainPrefix: 'libertalia-dev',
      webCallbackUrls: ['https://play.example.com/', 'https://dev.example.com/'],
      integratorClients: ['rival-site', 'club'],
      sesFromEmail: 'noreply@example.com',
      tableName: 'LibertaliaOnline-Table-restored',
    });
    expect(propsFromContext(() => undefined)).toEqual({});
    expect(APP_CONTEXT).toEqual(['stackName', 'edgeFirewall']);
  });

  it('refuses a value it cannot use, naming the setting', () => {
    expect(() => propsFromContext((n) => (n === 'apiRateLimit' ? 'lots' : undefined))).toThrow(/-c apiRateLimit=lots/);
    expect(() => propsFromContext((n) => (n === 'dataProtection' ? 'no' : undefined))).toThrow(/true or false/);
    expect(() => propsFromContext((n) => (n === 'logRetentionDays' ? '31' : undefined))).toThrow(
      /-c logRetentionDays=31/,
    );
    expect(() => propsFromContext((n) => (n === 'sesFromEmail' ? ' ' : undefined))).toThrow(/empty/);
  });
});
