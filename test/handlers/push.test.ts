/**
 * Push on AWS, offline: the push Lambda handler (authorizer, $connect, subscribe, $disconnect)
 * and the API Lambda handler invoked in-process against dynalite, with API Gateway's management
 * API played by a local HTTP server (the real SDK PostToConnection calls reach it through
 * PUSH_ENDPOINT). A second client receives the version changes of a game played through the
 * API handler, up to the last; a connection that is gone is forgotten.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as apiHandler, resetApiHandlerForTests } from '../../functions/handlers/api.js';
import { getDocumentClient } from '../../functions/handlers/config.js';
import { resetForTests } from '../infra/reset.js';
import { handler as pushHandler } from '../../functions/handlers/push.js';
import { freshTable } from '../setup/db.js';
import { playToEnd } from '../setup/play.js';

const savedEnv = { ...process.env };
const ctx = { awsRequestId: 'push', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

let management: Server;
/** Messages posted per connection id; connections in `gone` answer 410 GoneException. */
const posted = new Map<string, any[]>();
const gone = new Set<string>();
const deleted: string[] = [];
let tableName: string;

function apiEvent(body: string, token?: string): APIGatewayProxyEventV2 {
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
async function gql(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
  const res = await apiHandler(apiEvent(JSON.stringify({ query, variables }), token), ctx);
  return JSON.parse(res.body!);
}
const authorizerEvent = (token?: string) => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:ws123/production/$connect',
  queryStringParameters: token ? { token } : {},
  headers: {},
  requestContext: { routeKey: '$connect', connectionId: 'c' },
});
const wsEvent = (routeKey: string, connectionId: string, playerId: string, body?: string) =>
  ({ requestContext: { routeKey, connectionId, authorizer: { playerId } }, ...(body ? { body } : {}) }) as never;

beforeAll(async () => {
  management = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const m = /^\/@connections\/([^/?]+)$/.exec(req.url ?? '');
      const id = m ? decodeURIComponent(m[1]) : '';
      if (req.method === 'DELETE' && m && !gone.has(id)) {
        deleted.push(id);
        gone.add(id);
        res.writeHead(204);
        res.end();
        return;
      }
      if (req.method !== 'POST' || !m || gone.has(id)) {
        res.writeHead(410, { 'content-type': 'application/json', 'x-amzn-errortype': 'GoneException' });
        res.end(JSON.stringify({ message: 'gone' }));
        return;
      }
      posted.set(id, [...(posted.get(id) ?? []), JSON.parse(raw)]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => management.listen(0, '127.0.0.1', ok));
  ({ tableName } = await freshTable('push'));
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    SIGNING_KEY: `push-test-${randomUUID()}`,
    PUSH_ENDPOINT: `http://127.0.0.1:${(management.address() as AddressInfo).port}`,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  });
  delete process.env.SIGNING_KEY_SECRET_ARN;
  resetForTests();
  resetApiHandlerForTests();
});

afterAll(async () => {
  process.env = savedEnv;
  resetForTests();
  resetApiHandlerForTests();
  await new Promise<void>((ok) => management.close(() => ok()));
});

