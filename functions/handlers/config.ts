/**
 * Lambda configuration, shared by the API and sweep handlers. Everything here happens at most once
 * per container (cold start): the DynamoDB document client, the signing key read from Secrets
 * Manager, and the app built by `functions/api/http/app.ts`.
 *
 * Environment:
 * - `TABLE_NAME` (required): the service table.
 * - `SIGNING_KEY_SECRET_ARN`: Secrets Manager secret holding the key that signs the service's own
 *   tokens (guests, site users; API only). Its AWSCURRENT version signs, AWSPREVIOUS still verifies
 *   (the grace period after a rotation); both are re-read every `SIGNING_KEY_REFRESH_SECONDS`
 *   (default 300) by a warm container.
 * - `SIGNING_KEY`: the key itself, used only when no secret ARN is set (tests, local runs).
 * - `AUTH_ISSUERS`: JSON array of trusted OpenID Providers, `[{ "issuer", "audience"?, "jwksUri"? }]`
 *   (the stack passes its Cognito user pool).
 * - `WEB_CLIENT`: JSON `{ "issuer", "clientId", "scope" }`, the web app's sign-in (Query.authConfig).
 * - `DYNAMODB_ENDPOINT`: a DynamoDB-compatible endpoint (tests against dynalite); unset on AWS.
 * - `PUSH_ENDPOINT`: the WebSocket API's management endpoint (push fan-out); unset: no push.
 * - `NOTICE_QUEUE_URL`: the SQS notice queue (API, sweep and notice worker); unset: in-process.
 * - `SITE_RATE_LIMITS`: JSON per-client overrides of the site buckets, `{ "<clientId>": { "read": { "perSecond", "burst" }, "write": {...} } }`.
 * - `OPERATION_ALLOWLIST`: operation ids (`npm run allowlist`); set: only those documents run.
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildApp } from '../api/http/app.js';
import { managementApiGateway } from '../push/gateway.js';
import type { PushGateway } from '../push/protocol.js';
import { tracer } from './observe.js';
import { sqsNoticeQueue } from './queue.js';
import type { IssuerConfig } from '../api/accounts/auth.js';
import { refreshingKeys } from '../api/accounts/keys.js';
import { allowlistFromEnv } from '../api/http/allowlist.js';
import { siteRatesFromEnv } from '../api/http/ratelimit.js';

export type App = ReturnType<typeof buildApp>;

let documentClient: DynamoDBDocumentClient | undefined;

/** The document client of this container (built once, reused by every invocation). */
export function getDocumentClient(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    // X-Ray subsegments for every DynamoDB call (no-op when tracing is off: tests, local).
    const base = tracer.captureAWSv3Client(new DynamoDBClient(endpoint ? { endpoint } : {}));
    documentClient = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

let secretsClient: SecretsManagerClient | undefined;

/** The signing keys, current first: the secret's AWSCURRENT and AWSPREVIOUS versions (or SIGNING_KEY). */
async function readSigningKeys(): Promise<string[]> {
  const arn = process.env.SIGNING_KEY_SECRET_ARN;
  if (arn) {
    const sm = (secretsClient ??= tracer.captureAWSv3Client(new SecretsManagerClient({})));
    const out = await sm.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new Error('the signing key secret has no string value');
    let previous: string | undefined;
    try {
      previous = (await sm.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: 'AWSPREVIOUS' }))).SecretString;
    } catch (e) {
      // No previous version before the first rotation (ResourceNotFoundException): nothing to accept.
      if ((e as { name?: string }).name !== 'ResourceNotFoundException') console.error('could not read the previous signing key', e);
    }
    return previous ? [out.SecretString, previous] : [out.SecretString];
  }
  const key = process.env.SIGNING_KEY;
  if (key) return [key];
  throw new Error('neither SIGNING_KEY_SECRET_ARN nor SIGNING_KEY is set');
}

/**
 * The edge's origin secret: the value of the ORIGIN_HEADER CloudFront adds to every request it
 * forwards (infra/edge.ts), read from Secrets Manager (`ORIGIN_SECRET_ARN`; `ORIGIN_SECRET` in
 * tests). Null without an edge: then no request's CloudFront-Viewer-Address is trusted.
 */
export async function readOriginSecret(): Promise<string | null> {
  const arn = process.env.ORIGIN_SECRET_ARN;
  if (arn) {
    const sm = (secretsClient ??= tracer.captureAWSv3Client(new SecretsManagerClient({})));
    const out = await sm.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new Error('the origin secret has no string value');
    return out.SecretString;
  }
  return process.env.ORIGIN_SECRET || null;
}

function jsonEnv<T>(name: string): T | undefined {
  const raw = process.env[name];
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    throw new Error(`${name} is not valid JSON`);
  }
}

export interface AppOptions {
  /**
   * Whether this function verifies or signs tokens. The sweep does not, so it gets no access to
   * the secret: it runs with a random key of its own that nobody knows (any token it could sign
   * would be rejected by the API, and it signs none).
   */
  needsSigningKey: boolean;
}

let pushGateway: PushGateway | undefined;

/**
 * The push gateway of this container: API Gateway's management API of the WebSocket API
 * (`PUSH_ENDPOINT`, https://<id>.execute-api.<region>.amazonaws.com/<stage>); none without it.
 */
export function getPushGateway(): PushGateway | undefined {
  const endpoint = process.env.PUSH_ENDPOINT;
  if (!endpoint) return undefined;
  pushGateway ??= managementApiGateway(endpoint, (c) => tracer.captureAWSv3Client(c));
  return pushGateway;
}

let appPromise: Promise<App> | undefined;

/**
 * The app of this container, built on first use. A failed build (a throttled Secrets Manager call,
 * say) is not cached: the next invocation tries again.
 */
export function getApp(options: AppOptions): Promise<App> {
  if (!appPromise) {
    appPromise = (async () => {
      const tableName = requireEnv('TABLE_NAME');
      const queueUrl = process.env.NOTICE_QUEUE_URL;
      // Without a queue URL (tests) notices go to the in-process worker.
      const notices = queueUrl ? { noticeQueue: sqsNoticeQueue(queueUrl) } : {};
      if (!options.needsSigningKey) return buildApp({ tableName, client: getDocumentClient(), signingKey: randomBytes(48).toString('base64url'), pushGateway: getPushGateway(), ...notices });
      const refreshMs = Number(process.env.SIGNING_KEY_REFRESH_SECONDS ?? 300) * 1000;
      const signingKeys = refreshingKeys(readSigningKeys, refreshMs);
      await signingKeys(); // fail this cold start (not cached) if the keys cannot be read
      return buildApp({
        tableName,
        client: getDocumentClient(),
        signingKeys,
        issuers: jsonEnv<IssuerConfig[]>('AUTH_ISSUERS') ?? [],
        pushGateway: getPushGateway(),
        webClient: jsonEnv<{ issuer: string; clientId: string; scope?: string }>('WEB_CLIENT'),
        operationAllowlist: allowlistFromEnv(),
        rateLimits: { sites: siteRatesFromEnv() },
        ...notices,
      });
    })();
    appPromise.catch(() => {
      appPromise = undefined;
    });
  }
  return appPromise;
}

/** For tests: forget the cached app and client (e.g. after changing the environment). */
export function resetForTests(): void {
  appPromise = undefined;
  documentClient = undefined;
  pushGateway = undefined;
  secretsClient = undefined;
}
