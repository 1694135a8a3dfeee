// Per-address rate limits at the edge (infra/edge.ts): the WAF web ACL (CloudFront scope, its
// own us-east-1 stack) with rate-based rules per IP, and the CloudFront distribution in front of
// the HTTP API that uses it. Synthesized alone (no Lambda bundling), with the cdk-nag checks.
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { ApiEdge, EDGE_LIMITS, EdgeFirewallStack, ORIGIN_HEADER } from '../../infra/edge.js';
import { ORIGIN_HEADER as CHECKED_HEADER } from '../../functions/handlers/api.js';

/** Without CDK's built-in CloudFormation validation, as in test/infra/synth.ts (its warnings go unread). */
const newApp = () => new App({ builtinCloudFormationValidation: false });

function synth() {
  const app = newApp();
  const waf = new EdgeFirewallStack(app, 'Waf', { env: { region: 'us-east-1' } });
  const api = new Stack(app, 'Api');
  new ApiEdge(api, 'Edge', {
    apiUrl: 'https://abc123.execute-api.eu-west-1.amazonaws.com/',
    webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/x/1',
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  return {
    waf: Template.fromStack(waf),
    api: Template.fromStack(api),
    nag: [Annotations.fromStack(waf), Annotations.fromStack(api)],
  };
}

describe('edge: WAF rate-based rules on CloudFront in front of the HTTP API', () => {
  const t = synth();

  it('the web ACL is CLOUDFRONT-scoped and limits requests and sign-ups per IP, answering a typed 429', () => {
    t.waf.resourceCountIs('AWS::WAFv2::WebACL', 1);
    const acl = Object.values(t.waf.findResources('AWS::WAFv2::WebACL'))[0] as any;
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = Object.fromEntries(acl.Properties.Rules.map((r: any) => [r.Name, r]));
    expect(rules.RequestsPerIp.Statement.RateBasedStatement).toMatchObject({
      Limit: EDGE_LIMITS.requestsPerIpPer5Min,
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 300,
    });
    expect(rules.SignUpsPerIp.Statement.RateBasedStatement).toMatchObject({
      Limit: EDGE_LIMITS.signUpsPerIpPer5Min,
      AggregateKeyType: 'IP',
    });
    expect(rules.SignUpsPerIp.Statement.RateBasedStatement.ScopeDownStatement.ByteMatchStatement.SearchString).toBe(
      'signUp',
    );
    for (const r of [rules.RequestsPerIp, rules.SignUpsPerIp])
      expect(r.Action.Block.CustomResponse.ResponseCode).toBe(429);
    expect(JSON.parse(acl.Properties.CustomResponseBodies.rateLimited.Content).errors[0].extensions.code).toBe(
      'RATE_LIMITED',
    );
    expect(rules.AmazonIpReputationList.Statement.ManagedRuleGroupStatement.Name).toBe(
      'AWSManagedRulesAmazonIpReputationList',
    );
  });

  it('the distribution forwards everything to the API uncached, HTTPS only, with the web ACL', () => {
    t.api.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        WebACLId: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/x/1',
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'https-only',
          AllowedMethods: Match.arrayWith(['GET', 'POST']),
        }),
        Origins: [Match.objectLike({ CustomOriginConfig: Match.objectLike({ OriginProtocolPolicy: 'https-only' }) })],
      }),
    });
  });

  it(`the distribution adds the ${ORIGIN_HEADER} header, its value the generated secret (a deploy-time reference, never a literal)`, () => {
    const dist = Object.values(t.api.findResources('AWS::CloudFront::Distribution'))[0] as any;
    const headers = dist.Properties.DistributionConfig.Origins[0].OriginCustomHeaders;
    expect(headers).toHaveLength(1);
    expect(headers[0].HeaderName).toBe(ORIGIN_HEADER);
    expect(ORIGIN_HEADER.toLowerCase()).toBe(CHECKED_HEADER); // the header the API function checks
    const value = JSON.stringify(headers[0].HeaderValue);
    expect(value).toMatch(/resolve:secretsmanager:/);
    const [secretId] = Object.keys(t.api.findResources('AWS::SecretsManager::Secret'));
    expect(value).toContain(secretId);
    expect(
      (Object.values(t.api.findResources('AWS::SecretsManager::Secret'))[0] as any).Properties.GenerateSecretString
        .PasswordLength,
    ).toBe(48);
  });

  it('the API function gets the secret ARN and may read it (and nothing else of the edge)', () => {
    const app = newApp();
    const api = new Stack(app, 'Api');
    const edge = new ApiEdge(api, 'Edge', {
      apiUrl: 'https://abc123.execute-api.eu-west-1.amazonaws.com/',
      webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/x/1',
    });
    const fn = new lambda.Function(api, 'ApiFn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => ({})'),
    });
    edge.grantOriginCheck(fn);
    const tpl = Template.fromStack(api);
    const secretRef = { Ref: Object.keys(tpl.findResources('AWS::SecretsManager::Secret'))[0] };
    tpl.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { ORIGIN_SECRET_ARN: secretRef } },
    });
    tpl.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          // Exactly the one action the origin check sends (least privilege: no DescribeSecret).
          Match.objectLike({ Action: 'secretsmanager:GetSecretValue', Resource: secretRef }),
        ]),
      },
    });
  });

  it('cdk-nag AwsSolutions: no unsuppressed error', () => {
    for (const a of t.nag) expect(a.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });
});
