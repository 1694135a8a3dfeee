// Per-address rate limits at the edge. AWS WAF cannot attach to an API Gateway HTTP API, so the
// API gets a CloudFront distribution in front of it and the distribution a WAF web ACL with
// rate-based rules per client IP. A web ACL for CloudFront must live in us-east-1, whatever the
// API's region: it is its own small stack (EdgeFirewallStack), deployed once, and its ARN is
// given to the API stack (`-c webAclArn=...`), which then builds the distribution (ApiEdge).
// The per-player and per-client limits stay in the app (functions/api/http/ratelimit.ts).
import { CfnOutput, Duration, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { grantSecretValue } from './data-access.js';

/** The edge limits (requests per client IP in a 5-minute window; documented in docs/security.md). */
export const EDGE_LIMITS = {
  /** Every request to the API. */
  requestsPerIpPer5Min: 3000,
  /** Requests whose body mentions `signUp` (anonymous account creation). */
  signUpsPerIpPer5Min: 50,
};

const rateRule = (
  name: string,
  priority: number,
  limit: number,
  scopeDown?: wafv2.CfnWebACL.StatementProperty,
): wafv2.CfnWebACL.RuleProperty => ({
  name,
  priority,
  statement: {
    rateBasedStatement: {
      limit,
      aggregateKeyType: 'IP',
      evaluationWindowSec: 300,
      ...(scopeDown ? { scopeDownStatement: scopeDown } : {}),
    },
  },
  // The same answer as the app's limits: 429 with a typed JSON body and Retry-After.
  action: {
    block: {
      customResponse: {
        responseCode: 429,
        customResponseBodyKey: 'rateLimited',
        responseHeaders: [{ name: 'retry-after', value: '60' }],
      },
    },
  },
  visibilityConfig: { sampledRequestsEnabled: true, cloudWatchMetricsEnabled: true, metricName: name },
});

/** The web ACL (scope CLOUDFRONT): deploy this stack in us-east-1. */
export class EdgeFirewallStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    this.webAcl = new wafv2.CfnWebACL(this, 'ApiWebAcl', {
      description: 'Libertalia Online: per-address rate limits in front of the API',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      customResponseBodies: {
        rateLimited: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            errors: [
              {
                message: 'rate limit: too many requests from this address; retry in 60 s',
                extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 60 },
              },
            ],
          }),
        },
      },
      rules: [
        rateRule('RequestsPerIp', 0, EDGE_LIMITS.requestsPerIpPer5Min),
        rateRule('SignUpsPerIp', 1, EDGE_LIMITS.signUpsPerIpPer5Min, {
          byteMatchStatement: {
            fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
            positionalConstraint: 'CONTAINS',
            searchString: 'signUp',
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        }),
        {
          name: 'AmazonIpReputationList',
          priority: 2,
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
          },
          overrideAction: { none: {} },
          visibilityConfig: {
            sampledRequestsEnabled: true,
            cloudWatchMetricsEnabled: true,
            metricName: 'AmazonIpReputationList',
          },
        },
      ],
      visibilityConfig: {
        sampledRequestsEnabled: true,
        cloudWatchMetricsEnabled: true,
        metricName: 'LibertaliaApiWebAcl',
      },
    });
    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: 'Give it to the API stack: cdk deploy -c webAclArn=<this>',
    });
  }
}

export interface ApiEdgeProps {
  /** The HTTP API's endpoint URL (https://<id>.execute-api.<region>.amazonaws.com/). */
  apiUrl: string;
  /** The web ACL of EdgeFirewallStack (us-east-1). */
  webAclArn: string;
}

/**
 * The header the distribution adds to every request it forwards, with a secret value: the API
 * trusts CloudFront-Viewer-Address only on a request that carries it (functions/handlers/api.ts
 * callerAddress), since anyone can call the execute-api URL directly with any header. CloudFront
 * overwrites a viewer's header of the same name, so only the distribution can set it.
 */
export const ORIGIN_HEADER = 'X-Libertalia-Origin';

/** A CloudFront distribution in front of the HTTP API, guarded by the web ACL. Nothing cached. */
export class ApiEdge extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** The origin header's value: generated by Secrets Manager at deploy time, never in the repo. */
  readonly originSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    const host = Fn.select(2, Fn.split('/', props.apiUrl)); // https: / '' / host / ''
    this.originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: `Libertalia Online: the ${ORIGIN_HEADER} header CloudFront adds to requests to the API`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
    });
    NagSuppressions.addResourceSuppressions(this.originSecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by a redeploy (a new value must reach the distribution and the API together); it proves only that a request came through CloudFront.',
      },
    ]);
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Libertalia Online API behind AWS WAF (per-address rate limits)',
      webAclId: props.webAclArn,
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      defaultBehavior: {
        origin: new origins.HttpOrigin(host, {
          protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
          readTimeout: Duration.seconds(30),
          // A dynamic reference ({{resolve:secretsmanager:...}}): CloudFormation reads the value at deploy.
          customHeaders: { [ORIGIN_HEADER]: this.originSecret.secretValue.unsafeUnwrap() },
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        // Everything but Host (the origin is execute-api); the Authorization header included.
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    });
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: 'A public game API: players come from anywhere, no geo restriction.' },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution does have a WAF web ACL (webAclId, from EdgeFirewallStack in us-east-1); the rule cannot see an ARN passed in.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'No CloudFront access logs: the HTTP API stage keeps JSON access logs of every request that reaches it, and WAF samples blocked ones.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default *.cloudfront.net certificate; TLSv1.2_2021 applies only with a custom domain and certificate.',
      },
    ]);
    new CfnOutput(scope, 'EdgeUrl', {
      value: `https://${this.distribution.distributionDomainName}/`,
      description: 'The API through CloudFront and WAF: give clients this URL',
    });
  }

  /** What the API function needs to check the origin header: the secret's ARN and the right to read it. */
  grantOriginCheck(fn: lambda.Function): void {
    fn.addEnvironment('ORIGIN_SECRET_ARN', this.originSecret.secretArn);
    grantSecretValue(fn, this.originSecret);
  }
}
