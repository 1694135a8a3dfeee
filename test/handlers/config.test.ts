/**
 * The signing key on Lambda: read from Secrets Manager (ARN in SIGNING_KEY_SECRET_ARN) once per
 * cold start, never from the environment when a secret is configured, and a failed read is not
 * cached. Secrets Manager is played by a small local HTTP server speaking its JSON protocol,
 * reached through the SDK's standard endpoint override (AWS_ENDPOINT_URL_SECRETS_MANAGER).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { handler, resetApiHandlerForTests } from '../../functions/handlers/api.js';
import { resetForTests } from '../infra/reset.js';
import { freshTable } from '../setup/db.js';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:SigningKey-AbCdEf';
const SECRET_VALUE = `from-secrets-manager-${randomUUID()}`;
const ENV_KEY = `from-environment-${randomUUID()}`;
const savedEnv = { ...process.env };

let server: Server;
const calls: { target: string; secretId: string; stage?: string }[] = [];
/** Secret values by version stage (AWSPREVIOUS appears after a rotation). */
const versions: Record<string, string> = { AWSCURRENT: SECRET_VALUE };
let failNext = 0;

function event(body: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /graphql',
    rawPath: '/graphql',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
      requestId: randomUUID(),
      routeKey: 'POST /graphql',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}
const ctx = { awsRequestId: 'x', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

let signUps = 0;
async function signUpToken(): Promise<string> {
  const query = `mutation { signUp(name: "Key ${++signUps}") { token } }`; // names are unique
  const res = await handler(event(JSON.stringify({ query })), ctx);
  const body = JSON.parse(res.body!);
  expect(body.errors).toBeUndefined();
  return body.data.signUp.token as string;
}

/** The HS256 signature check with a given key, done here independently of the app. */
async function signedWith(token: string, key: string): Promise<boolean> {
  const { jwtVerify } = await import('jose');
  try {
    await jwtVerify(token, new TextEncoder().encode(key));
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const input = JSON.parse(raw || '{}') as { SecretId?: string; VersionStage?: string };
      const secretId = input.SecretId ?? '';
      calls.push({ target, secretId, ...(input.VersionStage ? { stage: input.VersionStage } : {}) });
      if (failNext > 0) {
        failNext--;
        res.writeHead(500, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'InternalServiceError', message: 'try again' }));
        return;
      }
      const value = versions[input.VersionStage ?? 'AWSCURRENT'];
      if (!value) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no such version' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify({
          ARN: SECRET_ARN,
          Name: 'SigningKey',
          SecretString: value,
          VersionId: 'v1',
          CreatedDate: 1_700_000_000,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { tableName } = await freshTable('config');
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SIGNING_KEY_SECRET_ARN: SECRET_ARN,
    SIGNING_KEY: ENV_KEY,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  });
  resetForTests();
  resetApiHandlerForTests();
});

afterAll(async () => {
  process.env = savedEnv;
  resetForTests();
  resetApiHandlerForTests();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// Each test starts from a cold container: no key read yet, no call seen, no failure queued.
beforeEach(() => {
  resetForTests();
  resetApiHandlerForTests();
  calls.length = 0;
  failNext = 0;
  for (const k of Object.keys(versions)) delete versions[k];
  versions.AWSCURRENT = SECRET_VALUE;
});

describe('signing key from Secrets Manager', () => {
  it('is not cached when the read fails: the next invocation tries again', async () => {
    failNext = 1;
    await expect(handler(event('{"query":"{ openGames { id } }"}'), ctx)).rejects.toThrow();
    expect(calls).toHaveLength(1);
    const token = await signUpToken();
    expect(calls).toHaveLength(3); // the current and (none yet) previous versions
    expect(await signedWith(token, SECRET_VALUE)).toBe(true);
  });

  it('is read once per container, by ARN, and wins over SIGNING_KEY', async () => {
    const tokens = [await signUpToken(), await signUpToken(), await signUpToken()];
    expect(calls).toHaveLength(2); // the current and previous versions, read at the cold start, not again within the refresh interval
    for (const c of calls) expect(c).toMatchObject({ target: 'secretsmanager.GetSecretValue', secretId: SECRET_ARN });
    for (const t of tokens) {
      expect(await signedWith(t, SECRET_VALUE)).toBe(true);
      expect(await signedWith(t, ENV_KEY)).toBe(false);
    }
  });
});

const whoAmI = (token: string): APIGatewayProxyEventV2 => ({
  ...event(JSON.stringify({ query: '{ me { kind } }' })),
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
});

describe('key rotation', () => {
  it('a warm container picks up a rotated key on its interval and still accepts tokens of the previous one', async () => {
    process.env.SIGNING_KEY_REFRESH_SECONDS = '0';
    resetForTests();
    resetApiHandlerForTests();
    const before = await signUpToken();
    const rotated = `rotated-${randomUUID()}`;
    versions.AWSPREVIOUS = SECRET_VALUE;
    versions.AWSCURRENT = rotated;
    await signUpToken(); // triggers the background re-read
    await new Promise((r) => setTimeout(r, 200));
    const after = await signUpToken();
    expect(await signedWith(after, rotated)).toBe(true);
    const me = await handler(whoAmI(before), ctx);
    expect(JSON.parse(me.body!).data.me.kind).toBe('GUEST');
    // a second rotation retires the first key
    versions.AWSPREVIOUS = rotated;
    versions.AWSCURRENT = `rotated-again-${randomUUID()}`;
    await signUpToken();
    await new Promise((r) => setTimeout(r, 200));
    await signUpToken();
    const gone = await handler(whoAmI(before), ctx);
    expect(JSON.parse(gone.body!).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    delete process.env.SIGNING_KEY_REFRESH_SECONDS;
  });
});
