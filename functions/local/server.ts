// `npm start`: the whole service on a laptop. dynalite (embedded, open source) persists under
// ./.data; the signing key is made once and kept there. With LOCAL_IN_MEMORY=1 or --in-memory,
// the in-memory adapters of the store's ports instead (no dynalite; lost on exit).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { buildApp } from '../api/http/app.js';
import { allowlistFromEnv } from '../api/http/allowlist.js';
import { StartError } from './lock.js';
import { siteRatesFromEnv } from '../api/http/ratelimit.js';
import { logger, withRequest } from '../api/http/telemetry.js';
import type { RateConfig } from '../api/http/ratelimit.js';
import { OldSchemaError } from '../store/index.js';
import { requestHandler } from './http.js';
import { createLocalProvider, LOCAL_AUDIENCE, WEB_CLIENT_ID, WEB_SCOPE } from './oidc.js';
import { createLocalPush } from './push.js';
import { answerStarting } from './starting.js';
import { attachSubscriptions, WS_LIMITS } from './subscriptions.js';
import { guardUpgrades } from './upgrade.js';
import { type MailCatcher, startMailCatcher } from './mail.js';
import { dynamoStores, memoryStores } from './stores.js';

export interface LocalOptions {
  port?: number;
  host?: string;
  /** Folder for the LevelDB files and the signing key; null: in memory, fresh key. */
  dataDir?: string | null;
  tableName?: string;
  /** Use this DynamoDB(-compatible) endpoint instead of starting dynalite (tests share one; `aws`: DynamoDB itself). The table is created if missing. */
  endpoint?: string;
  /** The local SMTP server's port (the reminders' mail catcher); default 0: a free one (printed). */
  smtpPort?: number;
  /** How often the sweep runs (deadlines, webhook retries); 0: never. Default 60 s. */
  sweepIntervalMs?: number;
  /** Run the local OpenID Provider at /oidc (default true); false: guest tokens only. */
  oidc?: boolean;
  /** Per-instance rate limits (default: the service's; false: none). */
  rateLimits?: RateConfig;
  /** Keep every record in this process (the store's in-memory adapters; no dynalite, no table). */
  memory?: boolean;
}

export interface LocalServer {
  url: string;
  /** The DynamoDB endpoint ('' with `memory`). */
  endpoint: string;
  server: Server;
  app: ReturnType<typeof buildApp>;
  /** The SMTP server the reminders go to, and what it received. */
  mail: MailCatcher;
  /** The local OpenID Provider's issuer (`<url>/oidc`), or null. */
  issuer: string | null;
  close: () => Promise<void>;
}

