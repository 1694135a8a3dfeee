/**
 * A Lambda-like harness for the bundles `cdk synth` builds: the CLI's assembly (synthesized once
 * per run, test/infra/cdk-out.ts), each function's asset copied alone into an empty folder and run in its
 * own Node process ("container": module state lives across its invocations, a cold start is a new
 * process) with the template's environment variables, the AWS services it calls played by local
 * stand-ins: dynalite for DynamoDB, and one small HTTP server for Secrets Manager (JSON protocol,
 * GetSecretValue), SQS (JSON protocol, SendMessageBatch) and the API Gateway Management API
 * (POST/DELETE /@connections/{id}). Each stand-in can be taken down (it answers 503).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

export interface SynthesizedFunction {
  /** Where its asset (index.mjs and its map) was built. */
  assetDir: string;
  /** The template's environment: literal values as they are, references (ARNs, URLs, JSON with tokens) as null. */
  environment: Record<string, string | null>;
}

/**
 * The four functions of the `cdk synth` CLI's assembly in `outDir` (test/infra/cdk-out.ts: the
 * same output cdk-synth.test.ts checks, synthesized once per run), by logical id prefix.
 */
export function synthesizedFunctions(
  outDir: string,
): Record<'api' | 'notices' | 'sweep' | 'push', SynthesizedFunction> {
  const template = JSON.parse(readFileSync(path.join(outDir, 'LibertaliaOnline.template.json'), 'utf8')) as {
    Resources: Resources;
  };
  const find = (prefix: string): SynthesizedFunction => {
    const [, fn] = Object.entries(template.Resources).find(
      ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith(prefix),
    )!;
    const vars = (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
    return {
      assetDir: path.join(outDir, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`),
      environment: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? v : null])),
    };
  };
  return {
    api: find('ApiFunction'),
    notices: find('NoticeWorkerFunction'),
    sweep: find('SweepFunction'),
    push: find('PushFunction'),
  };
}

export interface Message {
  id: string;
  body: string;
}

/** The stand-ins of Secrets Manager, SQS and the management API, on one local HTTP server. */
export class StandIns {
  readonly secrets = new Map<string, string>();
  /** Messages SQS accepted and nobody has taken yet (`take`). */
  readonly queue: Message[] = [];
  /** Messages posted per connection id; connections in `gone` answer 410. */
  readonly posted = new Map<string, unknown[]>();
  /** Calls of the management API per connection id (POST or DELETE, answered or not). */
  readonly calls = new Map<string, number>();
  readonly gone = new Set<string>();
  readonly down = { secrets: false, sqs: false, management: false };
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          // No keep-alive: a client must never reuse a socket the stand-in is closing (a slow machine).
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', connection: 'close', ...headers });
          res.end(body === undefined ? '' : JSON.stringify(body));
        };
        const target = String(req.headers['x-amz-target'] ?? '');
        const unavailable = () =>
          reply(
            503,
            { __type: 'ServiceUnavailable', message: 'stand-in down' },
            { 'x-amzn-errortype': 'ServiceUnavailable' },
          );
        if (target.startsWith('secretsmanager.')) {
          if (this.down.secrets) return unavailable();
          const { SecretId, VersionStage } = JSON.parse(raw) as { SecretId: string; VersionStage?: string };
          const value = this.secrets.get(SecretId);
          if (!value || (VersionStage && VersionStage !== 'AWSCURRENT'))
            return reply(
              400,
              { __type: 'ResourceNotFoundException', message: 'no such version' },
              { 'x-amzn-errortype': 'ResourceNotFoundException' },
            );
          return reply(200, {
            ARN: SecretId,
            Name: SecretId,
            SecretString: value,
            VersionId: 'v1',
            VersionStages: ['AWSCURRENT'],
          });
        }
        if (target === 'AmazonSQS.SendMessageBatch') {
          if (this.down.sqs) return unavailable();
          const { Entries } = JSON.parse(raw) as { Entries: { Id: string; MessageBody: string }[] };
          const Successful = Entries.map((e) => {
            const id = randomUUID();
            this.queue.push({ id, body: e.MessageBody });
            return { Id: e.Id, MessageId: id, MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex') };
          });
          return reply(200, { Successful, Failed: [] });
        }
        const m = /^\/@connections\/([^/?]+)$/.exec(req.url ?? '');
        if (m) {
          const id = decodeURIComponent(m[1]);
          this.calls.set(id, (this.calls.get(id) ?? 0) + 1);
          if (this.down.management) return reply(503, { message: 'stand-in down' });
          if (this.gone.has(id)) return reply(410, { message: 'gone' }, { 'x-amzn-errortype': 'GoneException' });
          if (req.method === 'DELETE') {
            this.gone.add(id);
            return reply(204, undefined);
          }
          this.posted.set(id, [...(this.posted.get(id) ?? []), JSON.parse(raw)]);
          return reply(200, {});
        }
        reply(400, { __type: 'UnknownOperation', message: `${req.method} ${req.url} ${target}` });
      });
    });
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Takes every queued message (as the SQS event source would, in batches of 10). */
  take(): Message[][] {
    const all = this.queue.splice(0);
    const batches: Message[][] = [];
    for (let i = 0; i < all.length; i += 10) batches.push(all.slice(i, i + 10));
    return batches;
  }

  stop(): Promise<void> {
    if (!this.server) return Promise.resolve(); // never started (a failed set-up)
    return new Promise((ok) => this.server.close(() => ok()));
  }
}

/** The script of a container: imports index.mjs from its folder once, then answers one invocation per stdin line. */
const RUNNER = `
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
const { handler } = await import(pathToFileURL(process.argv[1] + '/index.mjs').href);
for await (const line of createInterface({ input: process.stdin })) {
  const { id, event } = JSON.parse(line);
  const context = { awsRequestId: id, functionName: 'harness', getRemainingTimeInMillis: () => 10000 };
  let out;
  try { out = { id, result: await handler(event, context) }; } catch (e) { out = { id, error: String(e && e.message || e) }; }
  process.stdout.write('\\n@@' + JSON.stringify(out) + '\\n');
}`;

/** One Lambda container: the bundle alone in its folder, in a Node process of its own. */
export class Container {
  private proc: ChildProcessWithoutNullStreams;
  private pending = new Map<string, (v: { result?: unknown; error?: string }) => void>();
  private buffer = '';
  stderr = '';
  /** What the container printed besides the harness's own lines (the function's JSON log). */
  stdout = '';

  constructor(fn: SynthesizedFunction, folder: string, env: Record<string, string>) {
    mkdirSync(folder, { recursive: true });
    cpSync(fn.assetDir, folder, { recursive: true });
    this.proc = spawn(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', RUNNER, folder], {
      env: { PATH: process.env.PATH ?? '', ...env },
      cwd: folder,
    });
    this.proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.stdout = (this.stdout + d).slice(-200_000);
      this.buffer += d;
      let i: number;
      while ((i = this.buffer.indexOf('\n@@')) >= 0) {
        const end = this.buffer.indexOf('\n', i + 3);
        if (end < 0) break;
        const out = JSON.parse(this.buffer.slice(i + 3, end)) as { id: string; result?: unknown; error?: string };
        this.buffer = this.buffer.slice(end + 1);
        this.pending.get(out.id)?.(out);
        this.pending.delete(out.id);
      }
    });
    this.proc.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
  }

  /** One invocation: the handler's result, or its error's message. */
  invoke<T = any>(event: unknown): Promise<{ result?: T; error?: string }> {
    const id = randomUUID();
    return new Promise((ok) => {
      this.pending.set(id, ok as never);
      this.proc.stdin.write(`${JSON.stringify({ id, event })}\n`);
    });
  }

  stop(): void {
    this.proc.kill();
  }
}

/** An API Gateway HTTP API (payload 2.0) event of a GraphQL POST. */
export function httpEvent(body: unknown, token?: string | null) {
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
      http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'harness' },
      requestId: randomUUID(),
      routeKey: 'POST /graphql',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

/** The $connect REQUEST authorizer event of the WebSocket API. */
export const authorizerEvent = (token?: string) => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:ws123/live/$connect',
  queryStringParameters: token ? { token } : {},
  headers: {},
  requestContext: { routeKey: '$connect', connectionId: 'c' },
});

/** A WebSocket route event as API Gateway hands it on (the authorizer's context attached). */
export const wsEvent = (
  routeKey: string,
  connectionId: string,
  authorizer: Record<string, string>,
  body?: unknown,
) => ({
  requestContext: { routeKey, connectionId, authorizer, identity: { sourceIp: '203.0.113.8' } },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** An SQS event of these messages (the notice worker's event source). */
export const sqsEvent = (batch: Message[]) => ({
  Records: batch.map((m) => ({
    messageId: m.id,
    receiptHandle: m.id,
    body: m.body,
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:notices',
    awsRegion: 'eu-west-1',
  })),
});

/** The EventBridge scheduled event of the sweep rule. */
export const scheduledEvent = () => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: new Date().toISOString(),
  region: 'eu-west-1',
  resources: [],
  detail: {},
});
