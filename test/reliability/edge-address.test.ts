// Issue 23, finding 4 (last part): on AWS, `callerAddress` trusted a `CloudFront-Viewer-Address`
// header sent by anyone straight to the execute-api URL: 40 of 40 sign-ups from one address with a
// changing header. Replayed through the API Lambda handler (API Gateway payload 2.0, the service's
// rate limits, the shared dynalite): the made-up header is ignored, the address's signUp bucket
// runs out after its burst (RATE_LIMITED, nobody signed up), and another address still signs up.
// The edge's secret origin header itself: test/handlers/api.test.ts ("callerAddress").
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { RATES } from '../../functions/api/http/ratelimit.js';
import { handler, resetApiHandlerForTests } from '../../functions/handlers/api.js';
import { freshTable } from '../setup/db.js';
import { resetForTests } from '../infra/reset.js';

const savedEnv = { ...process.env };
let table: Awaited<ReturnType<typeof freshTable>>;

beforeAll(async () => {
  table = await freshTable('edge');
  Object.assign(process.env, {
    TABLE_NAME: table.tableName,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SIGNING_KEY: `test-only-${randomUUID()}`,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  delete process.env.SIGNING_KEY_SECRET_ARN;
  delete process.env.ORIGIN_SECRET_ARN;
  resetForTests();
  resetApiHandlerForTests();
});
afterAll(() => {
  process.env = savedEnv;
  resetForTests();
  resetApiHandlerForTests();
});

let n = 0;
/** A signUp POST as API Gateway hands it over, from `sourceIp`, with a forged viewer address. */
function signUpEvent(sourceIp: string, viewer: string): APIGatewayProxyEventV2 {
  const body = JSON.stringify({ query: `mutation { signUp(name: "Edge Sybil ${++n}") { token } }` });
  return {
    version: '2.0',
    routeKey: 'POST /graphql',
    rawPath: '/graphql',
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      'content-length': String(body.length),
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      'cloudfront-viewer-address': viewer,
      'x-forwarded-for': viewer.split(':')[0],
    },
    requestContext: {
      http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp, userAgent: 'sybil' },
      requestId: `edge-${n}`,
      routeKey: 'POST /graphql',
      stage: '$default',
    },
    body,
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}
const ctx = { awsRequestId: 'edge', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const players = async () =>
  (
    await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        FilterExpression: 'begins_with(PK, :p) AND SK = :s',
        ExpressionAttributeValues: { ':p': 'PLAYER#', ':s': 'PROFILE' },
      }),
    )
  ).Items?.length ?? 0;

it('40 sign-ups from one address with a changing CloudFront-Viewer-Address: the burst passes, the rest are RATE_LIMITED', async () => {
  const burst = RATES.signUp.burst;
  const statuses: number[] = [];
  const codes: (string | undefined)[] = [];
  for (let i = 0; i < burst + 10; i++) {
    const res = await handler(signUpEvent('198.51.100.7', `203.0.113.${i}:4${i}`), ctx);
    statuses.push(res.statusCode ?? 0);
    codes.push(JSON.parse(res.body ?? '{}').errors?.[0]?.extensions?.code);
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(burst);
  expect(statuses.slice(burst)).toEqual(Array(10).fill(429));
  expect(codes.slice(burst)).toEqual(Array(10).fill('RATE_LIMITED'));
  expect(await players()).toBe(burst); // nobody signed up past the bucket
  // Another address is another bucket: the limit is per address, not global.
  const other = await handler(signUpEvent('198.51.100.8', '203.0.113.200:1'), ctx);
  expect(other.statusCode).toBe(200);
});
