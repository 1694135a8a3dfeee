// Sign-in for the web client: OpenID Connect authorization code + PKCE against the provider the
// API names in `authConfig` (Cognito on AWS, the local provider of `npm start`), and guest quick
// play (signUp) with its refresh token. Plugs into the app through session.ts's one seam,
// `setTokenSource`: every request asks `currentToken()`, which renews an expiring access token
// with the refresh token first (one renewal at a time, so a rotated refresh token is never
// reused). Each device signs in on its own; the same account is the same player everywhere.
import {
  type AuthConfigQuery,
  AuthConfigDocument,
  LinkDocument,
  MeDocument,
  RefreshDocument,
  RegisterDocument,
  SignUpDocument,
  type TypedDocumentString,
} from './generated';
import { loadSession, saveSession, setTokenSource, type Session } from './session';

interface ProviderTokens {
  issuer: string;
  clientId: string;
  tokenEndpoint: string;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number;
}
interface GuestTokens {
  refreshToken: string;
  expiresAt: number;
}
interface Pending {
  verifier: string;
  state: string;
  next: string;
  issuer: string;
  clientId: string;
  tokenEndpoint: string;
  redirectUri: string;
}
export type AuthConfig = AuthConfigQuery['authConfig'];

const PROVIDER_KEY = 'libertalia.oidc';
const GUEST_KEY = 'libertalia.guest';
const PENDING_KEY = 'libertalia.signin';
/** Renew an access token this long before it expires. */
const EARLY_MS = 60_000;

const read = <T>(store: Storage, key: string): T | null => {
  try {
    const raw = store.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
};
const write = (store: Storage, key: string, v: unknown) =>
  v === null ? store.removeItem(key) : store.setItem(key, JSON.stringify(v));

/** A GraphQL call without the app's token (sign-in steps). */
async function anonymous<R, V>(doc: TypedDocumentString<R, V>, variables: V, token?: string): Promise<R> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: doc.toString(), variables }),
  });
  const body = (await res.json()) as { data?: R; errors?: { message: string; extensions?: { code?: string } }[] };
  if (body.errors?.length)
    throw Object.assign(new Error(body.errors[0].message), { code: body.errors[0].extensions?.code ?? 'ERROR' });
  return body.data as R;
}

