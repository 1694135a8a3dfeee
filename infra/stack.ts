import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as iam from 'aws-cdk-lib/aws-iam';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { CORS } from '../functions/api/http/cors.js';
import { tableDefinition, TTL_ATTRIBUTE } from '../functions/store/dynamo/table.js';
import { API_THROTTLE, NOTICE_MAX_CONCURRENCY, SWEEP_RESERVED_CONCURRENCY, TABLE_MAX_UNITS } from './limits.js';
import { ApiGatewayAccountRole } from './apigw-account.js';
import { grantQueueSend, grantSecretValue, grantTableAccess } from './data-access.js';
import { ServiceFunction } from './function.js';
import { Observability } from './observability.js';
import { Push } from './push.js';
import { ApiEdge } from './edge.js';

type TableDefinition = ReturnType<typeof tableDefinition>;
type KeySchema = readonly { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[];

function keyAttribute(def: TableDefinition, schema: KeySchema, keyType: 'HASH' | 'RANGE'): dynamodb.Attribute {
  const name = schema.find((k) => k.KeyType === keyType)?.AttributeName;
  if (!name) throw new Error(`the store's table definition has no ${keyType} key`);
  const type = def.AttributeDefinitions.find((a) => a.AttributeName === name)?.AttributeType as string | undefined;
  const types: Record<string, dynamodb.AttributeType> = {
    S: dynamodb.AttributeType.STRING,
    N: dynamodb.AttributeType.NUMBER,
    B: dynamodb.AttributeType.BINARY,
  };
  if (!type || !types[type]) throw new Error(`no attribute type for key ${name}`);
  return { name, type: types[type] };
}

function projectionType(p: string): dynamodb.ProjectionType {
  const types: Record<string, dynamodb.ProjectionType> = {
    KEYS_ONLY: dynamodb.ProjectionType.KEYS_ONLY,
    ALL: dynamodb.ProjectionType.ALL,
  };
  const t = types[p];
  if (!t) throw new Error(`unsupported GSI projection ${p}`);
  return t;
}

export interface LibertaliaStackProps extends StackProps {
  /** Minutes between two runs of the sweep (deadlines, unfinished advances). Default 5. */
  sweepIntervalMinutes?: number;
  /** HTTP API stage throttling: steady requests per second. Default 1,000 (infra/limits.ts: 1,000 live games). */
  apiRateLimit?: number;
  /** HTTP API stage throttling: burst. Default 2,000. */
  apiBurstLimit?: number;
  /** The sweep's reserved concurrency (infra/limits.ts). Default 0 (none: a new account's quota of 10 cannot reserve any). */
  sweepReservedConcurrency?: number;
  /** Most notice worker instances at once (SQS event source maximum concurrency, 2 or more). Default infra/limits.ts NOTICE_MAX_CONCURRENCY. */
  noticeMaxConcurrency?: number;
  /**
   * The table the functions use, by name, instead of the stack's own (which stays, retained):
   * the restore drill points a stack at a table restored from a backup (docs/aws.md).
   */
  tableName?: string;
  /** On-demand caps of the table, units per second. Default infra/limits.ts TABLE_MAX_UNITS; 0: no cap. */
  tableMaxReadUnits?: number;
  tableMaxWriteUnits?: number;
  /** Retention of every log group. Default one month. */
  logRetention?: logs.RetentionDays;
  /**
   * Prefix of the Cognito domain (`<prefix>.auth.<region>.amazoncognito.com`, unique per region).
   * Default `<stack name in lower case>-<account>`, so a second stack (dev beside prod) never collides.
   */
  authDomainPrefix?: string;
  /** Where the web app receives its authorization code (and returns after sign-out). Default the local server. */
  webCallbackUrls?: string[];
  /** Integrator sites to register as confidential app clients (client credentials). Default none (add them later, see docs/accounts.md). */
  integratorClients?: string[];
  /** An SES-verified sender: enables sign-in with a one-time code by e-mail (Cognito requires SES for it). */
  sesFromEmail?: string;
  /**
   * Deletion protection, point-in-time recovery and RETAIN on the table. Default true; false only
   * for throw-away dev stacks (`-c dataProtection=false`): the table then goes with the stack.
   */
  dataProtection?: boolean;
  /** Sweep backlog (due decisions + webhook retries in one run) that alarms. Default 500. */
  sweepBacklogAlarm?: number;
  /** Push WebSocket API: client messages per second over all connections, and burst. */
  pushRateLimit?: number;
  pushBurstLimit?: number;
  /**
   * The WAF web ACL of EdgeFirewallStack (us-east-1): with it, a CloudFront distribution in front
   * of the API applies the per-address rate limits (infra/edge.ts). Context: `-c webAclArn=...`.
   */
  webAclArn?: string;
}

/** The resource server's identifier and scopes: the strings the API checks (functions/api/accounts/auth.ts SCOPES). */
export const RESOURCE_SERVER = 'libertalia';
export const SCOPE_NAMES = { play: 'play', createGames: 'games.create', actForUsers: 'users.act' } as const;

/**
 * The whole service in one environment-agnostic stack (no lookups, so `cdk synth` never needs an
 * AWS account): the single DynamoDB table, the API Lambda behind an HTTP API, the scheduled sweep
 * Lambda and the signing key secret.
 *
 * The advance needs no stream: the request that stores the last secret choice (or the last
 * awaited answer) runs the engine and appends a commit item with a conditional write, so it
 * happens exactly once even when Lambda retries or two requests race; the sweep finishes
 * whatever a crashed invocation left undone. Webhook notices go through the notice queue (SQS,
 * a worker Lambda, a dead-letter queue with an alarm), never on the move's path (docs/storage.md).
 */
export class LibertaliaStack extends Stack {
  /** The stack's own table (retained); the functions use `dataTable`. */
  readonly table: dynamodb.Table;
  /** The table the functions read and write: the stack's own, or the one named by the `tableName` prop. */
  readonly dataTable: dynamodb.ITable;
  readonly apiGatewayAccount: ApiGatewayAccountRole;
  readonly api: apigw.HttpApi;
  readonly apiFunction: ServiceFunction;
  readonly sweepFunction: ServiceFunction;
  readonly signingKey: secretsmanager.Secret;
  readonly userPool: cognito.UserPool;
  readonly webClient: cognito.UserPoolClient;
  readonly resourceServer: cognito.UserPoolResourceServer;
  /** `https://cognito-idp.<region>.amazonaws.com/<pool id>`: the `iss` of the pool's tokens. */
  readonly authIssuer: string;
  readonly api5xxAlarm: cloudwatch.Alarm;
  readonly observability: Observability;
  readonly push: Push;
  readonly noticeQueue: sqs.Queue;
  readonly noticeDeadLetters: sqs.Queue;
  readonly noticeFunction: ServiceFunction;
  readonly noticeDeadLetterAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: LibertaliaStackProps = {}) {
    super(scope, id, props);
    const logRetention = props.logRetention ?? logs.RetentionDays.ONE_MONTH;
    const sweepMinutes = props.sweepIntervalMinutes ?? 5;
    const dataProtection = props.dataProtection ?? true;
    const sweepReserved = props.sweepReservedConcurrency ?? SWEEP_RESERVED_CONCURRENCY;
    const domainPrefix = props.authDomainPrefix ?? defaultDomainPrefix(this.stackName, this.account);

    // ---- Storage: the single table of functions/store ---------------------------------------
    // Keys and indexes come from the store's own `tableDefinition` (the one the local server and
    // the tests create in dynalite), so the deployed table cannot drift from the code using it.
    const def = tableDefinition('unused');
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: keyAttribute(def, def.KeySchema, 'HASH'),
      sortKey: keyAttribute(def, def.KeySchema, 'RANGE'),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // Backups and restore: see docs/aws.md (restore drill).
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: dataProtection },
      deletionProtection: dataProtection,
      // Epoch seconds on items that expire: request claims and deliveries (7 days), push
      // subscriptions (2 h 15 min), finished games' commit items (90 days: retention.ts).
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Caps on on-demand throughput (infra/limits.ts): a runaway is throttled (alarm), not billed without bound.
      ...((props.tableMaxReadUnits ?? TABLE_MAX_UNITS.read) > 0
        ? { maxReadRequestUnits: props.tableMaxReadUnits ?? TABLE_MAX_UNITS.read }
        : {}),
      ...((props.tableMaxWriteUnits ?? TABLE_MAX_UNITS.write) > 0
        ? { maxWriteRequestUnits: props.tableMaxWriteUnits ?? TABLE_MAX_UNITS.write }
        : {}),
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: dataProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // The restore drill (docs/aws.md): `-c tableName=<restored table>` points every function (and
    // its grants, and the table alarms) at a table restored from a backup; the stack's own table
    // stays as it is (retained), so going back is removing the setting.
    this.dataTable = props.tableName ? dynamodb.Table.fromTableName(this, 'DataTable', props.tableName) : this.table;
    // GSI1: player -> games (myGames); GSI2: sparse, games by status (open lobbies, active games
    // for the sweep).
    for (const gsi of def.GlobalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.IndexName,
        partitionKey: keyAttribute(def, gsi.KeySchema, 'HASH'),
        sortKey: keyAttribute(def, gsi.KeySchema, 'RANGE'),
        projectionType: projectionType(gsi.Projection.ProjectionType),
      });
    }

    // ---- The service's own signing key (guest and site-user sessions) -----------------------
    // Generated by Secrets Manager, never in code or template. Retained: deleting it would sign
    // every guest out. Rotation: a new AWSCURRENT version (docs/accounts.md, "Key rotation"); the API keeps
    // accepting AWSPREVIOUS, and warm containers re-read both every 5 minutes.
    this.signingKey = new secretsmanager.Secret(this, 'SigningKey', {
      description: 'Libertalia Online: HS256 key (kid = hash of the value) that signs guest and site-user sessions',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // ---- Accounts: a Cognito user pool (e-mail sign-up and sign-in, passkeys) ----------------
    this.userPool = new cognito.UserPool(this, 'Users', {
      userPoolName: `${this.stackName}-players`,
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      // Choice-based sign-in: password, passkey, and (with SES) a one-time code by e-mail.
      signInPolicy: {
        allowedFirstAuthFactors: { password: true, passkey: true, emailOtp: props.sesFromEmail !== undefined },
      },
      passkeyRelyingPartyId: `${domainPrefix}.auth.${this.region}.amazoncognito.com`,
      passkeyUserVerification: cognito.PasskeyUserVerification.PREFERRED,
      passwordPolicy: {
        minLength: 12,
        requireDigits: true,
        requireLowercase: true,
        requireUppercase: true,
        requireSymbols: true,
      },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true, email: false },
      ...(props.sesFromEmail
        ? { email: cognito.UserPoolEmail.withSES({ fromEmail: props.sesFromEmail, sesRegion: this.region }) }
        : {}),
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    const scopes = {
      play: new cognito.ResourceServerScope({
        scopeName: SCOPE_NAMES.play,
        scopeDescription: 'Play as the signed-in player',
      }),
      createGames: new cognito.ResourceServerScope({
        scopeName: SCOPE_NAMES.createGames,
        scopeDescription: 'Integrators: create games for their users',
      }),
      actForUsers: new cognito.ResourceServerScope({
        scopeName: SCOPE_NAMES.actForUsers,
        scopeDescription: 'Integrators: act for their own users (actAs)',
      }),
    };
    this.resourceServer = this.userPool.addResourceServer('Api', {
      identifier: RESOURCE_SERVER,
      userPoolResourceServerName: 'Libertalia Online API',
      scopes: Object.values(scopes),
    });
    const callbackUrls = props.webCallbackUrls ?? ['http://localhost:4000/'];
    // The web app: a public client (no secret), authorization code + PKCE only.
    this.webClient = this.userPool.addClient('WebClient', {
      userPoolClientName: 'libertalia-web',
      generateSecret: false,
      authFlows: { user: true, userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [
          cognito.OAuthScope.OPENID,
          cognito.OAuthScope.EMAIL,
          cognito.OAuthScope.resourceServer(this.resourceServer, scopes.play),
        ],
        callbackUrls,
        logoutUrls: callbackUrls,
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(60),
    });
    new cognito.CfnManagedLoginBranding(this, 'LoginBranding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.webClient.userPoolClientId,
      useCognitoProvidedValues: true,
    });
    // Integrator sites: confidential clients, client credentials, the integrator scopes only.
    for (const name of props.integratorClients ?? []) {
      this.userPool.addClient(`Integrator${name.replace(/[^A-Za-z0-9]/g, '')}`, {
        userPoolClientName: `site-${name}`,
        generateSecret: true,
        authFlows: {},
        oAuth: {
          flows: { clientCredentials: true },
          scopes: [
            cognito.OAuthScope.resourceServer(this.resourceServer, scopes.createGames),
            cognito.OAuthScope.resourceServer(this.resourceServer, scopes.actForUsers),
          ],
        },
        accessTokenValidity: Duration.hours(1),
        enableTokenRevocation: true,
      });
    }
    this.authIssuer = `https://cognito-idp.${this.region}.amazonaws.com/${this.userPool.userPoolId}`;
    // Trusted issuers: the pool (its JWKS at <issuer>/.well-known/jwks.json). Cognito access
    // tokens carry no `aud`: the API requires the resource server's scopes instead. The same
    // value for every function that checks tokens (the API and push).
    const authIssuers = this.toJsonString([{ issuer: this.authIssuer }]);

    // ---- Notice queue: what commits must tell, delivered off the move's path ---------------
    // A commit records its notices in its own item and hands them to this queue before it
    // writes its snapshot; the worker records webhook deliveries and attempts them, and puts a
    // failed attempt back with a delay (backoff). A message whose handling keeps failing (the
    // store is down, say) goes to the dead-letter queue after a few receives; the alarm says so.
    this.noticeDeadLetters = new sqs.Queue(this, 'NoticeDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const workerTimeout = Duration.seconds(30);
    this.noticeQueue = new sqs.Queue(this, 'Notices', {
      // AWS's advice for a Lambda event source: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(workerTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.noticeDeadLetters, maxReceiveCount: 5 },
    });
    this.noticeDeadLetterAlarm = new cloudwatch.Alarm(this, 'NoticeDeadLetterAlarm', {
      alarmDescription: 'Libertalia Online: notice messages failed repeatedly and are in the dead-letter queue',
      metric: this.noticeDeadLetters.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // ---- API Lambda ------------------------------------------------------------------------
    this.apiFunction = new ServiceFunction(this, 'Api', {
      entry: 'functions/handlers/api.ts',
      description: 'Libertalia Online GraphQL and REST API',
      // Apollo + the engine initialise and run noticeably faster with more (proportional) CPU.
      memorySize: 1024,
      // API Gateway HTTP APIs give up after 30 s; a request normally takes milliseconds, the
      // budget covers a few conditional-write retries under contention.
      timeout: Duration.seconds(10),
      environment: {
        TABLE_NAME: this.dataTable.tableName,
        SIGNING_KEY_SECRET_ARN: this.signingKey.secretArn,
        AUTH_ISSUERS: authIssuers,
        WEB_CLIENT: this.toJsonString({
          issuer: this.authIssuer,
          clientId: this.webClient.userPoolClientId,
          scope: `openid email ${RESOURCE_SERVER}/${SCOPE_NAMES.play}`,
        }),
        NOTICE_QUEUE_URL: this.noticeQueue.queueUrl,
        // Per-client site limits (`-c siteRateLimits='{"<clientId>":{"read":{"perSecond":500,"burst":1500}}}'`, docs/security.md).
        ...siteRateLimits(this.node.tryGetContext('siteRateLimits')),
      },
      logRetention,
    });
    const indexNames = def.GlobalSecondaryIndexes.map((g) => g.IndexName);
    grantTableAccess(this.apiFunction.fn, this.dataTable, indexNames);
    grantSecretValue(this.apiFunction.fn, this.signingKey);
    grantQueueSend(this.apiFunction.fn, this.noticeQueue);

    // ---- Sweep Lambda (deadlines, advances left undone by a crashed invocation) --------------
    this.sweepFunction = new ServiceFunction(this, 'Sweep', {
      entry: 'functions/handlers/sweep.ts',
      description: 'Libertalia Online scheduled sweep',
      memorySize: 512,
      timeout: Duration.seconds(60),
      // None reserved by default: a new account cannot (infra/limits.ts SWEEP_RESERVED_CONCURRENCY).
      ...(sweepReserved > 0 ? { reservedConcurrentExecutions: sweepReserved } : {}),
      // No signing key: the sweep never signs or verifies tokens. The interval tells it which
      // slice of old active games to visit (functions/api/ops/sweep.ts inSlice).
      environment: {
        TABLE_NAME: this.dataTable.tableName,
        NOTICE_QUEUE_URL: this.noticeQueue.queueUrl,
        SWEEP_INTERVAL_MINUTES: String(sweepMinutes),
      },
      logRetention,
    });
    grantTableAccess(this.sweepFunction.fn, this.dataTable, indexNames);
    // The sweep hands on the notices of commits whose writer stopped before its snapshot.
    grantQueueSend(this.sweepFunction.fn, this.noticeQueue);

    // ---- Notice worker Lambda (SQS consumer) --------------------------------------------------
    this.noticeFunction = new ServiceFunction(this, 'NoticeWorker', {
      entry: 'functions/handlers/notices.ts',
      description: 'Libertalia Online notice worker (webhook deliveries)',
      memorySize: 256,
      // Each webhook attempt is bounded by a short timeout; a batch runs its messages at once.
      timeout: workerTimeout,
      // No signing key: the worker never signs or verifies tokens.
      environment: { TABLE_NAME: this.dataTable.tableName, NOTICE_QUEUE_URL: this.noticeQueue.queueUrl },
      logRetention,
    });
    // Reads webhooks and deliveries, writes deliveries: never the secret.
    grantTableAccess(this.noticeFunction.fn, this.dataTable, indexNames);
    // Receives and deletes (the event source's grant) and sends its own delayed retries.
    grantQueueSend(this.noticeFunction.fn, this.noticeQueue);
    // The event source mapping, with only the actions Lambda's poller sends with this role
    // (SqsEventSource's grant adds sqs:GetQueueUrl, which nothing sends: test/infra/bundles.test.ts).
    iam.Grant.addToPrincipal({
      grantee: this.noticeFunction.fn,
      actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueAttributes'],
      resourceArns: [this.noticeQueue.queueArn],
    });
    const noticeSource = this.noticeFunction.fn.addEventSourceMapping('NoticeQueueSource', {
      eventSourceArn: this.noticeQueue.queueArn,
      batchSize: 10,
      reportBatchItemFailures: true,
      maxBatchingWindow: Duration.seconds(1),
      // A burst of notices never takes a small account's concurrency from the API (infra/limits.ts).
      maxConcurrency: Math.max(2, props.noticeMaxConcurrency ?? NOTICE_MAX_CONCURRENCY),
    });
    noticeSource.node.addDependency(this.noticeFunction.role);

    const sweepRule = new events.Rule(this, 'SweepSchedule', {
      description: `Runs the Libertalia sweep every ${sweepMinutes} minutes`,
      schedule: events.Schedule.rate(Duration.minutes(sweepMinutes)),
    });
    sweepRule.addTarget(
      new targets.LambdaFunction(this.sweepFunction.fn, {
        // The next scheduled run covers a lost one; do not pile retries onto it.
        retryAttempts: 2,
        maxEventAge: Duration.minutes(sweepMinutes),
      }),
    );

    // ---- The account's API Gateway logging role (infra/apigw-account.ts) ---------------------
    this.apiGatewayAccount = new ApiGatewayAccountRole(this, 'ApiGatewayAccount');

    // ---- HTTP API ---------------------------------------------------------------------------
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.api = new apigw.HttpApi(this, 'HttpApi', {
      description:
        'Libertalia Online: GraphQL at /graphql, REST at /health, /games/{id}/events and /games/{id}/scenario',
      createDefaultStage: false,
      // The same policy as the local server's (functions/api/http/cors.ts).
      corsPreflight: {
        allowOrigins: [...CORS.allowOrigins],
        allowMethods: CORS.allowMethods.map((m) => apigw.CorsHttpMethod[m]),
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
    const stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // The API's load limit. Not reserved concurrency: a new account (concurrency quota 10) cannot
      // reserve any, and the deploy would fail there.
      throttle: {
        rateLimit: props.apiRateLimit ?? API_THROTTLE.rateLimit,
        burstLimit: props.apiBurstLimit ?? API_THROTTLE.burstLimit,
      },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        // JSON, with HTTP API variables only (the default format is the REST APIs' CLF).
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            httpMethod: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            // The Lambda invocation's request id: joins this line to the function's log lines
            // (`function_request_id`), which carry this line's requestId as `apiRequestId`.
            integrationRequestId: '$context.integration.requestId',
            integrationStatus: '$context.integration.status',
            integrationLatency: '$context.integration.latency',
          }),
        ),
      },
    });
    this.apiGatewayAccount.before(stage);
    const integration = new HttpLambdaIntegration('ApiIntegration', this.apiFunction.fn, {
      payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
    });
    this.api.addRoutes({ path: '/graphql', methods: [apigw.HttpMethod.GET, apigw.HttpMethod.POST], integration });
    this.api.addRoutes({ path: '/health', methods: [apigw.HttpMethod.GET], integration });
    this.api.addRoutes({ path: '/games/{id}/events', methods: [apigw.HttpMethod.GET], integration });
    this.api.addRoutes({ path: '/games/{id}/scenario', methods: [apigw.HttpMethod.GET], integration });
    // The reminders' links (a GET shows a button, the POST acts: RFC 8058 one-click unsubscribe).
    for (const path of ['/unsubscribe', '/reminders/confirm'])
      this.api.addRoutes({ path, methods: [apigw.HttpMethod.GET, apigw.HttpMethod.POST], integration });

    this.api5xxAlarm = new cloudwatch.Alarm(this, 'Api5xxAlarm', {
      alarmDescription: 'Libertalia Online HTTP API answered 5xx',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName: '5xx',
        dimensionsMap: { ApiId: this.api.apiId, Stage: '$default' },
        period: Duration.minutes(5),
        statistic: 'Sum',
      }),
      threshold: 5,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    // ---- Push: WebSocket API, "game X is at version V" (infra/push.ts) ------------------------
    this.push = new Push(this, 'Push', {
      table: this.dataTable,
      indexNames,
      signingKey: this.signingKey,
      authIssuers,
      logRetention,
      apiGatewayAccount: this.apiGatewayAccount,
      rateLimit: props.pushRateLimit ?? 100,
      burstLimit: props.pushBurstLimit ?? 200,
    });
    // The API only closes connections (signOut); the sweep posts nothing: its commits hand their
    // versions to the notice queue (functions/api/notify/fanout.ts, queuedPusher) and the worker posts
    // them, so no move waits for a subscriber.
    this.push.allowFanOut(this.apiFunction, ['DELETE']);
    this.push.allowFanOut(this.noticeFunction, ['POST']);

    // ---- Alarms to an SNS topic (e-mail: stack parameter AlarmEmail), dashboard ---------------
    this.observability = new Observability(this, 'Observability', {
      table: this.dataTable,
      api: this.api,
      apiFunction: this.apiFunction,
      sweepFunction: this.sweepFunction,
      sweepBacklogThreshold: props.sweepBacklogAlarm ?? 500,
    });
    // ---- Edge: CloudFront + WAF per-address rate limits (when the web ACL is given) -----------
    const edge = props.webAclArn ? new ApiEdge(this, 'Edge', { apiUrl: stage.url, webAclArn: props.webAclArn }) : null;
    edge?.grantOriginCheck(this.apiFunction.fn);

    // ---- E-mail turn reminders through SES (when a sender is set) -----------------------------
    // The sweep sends (ses:SendEmail on the sender's identities, nothing else); the API only
    // stores settings and follows the links, so it gets the addresses but no SES action.
    if (props.sesFromEmail) {
      const apiUrl = edge ? `https://${edge.distribution.distributionDomainName}/` : stage.url;
      const mailEnv = { MAIL_FROM: props.sesFromEmail, MAIL_API_URL: apiUrl, MAIL_WEB_URL: callbackUrls[0] };
      for (const [k, v] of Object.entries(mailEnv)) {
        this.sweepFunction.fn.addEnvironment(k, v);
        this.apiFunction.fn.addEnvironment(k, v);
      }
      const domain = props.sesFromEmail.slice(props.sesFromEmail.lastIndexOf('@') + 1);
      this.sweepFunction.fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [props.sesFromEmail, domain].map(
            (identity) => `arn:${this.partition}:ses:${this.region}:${this.account}:identity/${identity}`,
          ),
        }),
      );
    }

    // ---- Outputs ----------------------------------------------------------------------------
    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API (POST {ApiUrl}graphql)' });
    new CfnOutput(this, 'GraphqlUrl', { value: `${stage.url}graphql`, description: 'GraphQL endpoint' });
    new CfnOutput(this, 'TableName', { value: this.dataTable.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', { value: this.signingKey.secretArn });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'WebClientId', {
      value: this.webClient.userPoolClientId,
      description: "The web app's public client (PKCE, no secret)",
    });
    new CfnOutput(this, 'AuthIssuer', { value: this.authIssuer });
    new CfnOutput(this, 'AuthDomain', {
      value: domain.baseUrl(),
      description: 'Managed login: /oauth2/authorize, /oauth2/token',
    });
    new CfnOutput(this, 'PushUrl', {
      value: this.push.stage.url,
      description: 'WebSocket URL of the push API (wss://...?token=<bearer token>)',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.observability.topic.topicArn,
      description: 'SNS topic of every alarm (subscribe more endpoints here)',
    });
    // After a deploy, `aws cloudwatch set-alarm-state --alarm-name <this> --state-value ALARM ...`
    // sends a test alarm through the topic (docs/aws.md, "What to check afterwards").
    new CfnOutput(this, 'TestAlarmName', {
      value: this.noticeDeadLetterAlarm.alarmName,
      description: 'An alarm to set to ALARM by hand: the test that alarms reach someone',
    });
    new CfnOutput(this, 'DashboardName', { value: this.observability.dashboard.dashboardName });

    this.addNagSuppressions();
  }

  /** cdk-nag AwsSolutions: every finding we accept, with the reason. */
  private addNagSuppressions(): void {
    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional (TOTP) rather than required: players sign in with passkeys (phishing-resistant on their own) ' +
          'or a strong password; requiring a second factor for a board game would turn most players away.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'Essentials tier on purpose: passkeys and choice-based sign-in need Essentials; threat protection (Plus) ' +
          'costs more per monthly active user than a hobby game server earns. Switch featurePlan to PLUS for a paid launch.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(this.signingKey, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by hand with one command (put-secret-value: the old value becomes AWSPREVIOUS, still accepted; ' +
          'warm containers re-read both within 5 minutes; docs/accounts.md: Key rotation). The key only signs guest and ' +
          "site-user sessions (1 h access, 60-day refresh); accounts are Cognito's, whose keys AWS rotates.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      this.api,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'Authorization is done by the application: Cognito access tokens (JWKS, issuer, scopes, expiry) and the ' +
            "service's own guest tokens are verified in the API Lambda. signUp, openGames, spectator views and /health " +
            'must stay reachable without a token, so no API Gateway authorizer.',
        },
      ],
      true,
    );
  }
}

/**
 * The Cognito domain prefix of a stack: its name in lower case and the account, so two stacks of
 * one account (dev beside prod) never collide. Cognito allows lower-case letters, digits and
 * hyphens, at most 63 characters, and no `aws`, `amazon` or `cognito` in it.
 */
export function defaultDomainPrefix(stackName: string, account: string): string {
  const name = stackName
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/aws|amazon|cognito/g, 'x')
    .slice(0, 50)
    .replace(/^-+|-+$/g, '');
  return `${name || 'libertalia'}-${account}`;
}

/** The SITE_RATE_LIMITS variable from the `siteRateLimits` context value (a JSON string or object); none when unset. */
function siteRateLimits(value: unknown): Record<string, string> {
  if (value === undefined || value === null || value === '') return {};
  return { SITE_RATE_LIMITS: typeof value === 'string' ? value : JSON.stringify(value) };
}
