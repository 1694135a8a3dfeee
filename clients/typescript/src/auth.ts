// Tokens for the SDK: every helper returns a TokenProvider (asked before each request), so a
// LibertaliaClient never holds a stale token. Three kinds of callers:
// - a player with an account: an OpenID Provider's tokens (authorization code + PKCE in a browser,
//   see `pkce` and `authorizeUrl`; then `oidcTokens` refreshes the access token with the refresh token);
// - a guest: `guestSession` (signUp, then refreshSession before the one-hour token expires);
// - an integrator site: `clientCredentials` (OAuth 2.0 client credentials at the provider's token
//   endpoint) and `actingFor` (actAs: a session of one of the site's users, renewed as needed).
import { ActAsDocument, RefreshSessionDocument, SignUpDocument } from './generated.js';
import type { LibertaliaClient, TokenProvider } from './client.js';

/** Renew this long before a token expires (clock skew, slow requests). */
const EARLY_MS = 60_000;

interface Cached {
  token: string;
  expiresAt: number;
}

/**
 * A provider that calls `renew` when the cached token is missing or about to expire (one call at
 * a time); `invalidate` drops the cached token (the client calls it when the server refused the
 * token as expired or revoked, e.g. after revokeTokens), so the next request renews it.
 */
function renewing(renew: () => Promise<Cached>, now: () => number = Date.now): TokenProvider {
  let cached: Cached | null = null;
  let inflight: Promise<Cached> | null = null;
  const provider: TokenProvider = async () => {
    if (cached && cached.expiresAt - EARLY_MS > now()) return cached.token;
    inflight ??= renew().finally(() => {
      inflight = null;
    });
    cached = await inflight;
    return cached.token;
  };
  provider.invalidate = () => {
    cached = null;
  };
  return provider;
}

async function tokenEndpoint(
  url: string,
  body: Record<string, string>,
  basic?: { id: string; secret: string },
  doFetch: typeof fetch = fetch,
) {
  const res = await doFetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic
        ? { authorization: `Basic ${btoa(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`)}` }
        : {}),
    },
    body: new URLSearchParams(body).toString(),
  });
  const json = (await res.json()) as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
  if (!res.ok || !json.access_token)
    throw new Error(`token endpoint: ${json.error ?? res.status} ${json.error_description ?? ''}`.trim());
  return {
    accessToken: json.access_token,
    refreshToken: json.refresh_token,
    expiresAt: Date.now() + (json.expires_in ?? 300) * 1000,
  };
}

/** The provider's token endpoint, from its discovery document. */
export async function discoverTokenEndpoint(issuer: string, doFetch: typeof fetch = fetch): Promise<string> {
  const res = await doFetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  const doc = (await res.json()) as { token_endpoint?: string };
  if (!doc.token_endpoint) throw new Error(`no token_endpoint in ${issuer}'s discovery document`);
  return doc.token_endpoint;
}

/**
 * An integrator's own token (OAuth 2.0 client credentials): scopes `libertalia/games.create` and
 * `libertalia/users.act`. On AWS the token endpoint is the Cognito domain's `/oauth2/token`.
 */
export function clientCredentials(opts: {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  fetch?: typeof fetch;
}): TokenProvider {
  const scope = opts.scope ?? 'libertalia/games.create libertalia/users.act';
  return renewing(async () => {
    const t = await tokenEndpoint(
      opts.tokenUrl,
      { grant_type: 'client_credentials', scope },
      { id: opts.clientId, secret: opts.clientSecret },
      opts.fetch,
    );
    return { token: t.accessToken, expiresAt: t.expiresAt };
  });
}

/**
 * A session of one of the site's users (actAs), renewed before it expires. `site` is a client
 * whose token provider is the site's client credentials; `name` is needed the first time.
 */
export function actingFor(site: LibertaliaClient, user: string, name?: string): TokenProvider {
  return renewing(async () => {
    const { actAs } = await site.request(ActAsDocument, { user, name: name ?? null }, { retry: false });
    return { token: actAs.token, expiresAt: Date.parse(actAs.expiresAt as string) };
  });
}

/**
 * Quick play: signs up a guest on `client` and makes the client use (and refresh) its session.
 * Keep `refreshToken` (e.g. in storage) to resume later with `resumeGuest`.
 */
export async function guestSession(client: LibertaliaClient, name: string) {
  const { signUp } = await client.request(SignUpDocument, { name }, { retry: false });
  resumeGuest(client, signUp.refreshToken!, { token: signUp.token, expiresAt: Date.parse(signUp.expiresAt as string) });
  return signUp;
}

/** Uses a guest (or site-user) refresh token: refreshSession before each expiry (the refresh token rotates). */
export function resumeGuest(
  client: LibertaliaClient,
  refreshToken: string,
  first?: Cached,
  onRefresh?: (refreshToken: string) => void,
): void {
  let current = refreshToken;
  let initial = first ?? null;
  // A separate client for refreshSession (no token), so renewing never waits on itself.
  const anonymous = Object.create(client, { token: { value: () => null } }) as LibertaliaClient;
  client.setToken(
    renewing(async () => {
      if (initial) {
        const i = initial;
        initial = null;
        return i;
      }
      const { refreshSession } = await anonymous.request(
        RefreshSessionDocument,
        { refreshToken: current },
        { retry: false },
      );
      current = refreshSession.refreshToken!;
      onRefresh?.(current);
      return { token: refreshSession.token, expiresAt: Date.parse(refreshSession.expiresAt as string) };
    }),
  );
}

/**
 * A player account's tokens from the OpenID Provider (after a browser sign-in, or a refresh token
 * kept by a native app or a bot): the access token is renewed with the refresh token.
 */
export function oidcTokens(opts: {
  tokenUrl: string;
  clientId: string;
  refreshToken: string;
  accessToken?: string;
  expiresAt?: number;
  onRefresh?: (refreshToken: string) => void;
  fetch?: typeof fetch;
}): TokenProvider {
  let refresh = opts.refreshToken;
  let first: Cached | null = opts.accessToken
    ? { token: opts.accessToken, expiresAt: opts.expiresAt ?? Date.now() + 300_000 }
    : null;
  return renewing(async () => {
    if (first) {
      const f = first;
      first = null;
      return f;
    }
    const t = await tokenEndpoint(
      opts.tokenUrl,
      { grant_type: 'refresh_token', refresh_token: refresh, client_id: opts.clientId },
      undefined,
      opts.fetch,
    );
    if (t.refreshToken && t.refreshToken !== refresh) {
      refresh = t.refreshToken;
      opts.onRefresh?.(refresh);
    }
    return { token: t.accessToken, expiresAt: t.expiresAt };
  });
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A PKCE verifier and its S256 challenge (RFC 7636), with Web Crypto (browsers and Node 20+). */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = b64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: b64url(new Uint8Array(digest)) };
}

/** The authorization request URL (code flow + PKCE S256) for a public client. */
export function authorizeUrl(opts: {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  challenge: string;
  state: string;
  prompt?: string;
}): string {
  const q = new URLSearchParams({
    client_id: opts.clientId,
    response_type: 'code',
    redirect_uri: opts.redirectUri,
    scope: opts.scope,
    code_challenge: opts.challenge,
    code_challenge_method: 'S256',
    state: opts.state,
    ...(opts.prompt ? { prompt: opts.prompt } : {}),
  });
  return `${opts.authorizationEndpoint}?${q}`;
}
