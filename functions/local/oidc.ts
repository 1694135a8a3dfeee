// The local OpenID Provider of `npm start`: the certified `oidc-provider` package (node-oidc-provider,
// OpenID Foundation certified), mounted at `/oidc` of the local server, so that local sign-in,
// the tests and the browser test use the same authorization-code + PKCE flow (and client
// credentials for integrators) as Cognito on AWS. Only the login page is ours: dev accounts
// with one shared password, no e-mail sent. Grants, sessions, interactions and refresh tokens
// are kept in the service table through functions/store/oidc.ts (an oidc-provider Adapter), so a
// restart keeps everyone signed in and a flood of sign-in attempts evicts nobody; new
// authorization requests are capped per address (OIDC_LIMITS). The signing key and the cookie
// keys are kept under the data folder so tokens and sign-in cookies survive a restart.
// When a player signs out (revokeTokens), `revokeAccount` deletes the account's grants (their
// refresh tokens) and provider sessions.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Adapter, type AdapterPayload, type ClientMetadata, type Configuration } from 'oidc-provider';
import { SCOPES } from '../api/accounts/auth.js';
import { Limiter } from '../api/http/ratelimit.js';
import type { OidcStore } from '../store/index.js';

/** Where the provider is mounted on the local server. */
export const OIDC_PATH = '/oidc';
/** The `aud` of the local provider's access tokens (the API's resource indicator maps to it). */
export const LOCAL_AUDIENCE = 'libertalia';
/** The web app's public client (no secret; PKCE). */
export const WEB_CLIENT_ID = 'libertalia-web';
/** What the web app asks for: an ID token, a refresh token and the right to play. */
export const WEB_SCOPE = `openid email offline_access ${SCOPES.play}`;
/** Everyone's password on the local provider. */
export const DEV_PASSWORD = 'pirate';
/** The local provider's accounts (any `<name>@example.test` works too). */
export const DEV_ACCOUNTS = ['anne@example.test', 'mary@example.test', 'jack@example.test', 'calico@example.test'];
/** Integrator clients registered on the local provider (client credentials). */
export const DEV_SITES = [
  { clientId: 'dev-site', secret: 'dev-site-secret' },
  { clientId: 'dev-site-2', secret: 'dev-site-2-secret' },
];

const isDevAccount = (email: string) => DEV_ACCOUNTS.includes(email) || /^[a-z0-9._-]{1,40}@example\.test$/.test(email);

async function signingJwk(dataDir: string | null): Promise<JWK> {
  const file = dataDir ? join(dataDir, 'oidc-signing-key.json') : null;
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as JWK;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: `local-${randomBytes(4).toString('hex')}`,
    alg: 'RS256',
    use: 'sig',
  };
  if (file) writeFileSync(file, JSON.stringify(jwk), { mode: 0o600 });
  return jwk;
}

