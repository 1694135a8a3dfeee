/**
 * Lambda configuration, shared by the API and sweep handlers. Everything here happens at most once
 * per container (cold start): the DynamoDB document client, the signing key read from Secrets
 * Manager, and the service built by `functions/api/http/core.ts` (no Apollo: only the API
 * handler adds it, so the other bundles do not carry it).
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
 * - `MAIL_FROM`, `MAIL_API_URL`, `MAIL_WEB_URL`: e-mail reminders (the SES sender, the API's and
 *   the web app's public addresses for links); unset: no e-mail (setReminders: MAIL_UNAVAILABLE).
 */
import { randomBytes } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildCore, type Core } from '../api/http/core.js';
import type { PushGateway } from '../push/protocol.js';
import type { Mailer, MailSetup, NoticeQueue } from '../api/services.js';
import type { IssuerConfig } from '../api/accounts/auth.js';
import { refreshingKeys } from '../api/accounts/keys.js';
import { siteRatesFromEnv } from '../api/http/ratelimit.js';

/** The service without GraphQL: what every function runs on (the API adds Apollo to it, handlers/api.ts). */
export type App = Core;

let documentClient: DynamoDBDocumentClient | undefined;

/** The document client of this container (built once, reused by every invocation). */
export function getDocumentClient(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    documentClient = DynamoDBDocumentClient.from(new DynamoDBClient(endpoint ? { endpoint } : {}), {
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
   * The signing keys, current first (secrets.ts, readSigningKeys), for the functions that verify or
   * sign tokens (API, push). Without them (sweep, notice worker) the function runs with a random key
   * of its own that nobody knows (any token it could sign would be rejected by the API, and it signs
   * none), has no access to the secret and no Secrets Manager client in its bundle.
   */
  signingKeys?: () => Promise<string[]>;
  /** Where push messages go (the notice worker, push, and the API for sign-out's closes: push-gateway.ts). */
  pushGateway?: PushGateway;
  /** The notice queue (queue.ts, SQS); none: notices go to an in-process worker. */
  noticeQueue?: NoticeQueue;
  /** The function that sends e-mail (the sweep: handlers/ses.ts) makes its Mailer for the sender. */
  mailer?: (from: string) => Mailer;
}

/** E-mail reminders from the environment (all three set), with the function's Mailer if it sends. */
function mailFromEnv(mailer?: (from: string) => Mailer): MailSetup | undefined {
  const [from, apiUrl, webUrl] = [process.env.MAIL_FROM, process.env.MAIL_API_URL, process.env.MAIL_WEB_URL];
  if (!from || !apiUrl || !webUrl) return undefined;
  return { apiUrl, webUrl, ...(mailer ? { mailer: mailer(from) } : {}) };
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
      // With a queue but no gateway (the sweep), commits still hand their versions to the queue for the worker's fan-out.
      const push = {
        pushGateway: options.pushGateway,
        noticeQueue: options.noticeQueue,
        pushHandOff: options.noticeQueue !== undefined,
        mail: mailFromEnv(options.mailer),
        // Webhooks to private addresses: only for the Lambda-like harness's local receiver
        // (test/infra); the stack never sets it (test/infra/lambda-harness.test.ts checks).
        ...(process.env.WEBHOOKS_ALLOW_PRIVATE_HOSTS === 'harness' ? { webhooks: { allowPrivateHosts: true } } : {}),
      };
      if (!options.signingKeys)
        return buildCore({
          tableName,
          client: getDocumentClient(),
          signingKey: randomBytes(48).toString('base64url'),
          ...push,
        });
      const refreshMs = Number(process.env.SIGNING_KEY_REFRESH_SECONDS ?? 300) * 1000;
      const signingKeys = refreshingKeys(options.signingKeys, refreshMs);
      await signingKeys(); // fail this cold start (not cached) if the keys cannot be read
      return buildCore({
        tableName,
        client: getDocumentClient(),
        signingKeys,
        issuers: jsonEnv<IssuerConfig[]>('AUTH_ISSUERS') ?? [],
        webClient: jsonEnv<{ issuer: string; clientId: string; scope?: string }>('WEB_CLIENT'),
        rateLimits: { sites: siteRatesFromEnv() },
        ...push,
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
}