describe('push through the AWS handlers (offline)', () => {
  it("authorizes with the API's own token check: a player, a spectator, a bad token", async () => {
    const p = (await gql('mutation { signUp(name: "Auth") { playerId token } }')).data.signUp;
    const ok = (await pushHandler(authorizerEvent(p.token) as never, ctx)) as any;
    expect(ok.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Action: 'execute-api:Invoke' });
    expect(ok.context).toEqual({ playerId: p.playerId, session: 'v0' });
    const spectator = (await pushHandler(authorizerEvent() as never, ctx)) as any;
    expect(spectator.policyDocument.Statement[0].Effect).toBe('Allow');
    expect(spectator.context).toEqual({ playerId: '', session: '' });
    const bad = (await pushHandler(authorizerEvent(`${p.token}x`) as never, ctx)) as any;
    expect(bad.policyDocument.Statement[0].Effect).toBe('Deny');
  });

  it('pushes the versions of a game played through the API handler to a subscribed connection; forgets gone ones', async () => {
    const [a, b] = [
      (await gql('mutation { signUp(name: "Lambda Anne") { playerId token } }')).data.signUp,
      (await gql('mutation { signUp(name: "Lambda Mary") { playerId token } }')).data.signUp,
    ];
    const id = (
      await gql('mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "aws-push" }) { id } }', {}, a.token)
    ).data.createGame.id;
    await gql('mutation($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, b.token);

    const conn = `conn-${randomUUID()}`;
    const stale = `stale-${randomUUID()}`;
    expect(await pushHandler(wsEvent('$connect', conn, b.playerId), ctx)).toEqual({ statusCode: 200, body: '' });
    await pushHandler(wsEvent('subscribe', conn, b.playerId, JSON.stringify({ action: 'subscribe', gameId: id })), ctx);
    await pushHandler(wsEvent('subscribe', stale, '', JSON.stringify({ action: 'subscribe', gameId: id })), ctx);
    const from = posted.get(conn)![0];
    expect(from).toMatchObject({ type: 'subscribed', gameId: id, status: 'LOBBY' });
    gone.add(stale); // closed without a $disconnect reaching us

    await gql('mutation($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, a.token);
    await playToEnd(gql, id, [a.token, b.token], 3);
    const final = (await gql('query($g: ID!) { game(id: $g) { version status } }', { g: id }, a.token)).data.game;
    expect(final.status).toBe('FINISHED');
    // The fan-out runs beside the request (no queue here; with one, in the notice worker): never
    // waited for by the move, so the last version may arrive just after the last answer.
    const games = () => posted.get(conn)!.filter((m) => m.type === 'game');
    for (let i = 0; i < 100 && games().at(-1)?.version !== final.version; i++)
      await new Promise((r) => setTimeout(r, 50));
    const versions = games().map((m) => m.version);
    // Each version once, in order, up to the last; commits during a running fan-out are coalesced.
    expect(versions[0]).toBeGreaterThan(from.version);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]);
    expect(posted.get(conn)!.at(-1)).toMatchObject({
      type: 'game',
      gameId: id,
      version: final.version,
      status: 'FINISHED',
    });
    // Each message carries Mary's own view (seat 1), the same as the API answers her.
    const last = posted.get(conn)!.at(-1).game;
    const mine = (
      await gql(
        `query($g: ID!) { game(id: $g) { id version status me { seat hand } ranking { seat score } } }`,
        { g: id },
        b.token,
      )
    ).data.game;
    expect(last).toMatchObject(mine);

    // The stale connection's subscription was deleted at the first post that found it gone;
    // $disconnect removes the live one's items.
    const items = async () => {
      const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
      const r = await getDocumentClient().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :p',
          ExpressionAttributeValues: { ':p': `PUSH#${id}` },
          ConsistentRead: true,
        }),
      );
      return (r.Items ?? []).map((i) => i.connectionId);
    };
    expect(await items()).toEqual([conn]);
    await pushHandler(wsEvent('$disconnect', conn, b.playerId), ctx);
    expect(await items()).toEqual([]);
  });

  it("signOut through the API handler closes the player's connections (DeleteConnection); a message on a revoked one is UNAUTHENTICATED", async () => {
    const p = (await gql('mutation { signUp(name: "Lambda Jack") { playerId token } }')).data.signUp;
    const auth = (await pushHandler(authorizerEvent(p.token) as never, ctx)) as any;
    const [one, two] = [`signout-${randomUUID()}`, `signout-${randomUUID()}`];
    const event = (routeKey: string, connectionId: string, body?: string) =>
      ({ requestContext: { routeKey, connectionId, authorizer: auth.context }, ...(body ? { body } : {}) }) as never;
    await pushHandler(event('$connect', one), ctx);
    await pushHandler(event('$connect', two), ctx);
    await pushHandler(event('ping', one, JSON.stringify({ action: 'ping' })), ctx);
    expect(posted.get(one)).toEqual([{ type: 'pong' }]);
    expect((await gql('mutation { signOut }', {}, p.token)).data).toEqual({ signOut: true });
    expect(deleted.filter((d) => d === one || d === two).sort()).toEqual([one, two].sort());
    // A connection that missed the close (another stage, a lost call) still cannot read: the stamp is checked again.
    const three = `signout-${randomUUID()}`;
    await pushHandler(event('ping', three, JSON.stringify({ action: 'ping' })), ctx);
    expect(posted.get(three)).toMatchObject([{ type: 'error', code: 'UNAUTHENTICATED' }]);
    expect(deleted).toContain(three);
  });
});
