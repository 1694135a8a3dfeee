/**
 * The AWS path through the bundles themselves (test/infra/lambda-harness.ts): the four functions
 * as `cdk synth` bundles them, each alone in a folder and a process, with the template's
 * environment, against dynalite and local stand-ins of Secrets Manager, SQS and the management
 * API. A complete game between a guest, an account signed in with a Cognito-like provider (a
 * local JWKS issuer, jose) and an integrator site's user; the notice worker draining the queue in
 * SQS batches and fanning out to a push subscriber; the sweep on its schedule; and the failure
 * modes: a secret read failing at cold start, the queue down during a move (the move succeeds,
 * its notices wait in the commit's outbox and the sweep hands them on once SQS is back: a webhook
 * receiver gets each once), the management API down during a fan-out (the worker drops that
 * push, as designed: functions/api/notify/fanout.ts; the connection is kept, a gone one is not).
 * Containers are shared between the tests (a cold start is a process start and a module load).
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
import { GAME_QUERY, PLAY, playToEnd } from '../setup/play.js';
import {
  authorizerEvent,
  Container,
  httpEvent,
  scheduledEvent,
  sqsEvent,
  StandIns,
  type SynthesizedFunction,
  synthesizedFunctions,
  wsEvent,
} from './lambda-harness.js';
import { cdkSynthOnce } from './cdk-out.js';

let dir: string;
let fns: ReturnType<typeof synthesizedFunctions>;
const standIns = new StandIns();
let jwks: Server;
let issuer: string;
let sign: (claims: Record<string, unknown>) => Promise<string>;
let tableName: string;
const containers: Container[] = [];
/** One warm container per function, shared by the tests (as Lambda reuses a container). */
const warm = new Map<string, Container>();
/** The local webhook receiver: bodies received, answered 204. */
const received: { deliveryId: string; gameId: string; version: number; kind: string; header: string }[] = [];
let receiver: Server;
let hookUrl: string;
const SIGNING_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:signing-key';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'libertalia-harness-'));
  const synth = await cdkSynthOnce(); // shared with cdk-synth.test.ts
  expect(synth.status, synth.stderr).toBe(0);
  fns = synthesizedFunctions(synth.outDir);
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
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ ...JSON.parse(raw), header: String(req.headers['x-libertalia-delivery']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}, 600_000);

afterAll(async () => {
  for (const c of containers) c.stop();
  await standIns.stop();
  if (jwks) await new Promise<void>((ok) => jwks.close(() => ok()));
  receiver?.closeAllConnections();
  if (receiver) await new Promise<void>((ok) => receiver.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A new container of `fn`: the template's environment, each reference (table, secret, queue,
 * push endpoint, issuers) pointed at its local stand-in, and the SDK's endpoints at the stand-ins.
 */
function container(name: keyof typeof fns, extra: Record<string, string> = {}): Container {
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
    // The receiver is on 127.0.0.1: allowed here only (never in the template: checked below).
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'harness',
    ...extra,
  });
  const c = new Container(fn, path.join(dir, `${name}-${containers.length}`), env);
  containers.push(c);
  return c;
}

/** The warm container of `fn` (started on first use, then reused by every test). */
function shared(name: keyof typeof fns): Container {
  let c = warm.get(name);
  if (!c) warm.set(name, (c = container(name)));
  return c;
}

/** Runs the notice worker on every queued message, in SQS batches; none may fail. */
async function drainQueue(worker: Container): Promise<number> {
  let n = 0;
  for (let batches = standIns.take(); batches.length > 0; batches = standIns.take())
    for (const b of batches) {
      expect((await worker.invoke(sqsEvent(b))).result, worker.stderr).toEqual({ batchItemFailures: [] });
      n += b.length;
    }
  return n;
}