function signingKey(dataDir: string | null): string {
  if (process.env.SIGNING_KEY) return process.env.SIGNING_KEY;
  if (dataDir === null) return randomBytes(48).toString('base64url');
  const file = join(dataDir, 'signing-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

/** Listens on `host`:`port`; a port in use is a StartError that says what to do. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      fail(
        e.code === 'EADDRINUSE'
          ? new StartError(
              `port ${port} on ${host} is already in use (another npm start?): stop it, or choose another port with PORT=<port>`,
            )
          : e,
      ),
    );
    server.listen(port, host, () => ok());
  });
}

/** Serves HTTP (the API, then `extra`: the OpenID Provider, the mail catcher) and caps WebSocket upgrades per address. */
function serve(server: Server, app: ReturnType<typeof buildApp>, extra: Parameters<typeof requestHandler>[1]): void {
  server.on('request', requestHandler(app, extra));
  guardUpgrades(server, {
    upgrades: app.services.limiters.upgrade,
    maxOpenPerAddress: app.services.limiters.itemRates ? WS_LIMITS.socketsPerAddress : Number.POSITIVE_INFINITY,
  });
}

/** Runs the sweep every `interval` ms (0: never); `stop` waits for a run under way. */
function sweepEvery(app: ReturnType<typeof buildApp>, interval: number): { stop: () => Promise<void> } {
  let sweeping: Promise<unknown> = Promise.resolve();
  const timer =
    interval > 0
      ? setInterval(() => {
          // Deadlines and repairs; then deliveries whose retry is due (a safety net behind the in-process notice queue).
          sweeping = withRequest({ requestId: 'sweep' }, () => app.sweep().then(() => app.deliverDue())).catch((e) =>
            logger.error('sweep failed', { error: e as Error }),
          );
        }, interval)
      : null;
  timer?.unref();
  return {
    stop: async () => {
      if (timer) clearInterval(timer);
      await sweeping;
    },
  };
}

export async function startLocal(opts: LocalOptions = {}): Promise<LocalServer> {
  const dataDir = opts.dataDir === undefined ? resolve('.data') : opts.dataDir;
  if (dataDir) mkdirSync(join(dataDir, 'dynalite'), { recursive: true });
  // A .data/ (or table) written by the first store version is refused before anything is written.
  const stores = opts.memory
    ? await memoryStores()
    : await dynamoStores({ dataDir, endpoint: opts.endpoint, tableName: opts.tableName ?? 'libertalia' });
  const abandon = async (e: unknown): Promise<never> => {
    await stores.close();
    throw e;
  };
  // Listen first: the OpenID Provider's issuer (and so the API's trusted issuer) is this URL.
  // Until everything below is ready, every request and upgrade gets 503 + Retry-After.
  const server = createServer();
  const ready = answerStarting(server);
  const host = opts.host ?? '127.0.0.1';
  await listen(server, host, opts.port ?? 4000).catch(abandon);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  const oidc = opts.oidc === false ? null : await createLocalProvider({ baseUrl: url, dataDir, store: stores.oidc });
  // Webhooks to localhost are fine on a laptop (and in tests); the AWS handlers refuse them.
  const push = createLocalPush();
  // A real SMTP server for the reminders (local/mail.ts): what it receives is kept in <data>/mail.
  const mail = await startMailCatcher({ port: opts.smtpPort ?? 0, dir: dataDir ? join(dataDir, 'mail') : null });
  const app = buildApp({
    ...stores.app,
    signingKey: signingKey(dataDir),
    webhooks: { allowPrivateHosts: true },
    issuers: oidc ? [{ issuer: oidc.issuer, audience: LOCAL_AUDIENCE, jwksUri: `${oidc.issuer}/jwks` }] : [],
    webClient: oidc ? { issuer: oidc.issuer, clientId: WEB_CLIENT_ID, scope: WEB_SCOPE } : undefined,
    rateLimits: opts.rateLimits ?? { sites: siteRatesFromEnv() },
    operationAllowlist: allowlistFromEnv(),
    pushGateway: push.gateway,
    mail: { apiUrl: url, webUrl: `${url}/`, mailer: mail.mailer },
  });
  // A player who signs out is signed out of the local provider too (its grants: refresh tokens).
  if (oidc)
    app.services.players.onSessionsEnd((rec) =>
      rec.issuer === oidc.issuer && rec.subject ? oidc.revokeAccount(rec.subject) : undefined,
    );
  await app.apollo.start();
  ready();
  serve(server, app, (req, res) => (oidc?.handle(req, res) ?? false) || mail.handle(req, res));
  const closeSubscriptions = attachSubscriptions(server, app);
  const closePush = push.attach(server, app, stores.push);
  const sweeper = sweepEvery(app, opts.sweepIntervalMs ?? 60_000);
  return {
    url,
    issuer: oidc?.issuer ?? null,
    endpoint: stores.endpoint,
    mail,
    server,
    app,
    close: async () => {
      await sweeper.stop();
      app.notices?.close();
      await closeSubscriptions();
      await closePush();
      await mail.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await app.apollo.stop();
      await stores.close();
    },
  };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const inMemory = process.argv.includes('--in-memory') || process.env.LOCAL_IN_MEMORY === '1';
  const local = await startLocal({
    port: Number(process.env.PORT ?? 4000),
    host: process.env.HOST ?? '127.0.0.1',
    dataDir: inMemory ? null : resolve(process.env.DATA_DIR ?? '.data'),
    memory: inMemory && !process.env.DYNAMODB_ENDPOINT,
    tableName: process.env.TABLE_NAME ?? 'libertalia',
    endpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    sweepIntervalMs: Number(process.env.SWEEP_INTERVAL_SECONDS ?? 60) * 1000,
    rateLimits: process.env.RATE_LIMITS === 'off' ? false : undefined,
    smtpPort: Number(process.env.SMTP_PORT ?? 0),
  }).catch((e) => {
    if (!(e instanceof OldSchemaError) && !(e instanceof StartError)) throw e;
    // Data of the first store version: say what to do, change nothing.
    console.error(e.message);
    process.exit(1);
  });
  console.log(
    `Libertalia Online: GraphQL at ${local.url}/graphql, REST at ${local.url}/health and ${local.url}/games/{id}/events`,
  );
  console.log(
    `e-mail: SMTP on 127.0.0.1:${local.mail.port}, received mail at ${local.url}/local/mail and in .data/mail/`,
  );
  console.log(
    process.env.DYNAMODB_ENDPOINT
      ? `store: table ${process.env.TABLE_NAME ?? 'libertalia'} at ${process.env.DYNAMODB_ENDPOINT}`
      : inMemory
        ? 'store: in memory (lost on exit)'
        : `store: ${resolve(process.env.DATA_DIR ?? '.data')}`,
  );
  const stop = () => {
    local.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
