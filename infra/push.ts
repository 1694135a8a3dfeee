import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { ApiGatewayAccountRole } from './apigw-account.js';
import { grantSecretValue, grantTableAccess } from './data-access.js';
import { ServiceFunction } from './function.js';

export const PUSH_STAGE = 'live';

export interface PushProps {
  table: dynamodb.ITable;
  indexNames: readonly string[];
  signingKey: secretsmanager.ISecret;
  /** AUTH_ISSUERS of the functions that check tokens (JSON; the same as the API's). */
  authIssuers: string;
  /** The account's API Gateway logging role: the access-logged stage waits for it. */
  apiGatewayAccount: ApiGatewayAccountRole;
  logRetention: logs.RetentionDays;
  /** Messages per second (client -> API) over all connections, and burst. */
  rateLimit: number;
  burstLimit: number;
}

/**
 * Live updates on AWS (functions/push/protocol.ts): an API Gateway WebSocket API whose $connect
 * is guarded by a Lambda REQUEST authorizer (`?token=`, checked by the API's own token code; no
 * token: a spectator), the `subscribe`/`unsubscribe`/`ping` routes and $disconnect on the push
 * function; subscription items with TTL in the service table. Whoever commits a game (the API
 * and sweep functions) posts "game X is at version V" to the subscribed connections:
 * `allowFanOut` gives them the endpoint and the permission.
 */
export class Push extends Construct {
  readonly api: apigw.WebSocketApi;
  readonly stage: apigw.WebSocketStage;
  readonly fn: ServiceFunction;
  /** https://<id>.execute-api.<region>.amazonaws.com/live: the management API (PostToConnection). */
  readonly endpoint: string;

  constructor(scope: Construct, id: string, props: PushProps) {
    super(scope, id);

    this.api = new apigw.WebSocketApi(this, 'Api', {
      description: 'Libertalia Online push: "game X is at version V" to subscribed clients',
      routeSelectionExpression: '$request.body.action',
    });
    this.endpoint = `https://${this.api.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/${PUSH_STAGE}`;

    this.fn = new ServiceFunction(this, 'Push', {
      entry: 'functions/handlers/push.ts',
      description: 'Libertalia Online push: authorizer and WebSocket routes',
      memorySize: 512,
      timeout: Duration.seconds(10),
      environment: {
        TABLE_NAME: props.table.tableName,
        SIGNING_KEY_SECRET_ARN: props.signingKey.secretArn,
        // The same issuers as the API: a signed-in (Cognito) player's token opens push too.
        AUTH_ISSUERS: props.authIssuers,
        PUSH_ENDPOINT: this.endpoint,
      },
      logRetention: props.logRetention,
    });
    grantTableAccess(this.fn.fn, props.table, props.indexNames);
    grantSecretValue(this.fn.fn, props.signingKey);
    // Answers on the connection (subscribed, pong, errors) and closes one whose session ended.
    this.allowFanOut(this.fn, ['POST', 'DELETE']);

    const authorizer = new WebSocketLambdaAuthorizer('TokenAuthorizer', this.fn.fn, {
      // None: a connection without a token is a spectator (the handler decides, never cached).
      identitySource: [],
    });
    const integration = (name: string) => new WebSocketLambdaIntegration(name, this.fn.fn);
    this.api.addRoute('$connect', { integration: integration('Connect'), authorizer });
    this.api.addRoute('$disconnect', { integration: integration('Disconnect') });
    for (const action of ['subscribe', 'unsubscribe', 'ping'])
      this.api.addRoute(action, { integration: integration(action) });
    this.api.addRoute('$default', { integration: integration('Fallback') });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigw.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: PUSH_STAGE,
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit, burstLimit: props.burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            connectionId: '$context.connectionId',
            eventType: '$context.eventType',
            routeKey: '$context.routeKey',
            status: '$context.status',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            integrationRequestId: '$context.integration.requestId',
            authorizerError: '$context.authorizer.error',
          }),
        ),
      },
    });

    props.apiGatewayAccount.before(this.stage);

    NagSuppressions.addResourceSuppressions(
      this.api,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'Only $connect takes an authorizer on a WebSocket API (the Lambda authorizer checks the token there); the ' +
            'other routes run on the connection it admitted, and the handler checks each game subscription.',
        },
      ],
      true,
    );
  }

  /**
   * Lets `f` post to the connections (POST: PostToConnection) and/or close them (DELETE:
   * DeleteConnection, e.g. signOut closing the player's connections): PUSH_ENDPOINT and
   * execute-api:ManageConnections on just those methods.
   */
  allowFanOut(f: ServiceFunction, methods: readonly ('POST' | 'DELETE')[]): void {
    f.fn.addEnvironment('PUSH_ENDPOINT', this.endpoint);
    const connections = (method: string) =>
      Stack.of(this).formatArn({
        service: 'execute-api',
        resource: this.api.apiId,
        resourceName: `${PUSH_STAGE}/${method}/@connections/*`,
      });
    f.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['execute-api:ManageConnections'],
        resources: methods.map(connections),
      }),
    );
    NagSuppressions.addResourceSuppressions(
      f.role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'execute-api:ManageConnections on <push API>/live/{POST,DELETE}/@connections/*: connection ids are made per client at ' +
            'run time; the grant is only POST (PostToConnection) and DELETE (DeleteConnection, at sign-out) on this one API and stage.',
          appliesTo: [
            {
              regex:
                '/^Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<PushApi[A-Za-z0-9]+>/live/(POST|DELETE)/@connections/\\*$/',
            },
          ],
        },
      ],
      true,
    );
  }
}