describe('the synthesized bundles in a Lambda-like harness', () => {
  let api: Container;
  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string | null) => {
    api ??= shared('api'); // a test run alone (-t) starts it
    const out = await api.invoke<{ statusCode: number; body: string }>(httpEvent({ query, variables }, token));
    if (out.error) throw new Error(`${out.error}\n${api.stderr}`);
    const body = JSON.parse(out.result!.body);
    if (body.errors?.some((e: { extensions?: { code?: string } }) => e.extensions?.code === 'INTERNAL_SERVER_ERROR'))
      throw new Error(`internal error; the container's log:\n${api.stderr.slice(-4000)}`);
    return body;
  };

  it('every function that verifies tokens is given the issuers; no function is given the harness-only switches', () => {
    expect(fns.api.environment).toHaveProperty('AUTH_ISSUERS');
    expect(fns.push.environment).toHaveProperty('AUTH_ISSUERS');
    for (const fn of Object.values(fns)) {
      expect(fn.environment).not.toHaveProperty('WEBHOOKS_ALLOW_PRIVATE_HOSTS');
      expect(fn.environment).not.toHaveProperty('NOTICE_OUTBOX_AGE_SECONDS');
    }
  });

  it('a secret read failing at cold start fails that invocation only, with a clear error: the container reads it again on the next', async () => {
    api = shared('api'); // its cold start is this test's
    standIns.down.secrets = true;
    const first = await api.invoke(httpEvent({ query: '{ __typename }' }));
    expect(first.error).toMatch(/secret|Secrets Manager|ServiceUnavailable|stand-in down/i);
    standIns.down.secrets = false;
    expect(await gql('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
  }, 120_000);

  it('plays a complete game of a guest, a Cognito account and a site user; the worker fans it out to a push subscriber; the sweep runs', async () => {
    const push = shared('push');
    const worker = shared('notices');
    const sweep = shared('sweep');

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
    expect(await drainQueue(worker)).toBeGreaterThan(0);
    const versions = (standIns.posted.get(conn) ?? []).map((m: any) => m.version).filter((v) => typeof v === 'number');
    const final = (await gql('query($g: ID!) { game(id: $g) { version } }', { g: id }, guest.token)).data.game.version;
    expect(Math.max(...versions)).toBe(final);

    const swept = await sweep.invoke(scheduledEvent());
    expect(swept.error, sweep.stderr).toBeUndefined();
    expect(swept.result).toMatchObject({ failures: 0 });
  }, 600_000);

  it('the queue down during a move: the move succeeds, its notices wait in the outbox; once SQS is back the sweep hands them on and the webhook receiver gets each once', async () => {
    const worker = shared('notices');
    const sweep = container('sweep', { NOTICE_OUTBOX_AGE_SECONDS: '0' }); // no 2-minute wait here
    // A chosen seed: the day Mary ends leaves her awaited, so that commit has a notice for her.
    const [anne, mary] = [
      (await gql('mutation { signUp(name: "Harness Outage A") { token } }')).data.signUp.token,
      (await gql('mutation { signUp(name: "Harness Outage M") { token } }')).data.signUp.token,
    ];
    const id = (
      await gql(
        'mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "notices-dies-1" }) { id } }',
        {},
        anne,
      )
    ).data.createGame.id;
    expect((await gql('mutation($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, mary)).errors).toBeUndefined();
    const hook = await gql(
      'mutation($u: String!, $g: ID) { registerWebhook(url: $u, gameId: $g) { secret } }',
      {
        u: hookUrl,
        g: id,
      },
      mary,
    );
    expect(hook.errors).toBeUndefined();
    expect((await gql('mutation($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, anne)).errors).toBeUndefined();
    await drainQueue(worker);
    const ofGame = () => received.filter((r) => r.gameId === id);
    const before = ofGame().length;
    expect(before).toBeGreaterThan(0); // the start's "your turn" reached Mary's receiver through SQS

    standIns.down.sqs = true;
    let version = 0;
    for (const token of [anne, mary]) {
      const hand = (await gql(GAME_QUERY, { id }, token)).data.game.me.hand;
      const r = await gql(PLAY, { g: id, r: hand[0] }, token);
      expect(r.errors).toBeUndefined(); // the move succeeded with SQS down
      version = r.data.playCard.version;
    }
    expect(standIns.queue).toEqual([]);
    // Still down at the sweep: its step fails (the invocation reports it), the notices stay.
    const failed = await sweep.invoke(scheduledEvent());
    expect(failed.error).toMatch(/sweep: \d+ step/);
    expect(api.stdout + api.stderr).toMatch(/notices left in the outbox/);
    standIns.down.sqs = false;
    // Back: two sweeps before the worker runs (one overlapping the other) hand the same notices twice.
    for (let i = 0; i < 2; i++) {
      const swept = await sweep.invoke(scheduledEvent());
      expect(swept.error, sweep.stderr).toBeUndefined();
      expect(swept.result.noticesResent).toBeGreaterThanOrEqual(1);
    }
    await drainQueue(worker);
    const after = ofGame().slice(before);
    expect(after.length, JSON.stringify({ version, after })).toBeGreaterThan(0);
    expect(after.some((r) => r.version === version && r.kind === 'yourTurn')).toBe(true);
    const ids = after.map((r) => r.deliveryId);
    expect(ids).toEqual([...new Set(ids)]); // each delivered once
    expect(after.every((r) => r.header === r.deliveryId)).toBe(true); // the receivers' dedupe key
    // The worker emptied the outboxes: the next sweep hands nothing again.
    expect((await sweep.invoke(scheduledEvent())).result.noticesResent).toBe(0);
    expect(await drainQueue(worker)).toBe(0);
    expect(ofGame().length).toBe(before + after.length);
  }, 300_000);

  it('the management API down during a fan-out: the worker neither fails nor loops (the push is dropped, the connection kept; clients converge on their next fetch), fans out again once it is back, and forgets a gone connection', async () => {
    const worker = shared('notices');
    const push = shared('push');
    const guest = (await gql('mutation { signUp(name: "Harness Fan") { playerId token } }')).data.signUp;
    const id = (
      await gql('mutation { createGame(input: { edition: CLASSIC, seats: 3, seed: "fan" }) { id } }', {}, guest.token)
    ).data.createGame.id;
    const allow = await push.invoke(authorizerEvent(guest.token));
    const [conn, dead] = [`conn-${randomUUID()}`, `dead-${randomUUID()}`];
    for (const c of [conn, dead])
      await push.invoke(wsEvent('subscribe', c, allow.result.context, { action: 'subscribe', gameId: id }));
    await drainQueue(worker);
    const join = async (name: string) => {
      const t = (await gql(`mutation { signUp(name: "${name}") { token } }`)).data.signUp.token;
      expect((await gql('mutation($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, t)).errors).toBeUndefined();
    };
    const before = standIns.posted.get(conn)!.length;
    standIns.down.management = true;
    await join('Harness Fan Two');
    expect(await drainQueue(worker)).toBeGreaterThan(0); // no batch item failed
    expect(standIns.calls.get(conn)).toBeGreaterThan(before); // the post was tried, and refused
    standIns.down.management = false;
    expect(standIns.posted.get(conn)!.length).toBe(before);
    // Back, with the other connection gone meanwhile (410): the next fan-out posts to the kept
    // connection and forgets the gone one, which the one after never calls again.
    standIns.gone.add(dead);
    await join('Harness Fan Three');
    await drainQueue(worker);
    expect(standIns.posted.get(conn)!.length).toBeGreaterThan(before);
    const deadCalls = standIns.calls.get(dead)!;
    await gql('mutation($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, guest.token);
    await drainQueue(worker);
    expect(standIns.posted.get(conn)!.length).toBeGreaterThan(before + 1);
    expect(standIns.calls.get(dead)).toBe(deadCalls);
  }, 300_000);
});
