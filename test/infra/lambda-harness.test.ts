/**
 * The AWS path through the bundles themselves (test/infra/lambda-harness.ts): the four functions
 * as `cdk synth` bundles them, each alone in a folder and a process, with the template's
 * environment, against dynalite and local stand-ins of Secrets Manager, SQS and the management
 * API. A complete game between a guest, an account signed in with a Cognito-like provider (a
 * local JWKS issuer, jose) and an integrator site's user; the notice worker draining the queue in
 * SQS batches and fanning out to a push subscriber; the sweep on its schedule; and the failure
 * modes: a secret read failing at cold start, the management API down during a fan-out (the
 * worker drops that push, as designed: functions/push/fanout.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCOPES } from '../../functions/api/accounts/auth.js';
import { freshTable } from '../setup/db.js';
import { playToEnd } from '../setup/play.js';
import {
  authorizerEvent,
  Container,
  httpEvent,
  scheduledEvent,
  sqsEvent,
  StandIns,
  type SynthesizedFunction,
  synthesizeFunctions,
  wsEvent,
} from './lambda-harness.js';

let dir: string;
let fns: ReturnType<typeof synthesizeFunctions>;
const standIns = new StandIns();
let jwks: Server;
let issuer: string;
let sign: (claims: Record<string, unknown>) => Promise<string>;
let tableName: string;
const containers: Container[] = [];
const SIGNING_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:signing-key';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'libertalia-harness-'));
  fns = synthesizeFunctions(path.join(dir, 'cdk.out'));
  await standIns.start();
  standIns.secrets.set(SIGNING_ARN, `harness-${randomUUID()}-${'k'.repeat(16)}`);
  // A Cognito-like issuer: its keys served at <issuer>/.well-known/jwks.json (Cognito's path).
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwks = createServer((req, res) => {
    res.writeHead(req.url?.endsWith('/.well-known/jwks.json') ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((ok) => jwks.listen(0, '127.0.0.1', ok));
  issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/eu-west-1_harness`;
  sign = (claims) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ token_use: 'access', scope: `openid ${SCOPES.play}`, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  };
  ({ tableName } = await freshTable('harness'));
}, 300_000);

afterAll(async () => {
  for (const c of containers) c.stop();
  await standIns.stop();
  await new Promise<void>((ok) => jwks.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A new container of `fn`: the template's environment, each reference (table, secret, queue,
 * push endpoint, issuers) pointed at its local stand-in, and the SDK's endpoints at the stand-ins.
 */
function container(name: keyof typeof fns): Container {
  const fn: SynthesizedFunction = fns[name];
  const local: Record<string, string> = {
    TABLE_NAME: tableName,
    SIGNING_KEY_SECRET_ARN: SIGNING_ARN,
    // On the stand-in's host: the SQS client sends to the queue URL's host.
    NOTICE_QUEUE_URL: `${standIns.url}/123456789012/notices`,
    PUSH_ENDPOINT: standIns.url,
    AUTH_ISSUERS: JSON.stringify([{ issuer }]),
    WEB_CLIENT: JSON.stringify({ issuer, clientId: 'web', scope: `openid ${SCOPES.play}` }),
  };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(fn.environment)) {
    const value = v ?? local[k];
    expect(value, `${name}: ${k} has a stand-in`).toBeDefined();
    env[k] = value;
  }
  Object.assign(env, {
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_ENDPOINT_URL_SQS: standIns.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: standIns.url,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  });
  const c = new Container(fn, path.join(dir, `${name}-${containers.length}`), env);
  containers.push(c);
  return c;
}