async function tokenRequest(endpoint: string, params: Record<string, string>) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  const json = (await res.json()) as {
    access_token?: string;
    refresh_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
  if (!res.ok || !json.access_token)
    throw new Error(`Sign-in failed: ${json.error_description ?? json.error ?? res.status}`);
  return json;
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const random = (n = 32) => b64url(crypto.getRandomValues(new Uint8Array(n)));

let config: Promise<AuthConfig> | null = null;
/** How to sign in (asked once per page load). */
export function authConfig(): Promise<AuthConfig> {
  config ??= anonymous(AuthConfigDocument, {}).then((d) => d.authConfig);
  return config;
}

async function discovery(issuer: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  return (await res.json()) as { authorization_endpoint: string; token_endpoint: string };
}

/** Leaves for the provider's sign-in page; comes back to `next` (a hash route). */
export async function startSignIn(next: string): Promise<void> {
  const c = await authConfig();
  if (!c.issuer || !c.clientId) throw new Error('This server has no sign-in provider: play as a guest.');
  const d = await discovery(c.issuer);
  const verifier = random();
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const pending: Pending = {
    verifier,
    state: random(16),
    next,
    issuer: c.issuer,
    clientId: c.clientId,
    tokenEndpoint: d.token_endpoint,
    redirectUri: `${location.origin}/`,
  };
  write(sessionStorage, PENDING_KEY, pending);
  const q = new URLSearchParams({
    client_id: c.clientId,
    response_type: 'code',
    redirect_uri: pending.redirectUri,
    scope: c.scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: pending.state,
  });
  // OpenID Connect grants offline_access (a refresh token) only with explicit consent.
  if (c.scope.split(' ').includes('offline_access')) q.set('prompt', 'consent');
  location.assign(`${d.authorization_endpoint}?${q}`);
}

/** The provider sent the browser back with a code: exchange it (PKCE) and find the player. */
async function completeSignIn(params: URLSearchParams): Promise<void> {
  const pending = read<Pending>(sessionStorage, PENDING_KEY);
  write(sessionStorage, PENDING_KEY, null);
  history.replaceState(null, '', `/${pending?.next ?? '#/'}`);
  if (!pending || params.get('state') !== pending.state) return; // not ours, or replayed
  const t = await tokenRequest(pending.tokenEndpoint, {
    grant_type: 'authorization_code',
    code: params.get('code')!,
    code_verifier: pending.verifier,
    redirect_uri: pending.redirectUri,
    client_id: pending.clientId,
  });
  const tokens: ProviderTokens = {
    issuer: pending.issuer,
    clientId: pending.clientId,
    tokenEndpoint: pending.tokenEndpoint,
    accessToken: t.access_token!,
    refreshToken: t.refresh_token ?? null,
    expiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
  };
  write(localStorage, PROVIDER_KEY, tokens);
  // A guest session of this browser is kept aside: the name screen offers to link its games.
  const guest = loadSession();
  if (guest)
    write(localStorage, 'libertalia.guest.previous', {
      ...guest,
      refreshToken: read<GuestTokens>(localStorage, GUEST_KEY)?.refreshToken ?? null,
    });
  write(localStorage, GUEST_KEY, null);
  saveSession(null);
  await adoptPlayer(tokens.accessToken);
}

/** Signed in with the provider: the player of the account, or null until a name is chosen. */
async function adoptPlayer(accessToken: string): Promise<Session | null> {
  const { me } = await anonymous(MeDocument, {}, accessToken);
  if (!me?.playerId) return null;
  const s = { playerId: me.playerId, name: me.name!, token: accessToken };
  saveSession(s);
  return s;
}

/** Signed in with the provider but no player yet (the name screen shows). */
export const needsName = (): boolean =>
  read<ProviderTokens>(localStorage, PROVIDER_KEY) !== null && loadSession() === null;

/** A guest of this browser from before the sign-in, whose games can be linked. */
export const previousGuest = (): (Session & { refreshToken: string | null }) | null =>
  read(localStorage, 'libertalia.guest.previous');

/** Chooses the account's display name (once), or links the previous guest and its games. */
export async function chooseName(name: string, linkGuest: boolean): Promise<void> {
  const token = await currentToken();
  const guest = linkGuest ? previousGuest() : null;
  const out = guest
    ? (await anonymous(LinkDocument, { g: guest.refreshToken ?? guest.token, n: name || null }, token ?? undefined))
        .linkGuest
    : (await anonymous(RegisterDocument, { n: name }, token ?? undefined)).register;
  // Profile's playerId and name are null only before register, which this just did.
  if (!out.playerId || !out.name) throw new Error('The server did not name the player.');
  if (guest) write(localStorage, 'libertalia.guest.previous', null);
  saveSession({ playerId: out.playerId, name: out.name, token: token ?? '' });
}

/** Quick play: a guest session (a one-hour token renewed with its refresh token). */
export async function playAsGuest(name: string): Promise<void> {
  const { signUp } = await anonymous(SignUpDocument, { name });
  write(localStorage, GUEST_KEY, { refreshToken: signUp.refreshToken, expiresAt: Date.parse(signUp.expiresAt) });
  saveSession({ playerId: signUp.playerId, name: signUp.name, token: signUp.token });
}

/** Forgets this browser's tokens (the provider's own session may remain: the next sign-in is quick). */
export function signOutHere(): void {
  write(localStorage, PROVIDER_KEY, null);
  write(localStorage, GUEST_KEY, null);
  saveSession(null);
}

let renewing: Promise<string | null> | null = null;

/** The bearer token for the next request, renewed first if it is about to expire. */
export async function currentToken(): Promise<string | null> {
  const provider = read<ProviderTokens>(localStorage, PROVIDER_KEY);
  const guest = read<GuestTokens>(localStorage, GUEST_KEY);
  const session = loadSession();
  if (provider) {
    if (provider.expiresAt - EARLY_MS > Date.now() || !provider.refreshToken) return provider.accessToken;
    renewing ??= tokenRequest(provider.tokenEndpoint, {
      grant_type: 'refresh_token',
      refresh_token: provider.refreshToken,
      client_id: provider.clientId,
    })
      .then((t) => {
        const next = {
          ...provider,
          accessToken: t.access_token!,
          refreshToken: t.refresh_token ?? provider.refreshToken,
          expiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
        };
        write(localStorage, PROVIDER_KEY, next);
        return next.accessToken;
      })
      .catch(() => (signOutHere(), null))
      .finally(() => (renewing = null));
    return renewing;
  }
  if (session && guest && guest.expiresAt - EARLY_MS <= Date.now()) {
    renewing ??= anonymous(RefreshDocument, { r: guest.refreshToken })
      .then(({ refreshSession: r }) => {
        write(localStorage, GUEST_KEY, { refreshToken: r.refreshToken, expiresAt: Date.parse(r.expiresAt) });
        saveSession({ ...session, token: r.token });
        return r.token;
      })
      .catch(() => (signOutHere(), null))
      .finally(() => (renewing = null));
    return renewing;
  }
  return session?.token ?? null;
}

/** Before the first screen: finish a sign-in the provider just returned from, and plug in. */
export async function initAuth(): Promise<void> {
  setTokenSource(currentToken);
  const params = new URLSearchParams(location.search);
  if (params.get('code') && params.get('state')) {
    try {
      await completeSignIn(params);
    } catch (e) {
      console.warn('sign-in did not complete', e);
    }
  }
}
