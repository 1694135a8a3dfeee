/**
 * Logs and metrics (functions/api/http/telemetry.ts): on Lambda one JSON line per log call with the
 * invocation's request id, the API Gateway request id, the player and the game; a resolver
 * failure (answered HTTP 200 with INTERNAL_SERVER_ERROR) counted as the `Errors` metric with
 * `code=INTERNAL_SERVER_ERROR` in CloudWatch's embedded metric format. Locally: readable lines.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { logger, noteRequest, withRequest } from '../../../functions/api/http/telemetry.js';
import { handler, resetApiHandlerForTests } from '../../../functions/handlers/api.js';
import { getDocumentClient } from '../../../functions/handlers/config.js';
import { forgetHandlers } from '../../../functions/store/dynamo/db.js';
import { resetForTests } from '../../infra/reset.js';
import { freshTable } from '../../setup/db.js';

const savedEnv = { ...process.env };

function event(body: string, token?: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /graphql',
    rawPath: '/graphql',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
      requestId: 'apigw-req-1',
      routeKey: 'POST /graphql',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}
const ctx = (id: string) =>
  ({ awsRequestId: id, functionName: 'libertalia-api', getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

beforeAll(async () => {
  const { tableName } = await freshTable('telemetry');
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SIGNING_KEY: `telemetry-${randomUUID()}`,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  });
  delete process.env.SIGNING_KEY_SECRET_ARN;
  resetForTests();
  resetApiHandlerForTests();
});

afterAll(() => {
  process.env = savedEnv;
  logger.setLogLevel('SILENT');
  resetForTests();
  resetApiHandlerForTests();
});

describe('local log lines', () => {
  it('are readable, with the request scope keys on every line', () => {
    logger.setLogLevel('INFO');
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    withRequest({ requestId: 'r-1' }, () => {
      logger.info('before');
      noteRequest({ playerId: 'P1', gameId: 'G1' });
      logger.info('after', { seat: 2 });
    });
    logger.info('outside');
    const lines = out.mock.calls.map((c) => String(c[0]));
    out.mockRestore();
    logger.setLogLevel('SILENT');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}before requestId=r-1$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}after seat=2 requestId=r-1 playerId=P1 gameId=G1$/);
    expect(lines[2]).toMatch(/INFO {2}outside$/);
  });
});

describe('on Lambda', () => {
  it('logs JSON lines with the request, player and game ids, and counts a resolver failure as Errors{code=INTERNAL_SERVER_ERROR} (EMF)', async () => {
    const signUp = await handler(
      event(JSON.stringify({ query: 'mutation { signUp(name: "Tel") { token } }' })),
      ctx('inv-0'),
    );
    const token = JSON.parse(signUp.body!).data.signUp.token as string;

    // The same container; now every read of the game's items fails as DynamoDB would under throttling
    // (the player's own item still reads, so the caller is known).
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'libertalia-api';
    getDocumentClient().middlewareStack.add(
      (next) => async (args) => {
        if (JSON.stringify(args.input).includes('G-42')) {
          throw Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), {
            name: 'ThrottlingException',
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failGameReads' },
    );
    // The store resolves a client's middleware once per kind of call (functions/store/db.ts): again now.
    forgetHandlers(getDocumentClient());
    logger.setLogLevel('INFO');
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const writeErr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    let res;
    try {
      res = await handler(event(JSON.stringify({ query: 'query { game(id: "G-42") { id } }' }), token), ctx('inv-1'));
    } finally {
      write.mockRestore();
      writeErr.mockRestore();
      getDocumentClient().middlewareStack.remove('failGameReads');
      forgetHandlers(getDocumentClient());
      logger.setLogLevel('SILENT');
      delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    }
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!).errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    const records = written
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);
    const error = records.find((r) => r.message === 'unexpected error');
    expect(error).toMatchObject({
      level: 'ERROR',
      service: 'libertalia',
      function_request_id: 'inv-1',
      requestId: 'inv-1',
      apiRequestId: 'apigw-req-1',
      gameId: 'G-42',
      playerId: expect.any(String),
      error: { name: 'ThrottlingException' },
    });
    const emf = records.filter((r) => r._aws?.CloudWatchMetrics);
    const errors = emf.find((r) =>
      r._aws.CloudWatchMetrics[0].Metrics.some((m: { Name: string }) => m.Name === 'Errors'),
    );
    expect(errors).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Namespace: 'Libertalia' }] },
      code: 'INTERNAL_SERVER_ERROR',
      service: 'libertalia',
      Errors: 1,
    });
    expect(errors!._aws.CloudWatchMetrics[0].Dimensions[0].sort()).toEqual(['code', 'service']);
  });
});