describe('the synthesized bundles in a Lambda-like harness', () => {
  let api: Container;
  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string | null) => {
    api ??= container('api'); // a test run alone (-t) starts its own container
    const out = await api.invoke<{ statusCode: number; body: string }>(httpEvent({ query, variables }, token));
    if (out.error) throw new Error(`${out.error}\n${api.stderr}`);
    const body = JSON.parse(out.result!.body);
    if (body.errors?.some((e: { extensions?: { code?: string } }) => e.extensions?.code === 'INTERNAL_SERVER_ERROR'))
      throw new Error(`internal error; the container's log:\n${api.stderr.slice(-4000)}`);
    return body;
  };

  it('every function that verifies tokens is given the issuers', () => {
    expect(fns.api.environment).toHaveProperty('AUTH_ISSUERS');
    expect(fns.push.environment).toHaveProperty('AUTH_ISSUERS');
  });

  it('a secret read failing at cold start fails that invocation only: the container reads it again on the next', async () => {
    api = container('api');
    standIns.down.secrets = true;
    const first = await api.invoke(httpEvent({ query: '{ __typename }' }));
    expect(first.error).toBeDefined();
    standIns.down.secrets = false;
    expect(await gql('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
  }, 120_000);

  it('plays a complete game of a guest, a Cognito account and a site user; the worker fans it out to a push subscriber; the sweep runs', async () => {
    const push = container('push');
    const worker = container('notices');
    const sweep = container('sweep');

    const guest = (await gql('mutation { signUp(name: "Harness Guest") { playerId token } }')).data.signUp;
    const cognito = await sign({ sub: randomUUID(), client_id: 'web', username: 'anne' });
    const account = (
      await gql('mutation($n: String!) { register(name: $n) { playerId } }', { n: 'Harness Anne' }, cognito)
    ).data.register;
    const site = await sign({
      sub: 'site-h',
      client_id: 'site-h',
      scope: `${SCOPES.createGames} ${SCOPES.actForUsers}`,
    });
    const siteUser = (
      await gql(
        'mutation($u: String!, $n: String) { actAs(user: $u, name: $n) { playerId token } }',
        { u: 'mary', n: 'Harness Mary' },
        site,
      )
    ).data.actAs;
    expect([guest.playerId, account.playerId, siteUser.playerId].every(Boolean)).toBe(true);

    const id = (
      await gql(
        'mutation { createGame(input: { edition: CLASSIC, seats: 3, seed: "harness" }) { id } }',
        {},
        guest.token,
      )
    ).data.createGame.id;
    for (const t of [cognito, siteUser.token])
      expect((await gql('mutation($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, t)).errors).toBeUndefined();

    // The Cognito account opens push: the authorizer admits its token, it subscribes.
    const allow = await push.invoke(authorizerEvent(cognito));
    expect(allow.result.policyDocument.Statement[0].Effect, push.stderr).toBe('Allow');
    const conn = `conn-${randomUUID()}`;
    expect((await push.invoke(wsEvent('$connect', conn, allow.result.context))).result).toEqual({
      statusCode: 200,
      body: '',
    });
    await push.invoke(wsEvent('subscribe', conn, allow.result.context, { action: 'subscribe', gameId: id }));
    expect(standIns.posted.get(conn)?.[0]).toMatchObject({ type: 'subscribed', gameId: id });

    expect(
      (await gql('mutation($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, guest.token)).errors,
    ).toBeUndefined();
    const { game } = await playToEnd(gql, id, [guest.token, cognito, siteUser.token], 5);
    expect(game.status).toBe('FINISHED');

    // The moves handed their push versions to the queue; the worker drains it in SQS batches.
    const batches = standIns.take();
    expect(batches.length).toBeGreaterThan(0);
    for (const b of batches)
      expect((await worker.invoke(sqsEvent(b))).result, worker.stderr).toEqual({ batchItemFailures: [] });
    const versions = (standIns.posted.get(conn) ?? []).map((m: any) => m.version).filter((v) => typeof v === 'number');
    const final = (await gql('query($g: ID!) { game(id: $g) { version } }', { g: id }, guest.token)).data.game.version;
    expect(Math.max(...versions)).toBe(final);

    const swept = await sweep.invoke(scheduledEvent());
    expect(swept.error, sweep.stderr).toBeUndefined();
    expect(swept.result).toMatchObject({ failures: 0 });
  }, 600_000);

  it('the management API down during a fan-out: the worker neither fails nor loops (the push is dropped, clients converge on their next fetch), and fans out again once it is back', async () => {
    const worker = container('notices');
    const guest = (await gql('mutation { signUp(name: "Harness Fan") { playerId token } }')).data.signUp;
    const id = (
      await gql('mutation { createGame(input: { edition: CLASSIC, seats: 3, seed: "fan" }) { id } }', {}, guest.token)
    ).data.createGame.id;
    const push = container('push');
    const allow = await push.invoke(authorizerEvent(guest.token));
    const conn = `conn-${randomUUID()}`;
    await push.invoke(wsEvent('subscribe', conn, allow.result.context, { action: 'subscribe', gameId: id }));
    standIns.take();
    const join = async (name: string) => {
      const t = (await gql(`mutation { signUp(name: "${name}") { token } }`)).data.signUp.token;
      expect((await gql('mutation($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, t)).errors).toBeUndefined();
      const batches = standIns.take();
      expect(batches.flat().length).toBeGreaterThan(0);
      return batches;
    };
    const before = standIns.posted.get(conn)!.length;
    const whileDown = await join('Harness Fan Two');
    standIns.down.management = true;
    for (const b of whileDown)
      expect((await worker.invoke(sqsEvent(b))).result, worker.stderr).toEqual({ batchItemFailures: [] });
    standIns.down.management = false;
    expect(standIns.posted.get(conn)!.length).toBe(before);
    const afterwards = await join('Harness Fan Three');
    for (const b of afterwards) expect((await worker.invoke(sqsEvent(b))).result).toEqual({ batchItemFailures: [] });
    expect(standIns.posted.get(conn)!.length).toBeGreaterThan(before);
  }, 300_000);
});