/** The cookie signing keys, kept beside the signing key (a restart keeps the provider's sign-in cookies valid). */
function cookieKeys(dataDir: string | null): string[] {
  const file = dataDir ? join(dataDir, 'oidc-cookie-keys.json') : null;
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as string[];
  const keys = [randomBytes(32).toString('base64url')];
  if (file) writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** Bounds of the local provider (README, Threat model and limits). */
export const OIDC_LIMITS = {
  /** New authorization requests (`GET /oidc/auth`, each an interaction entry) per address: 429 past it. */
  authorizations: { perSecond: 1, burst: 100 },
  /** Seconds an unfinished sign-in (interaction) is kept. */
  interactionSeconds: 600,
};

/** oidc-provider's Adapter on the service table (functions/store/oidc.ts). */
function storeAdapter(store: OidcStore): new (name: string) => Adapter {
  return class StoreAdapter implements Adapter {
    constructor(readonly name: string) {}
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      await store.put(this.name, id, payload as Record<string, unknown>, expiresIn);
    }
    async find(id: string) {
      const e = await store.get(this.name, id);
      return e
        ? ({ ...e.payload, ...(e.consumed !== undefined ? { consumed: e.consumed } : {}) } as AdapterPayload)
        : undefined;
    }
    async findByUid(uid: string) {
      const e = await store.getByUid(uid);
      return e ? (e.payload as AdapterPayload) : undefined;
    }
    async findByUserCode() {
      return undefined; // no device flow
    }
    async consume(id: string) {
      await store.consume(this.name, id);
    }
    async destroy(id: string) {
      await store.delete(this.name, id);
    }
    async revokeByGrantId(grantId: string) {
      await store.revokeGrant(grantId);
    }
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, error: string | null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in: Libertalia Online (local)</title><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#a00}</style></head>
<body><h1>Sign in</h1><p>Local OpenID Provider of <code>npm start</code>. Dev accounts: ${DEV_ACCOUNTS.map((a) => `<code>${a}</code>`).join(', ')} (or any <code>name@example.test</code>); password <code>${DEV_PASSWORD}</code>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${OIDC_PATH}/interaction/${escapeHtml(uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></body></html>`;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
      if (raw.length > 8192) req.destroy();
    });
    req.on('end', () => resolve(new URLSearchParams(raw)));
    req.on('error', reject);
  });
}

export interface LocalProvider {
  issuer: string;
  provider: Provider;
  /** Handles a request under /oidc (true) or leaves it (false). */
  handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The account signed out: its grants (refresh tokens) and provider sessions are deleted. */
  revokeAccount: (accountId: string) => Promise<void>;
}

/** The provider's clients: the web app (public, PKCE, redirected to `redirectUris`) and the dev integrator sites. */
function clientsOf(redirectUris: string[]): ClientMetadata[] {
  return [
    {
      client_id: WEB_CLIENT_ID,
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: redirectUris,
      post_logout_redirect_uris: redirectUris,
    },
    ...DEV_SITES.map((s) => ({
      client_id: s.clientId,
      client_secret: s.secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    })),
  ];
}

/** The one resource, the API at `resource`: the web app's tokens play, the sites' create games and act for users. */
function resourceIndicators(resource: string): NonNullable<Configuration['features']>['resourceIndicators'] {
  return {
    enabled: true,
    defaultResource: () => resource,
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx, indicator, client) => {
      if (indicator !== resource) throw new Error('unknown resource');
      const scope = client.clientId === WEB_CLIENT_ID ? SCOPES.play : `${SCOPES.createGames} ${SCOPES.actForUsers}`;
      return {
        scope,
        audience: LOCAL_AUDIENCE,
        accessTokenFormat: 'jwt',
        accessTokenTTL: 3600,
        jwt: { sign: { alg: 'RS256' } },
      };
    },
  };
}

/** How long each kind of token, grant and session lives (seconds). */
const TTL = {
  AccessToken: 3600,
  ClientCredentials: 3600,
  IdToken: 3600,
  RefreshToken: 60 * 24 * 3600,
  Grant: 60 * 24 * 3600,
  Session: 14 * 24 * 3600,
  Interaction: OIDC_LIMITS.interactionSeconds,
};

/** oidc-provider's configuration: the clients, keys kept under `dataDir`, the store's adapter, PKCE, the API as the resource. */
async function configuration(
  store: OidcStore,
  dataDir: string | null,
  redirectUris: string[],
  resource: string,
): Promise<Configuration> {
  return {
    clients: clientsOf(redirectUris),
    jwks: { keys: [(await signingJwk(dataDir)) as never] },
    adapter: storeAdapter(store),
    cookies: { keys: cookieKeys(dataDir) },
    scopes: ['openid', 'offline_access', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: resourceIndicators(resource),
    },
    ttl: TTL,
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    findAccount: async (_ctx, id) =>
      isDevAccount(id)
        ? { accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true }) }
        : undefined,
    interactions: { url: (_ctx, interaction) => `${OIDC_PATH}/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Sign-in error</title><link rel="icon" href="data:,"><h1>Sign-in error</h1><pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`;
    },
  };
}

const sendHtml = (res: ServerResponse, html: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
};

/** The login prompt: the form, or its answer (a dev account and the shared password: signed in). */
async function login(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string, action?: string) {
  if (req.method !== 'POST' || action !== 'login') return sendHtml(res, loginPage(uid, null));
  const form = await readForm(req);
  const email = (form.get('email') ?? '').trim().toLowerCase();
  if (!isDevAccount(email) || form.get('password') !== DEV_PASSWORD)
    return sendHtml(res, loginPage(uid, 'Unknown dev account or wrong password.'));
  await provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The consent prompt: granted at once (the web app is first-party), every scope and claim it lacks. */
async function consent(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details) {
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** The login form, its answer, and the consent. */
async function interaction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  action: string | undefined,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (details.prompt.name === 'login') return login(provider, req, res, uid, action);
  if (details.prompt.name === 'consent') return consent(provider, req, res, details);
  throw new Error(`unsupported prompt ${details.prompt.name}`);
}

/** An interaction page that failed: an expired or invalid sign-in attempt. */
function interactionFailed(res: ServerResponse, e: unknown): void {
  console.error('sign-in interaction failed', e);
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><title>Sign-in error</title><p>This sign-in attempt expired or is invalid: go back to the app and sign in again.</p>',
  );
}

/** Each authorization request writes an interaction entry: capped per address (429 answered: true). */
function refuseAuthorization(authorizations: Limiter, req: IncomingMessage, res: ServerResponse): boolean {
  const wait = authorizations.take(req.socket.remoteAddress ?? 'unknown');
  if (wait <= 0) return false;
  res.writeHead(429, {
    'content-type': 'text/plain; charset=utf-8',
    'retry-after': String(Math.ceil(wait / 1000)),
  });
  res.end(
    `too many sign-in attempts from this address: at most ${OIDC_LIMITS.authorizations.burst}, then ${OIDC_LIMITS.authorizations.perSecond} per second`,
  );
  return true;
}

/** LocalProvider.handle: our interaction pages, the authorization cap, then the provider itself. */
function handler(provider: Provider): LocalProvider['handle'] {
  const callback = provider.callback();
  const authorizations = new Limiter('oidc-auth', OIDC_LIMITS.authorizations);
  return (req, res) => {
    const url = req.url ?? '/';
    if (url !== OIDC_PATH && !url.startsWith(`${OIDC_PATH}/`) && !url.startsWith(`${OIDC_PATH}?`)) return false;
    const m = /^\/oidc\/interaction\/([A-Za-z0-9_-]+)(?:\/(login))?(?:\?.*)?$/.exec(url);
    if (m) {
      interaction(provider, req, res, m[1], m[2]).catch((e) => interactionFailed(res, e));
      return true;
    }
    if (/^\/oidc\/auth(?:[/?]|$)/.test(url) && refuseAuthorization(authorizations, req, res)) return true;
    // Mounted under /oidc: the provider sees its own paths and derives its mount from originalUrl.
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    req.url = url.slice(OIDC_PATH.length) || '/';
    callback(req, res);
    return true;
  };
}

/**
 * The provider for a server at `baseUrl` (e.g. http://127.0.0.1:4000). `redirectUris`: where the
 * web app may receive its code (the server's own pages, plus the Vite dev server).
 */
export async function createLocalProvider(opts: {
  baseUrl: string;
  dataDir: string | null;
  redirectUris?: string[];
  /** Where its grants, sessions and codes are kept (the service table, or memory). */
  store: OidcStore;
}): Promise<LocalProvider> {
  const store = opts.store;
  const issuer = `${opts.baseUrl}${OIDC_PATH}`;
  const resource = `${opts.baseUrl}/graphql`;
  const alt = opts.baseUrl.replace('://127.0.0.1:', '://localhost:');
  const redirectUris = [
    ...new Set([`${opts.baseUrl}/`, `${alt}/`, 'http://localhost:5173/', ...(opts.redirectUris ?? [])]),
  ];
  const provider = new Provider(issuer, await configuration(store, opts.dataDir, redirectUris, resource));
  provider.proxy = false;
  provider.on('server_error', (_ctx, err) => console.error('local OpenID Provider error', err));
  return {
    issuer,
    provider,
    handle: handler(provider),
    revokeAccount: (accountId) => store.revokeAccount(accountId),
  };
}
