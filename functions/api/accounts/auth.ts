// Bearer tokens. The API is an OAuth 2.0 resource server: it accepts
// - access tokens from the configured OpenID Providers (Cognito on AWS, the local provider of
//   `npm start`), verified with jose against each issuer's JWKS (fetched, cached and refreshed on
//   an interval): signature, issuer, audience (or, for Cognito, whose access tokens carry no `aud`,
//   the resource server's scopes), expiry. A user's token needs the `libertalia/play` scope; a
//   client-credentials token (an integrator site) carries `libertalia/games.create` and/or
//   `libertalia/users.act`;
// - the service's own short-lived HS256 tokens (guests from signUp, and the sessions an
//   integrator obtains for one of its users through actAs), signed by the key ring of
//   functions/api/accounts/keys.ts, with a `kid`, an expiry and the player's token version.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import { unauthenticated } from '../errors.js';
import type { KeyRing, KeySource, SigningKey } from './keys.js';

/** The `iss` of the service's own tokens. */
export const OWN_ISSUER = 'libertalia-online';

/** The resource server's scopes (the same strings on Cognito and the local provider). */
export const SCOPES = {
  play: 'libertalia/play',
  createGames: 'libertalia/games.create',
  actForUsers: 'libertalia/users.act',
} as const;

/** Access tokens of our own are short: a revocation or a key rotation takes effect within this. */
export const ACCESS_TOKEN_SECONDS = 60 * 60;
/** Refresh tokens of our own (guests, site users), renewed at every refresh. */
export const REFRESH_TOKEN_SECONDS = 60 * 24 * 3600;
/** How long a provider's JWKS is trusted before it is fetched again (jose's cacheMaxAge). */
export const JWKS_CACHE_MS = 10 * 60 * 1000;

export interface Player {
  id: string;
  name: string;
}

/** A trusted OpenID Provider. */
export interface IssuerConfig {
  /** Exactly the token's `iss`. */
  issuer: string;
  /** Where its keys are (default `<issuer>/.well-known/jwks.json`, Cognito's). */
  jwksUri?: string;
  /** Or the keys themselves (tests). */
  jwks?: JSONWebKeySet;
  /** Required `aud` of access tokens. Unset (Cognito): the resource server's scopes stand for it. */
  audience?: string;
}

/** Who a verified token speaks for. */
export type Credential =
  /** One of our own tokens: a guest, or a site user acting through its integrator (`clientId`). */
  | { type: 'own'; playerId: string; version: number; clientId: string | null; scopes: string[] }
  /** A provider's user (issuer + subject); `clientId`: the app the user signed in with. */
  | { type: 'user'; issuer: string; subject: string; issuedAt: number; clientId: string | null; scopes: string[] }
  /** An integrator's own client-credentials token. */
  | { type: 'client'; issuer: string; clientId: string; scopes: string[] };

/** jose's expiry error (a signature that checks out, past its `exp`). */
const isExpiry = (e: unknown): boolean => (e as { code?: string } | null)?.code === 'ERR_JWT_EXPIRED';

const scopesOf = (p: JWTPayload): string[] =>
  typeof p.scope === 'string' ? p.scope.split(' ').filter(Boolean) : Array.isArray(p.scp) ? (p.scp as string[]) : [];

export interface Verifier {
  verify(token: string): Promise<Credential>;
  sign(claims: OwnClaims): Promise<string>;
  issuers: IssuerConfig[];
  accessTokenSeconds: number;
}

export interface OwnClaims {
  playerId: string;
  version: number;
  typ: 'access' | 'refresh';
  clientId?: string | null;
  scopes?: string[];
  /** Refresh tokens: the id that rotation records (functions/api/accounts/accounts.ts, refreshSession). */
  jti?: string;
}

/** How long a verified token is trusted by this instance without checking its signature again. */
export const VERIFIED_CACHE_MS = 60_000;
const VERIFIED_CACHE_MAX = 10_000;

type KeySet = ReturnType<typeof createRemoteJWKSet> | ReturnType<typeof createLocalJWKSet>;

/** A provider's keys: the ones configured (tests), else its JWKS fetched, cached and refreshed by jose. */
function keySetOf(c: IssuerConfig): KeySet {
  if (c.jwks) return createLocalJWKSet(c.jwks);
  return createRemoteJWKSet(new URL(c.jwksUri ?? `${c.issuer.replace(/\/$/, '')}/.well-known/jwks.json`), {
    cacheMaxAge: JWKS_CACHE_MS,
    cooldownDuration: 30_000,
    timeoutDuration: 5_000,
  });
}

/**
 * The payload of one of our own tokens, from the first of `keys` that verifies it (HS256, our
 * issuer, `exp` and `sub`); null if none does, `expired` if one refused it as past its expiry.
 */
async function ownPayload(
  token: string,
  keys: SigningKey[],
  now: Date,
): Promise<{ payload: JWTPayload | null; expired: boolean }> {
  let expired = false;
  for (const k of keys) {
    try {
      const options = { algorithms: ['HS256'], issuer: OWN_ISSUER, currentDate: now, requiredClaims: ['exp', 'sub'] };
      return { payload: (await jwtVerify(token, k.secret, options)).payload, expired };
    } catch (e) {
      expired ||= isExpiry(e); // then the next key
    }
  }
  return { payload: null, expired };
}

/** The `kid` of a token's header (undefined: none), or UNAUTHENTICATED `malformed`. */
function kidOfToken(token: string, what: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return unauthenticated(`malformed ${what}`, 'malformed');
  }
}

/** One of our access tokens: a guest's or a site user's session. */
async function verifyOwn(token: string, ring: KeyRing, now: Date): Promise<Credential> {
  const kid = kidOfToken(token, 'token');
  // Tokens made before key ids (180-day tokens of the first version) have no kid: try each key.
  const candidates = kid === undefined ? ring.all : ring.all.filter((k) => k.kid === kid);
  if (candidates.length === 0) unauthenticated('token signed by an unknown or retired key');
  const { payload, expired } = await ownPayload(token, candidates, now);
  if (payload) return ownCredential(payload);
  return expired
    ? unauthenticated('token expired: get a new one (refreshSession, or actAs again for a site user)', 'expired')
    : unauthenticated('invalid token');
}

/** Who a verified access token of ours speaks for. */
function ownCredential(payload: JWTPayload): Credential {
  if (payload.typ !== undefined && payload.typ !== 'access') unauthenticated('not an access token');
  const version = payload.ver === undefined ? 0 : payload.ver;
  if (typeof version !== 'number') unauthenticated('bad token version');
  const clientId = typeof payload.client_id === 'string' ? payload.client_id : null;
  return {
    type: 'own',
    playerId: payload.sub as string,
    version: version as number,
    clientId,
    scopes: scopesOf(payload),
  };
}

/** A provider's access token, checked against its keys (signature, issuer, audience, expiry). */
async function verifyProvider(token: string, c: IssuerConfig, keys: KeySet, now: Date): Promise<Credential> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
      issuer: c.issuer,
      audience: c.audience,
      currentDate: now,
      requiredClaims: ['exp', 'iat'],
    }));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_JWT_EXPIRED')
      return unauthenticated('token expired: get a new one (refreshSession, or sign in again)', 'expired');
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED')
      return unauthenticated(`token refused: ${(e as { claim?: string }).claim ?? 'claim'} check failed`);
    return unauthenticated('invalid token');
  }
  return providerCredential(payload, c);
}

/** Who a verified provider token speaks for: an integrator's client, or a user with the play scope. */
function providerCredential(payload: JWTPayload, c: IssuerConfig): Credential {
  // Cognito marks access tokens `token_use: access`; an ID token is never a bearer credential.
  if (payload.token_use !== undefined && payload.token_use !== 'access') unauthenticated('not an access token');
  const scopes = scopesOf(payload);
  const clientId =
    typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : null;
  const isClient = clientId !== null && (payload.sub === undefined || payload.sub === clientId);
  if (isClient) {
    if (!scopes.some((s) => s === SCOPES.createGames || s === SCOPES.actForUsers))
      unauthenticated('this client token has no libertalia scope');
    return { type: 'client', issuer: c.issuer, clientId: clientId!, scopes };
  }
  if (typeof payload.sub !== 'string') unauthenticated('token without subject');
  if (!scopes.includes(SCOPES.play)) unauthenticated(`token without the ${SCOPES.play} scope`);
  return {
    type: 'user',
    issuer: c.issuer,
    subject: payload.sub as string,
    issuedAt: payload.iat as number,
    clientId,
    scopes,
  };
}

/**
 * The service's own tokens verified recently by this instance: a client's next requests (or a
 * flood of them) cost a map lookup and a look at the key ring, not a signature check. Until the
 * token's own expiry, at most VERIFIED_CACHE_MS, and only while its key is still in the ring (a
 * retired key's tokens stop at once); revocation is checked on the player record after this
 * (resolvePlayer), never cached here. Provider tokens are verified every time.
 */
function verifiedTokens(keys: KeySource, now: () => Date) {
  const verified = new Map<string, { credential: Credential; kid: string; exp: number; at: number }>();
  return {
    /** The credential of a token verified recently, if its key is still in the ring. */
    async hit(token: string): Promise<Credential | null> {
      const hit = verified.get(token);
      if (!hit || now().getTime() >= hit.exp || performance.now() - hit.at >= VERIFIED_CACHE_MS) return null;
      const ring = await keys();
      return ring.all.some((k) => k.kid === hit.kid) ? hit.credential : null;
    },
    remember(token: string, claims: JWTPayload, credential: Credential): void {
      const kid = decodeProtectedHeader(token).kid;
      if (typeof claims.exp !== 'number' || kid === undefined) return;
      if (verified.size >= VERIFIED_CACHE_MAX) verified.delete(verified.keys().next().value!);
      verified.set(token, { credential, kid, exp: claims.exp * 1000, at: performance.now() });
    },
  };
}

/** Signs one of our own tokens with the ring's current key. */
async function signOwn(c: OwnClaims, keys: KeySource, now: () => Date, accessSeconds: number): Promise<string> {
  const ring = await keys();
  const iat = Math.floor(now().getTime() / 1000);
  const claims: JWTPayload = { typ: c.typ, ver: c.version };
  if (c.clientId) {
    // RFC 8693 actor claim: the integrator acting for its user.
    claims.client_id = c.clientId;
    claims.act = { sub: c.clientId };
  }
  if (c.scopes?.length) claims.scope = c.scopes.join(' ');
  if (c.jti) claims.jti = c.jti;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', kid: ring.current.kid, typ: 'JWT' })
    .setSubject(c.playerId)
    .setIssuer(OWN_ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (c.typ === 'access' ? accessSeconds : REFRESH_TOKEN_SECONDS))
    .sign(ring.current.secret);
}

export function createVerifier(opts: {
  keys: KeySource;
  issuers: IssuerConfig[];
  now: () => Date;
  accessTokenSeconds?: number;
}): Verifier {
  const accessSeconds = opts.accessTokenSeconds ?? ACCESS_TOKEN_SECONDS;
  const sets = new Map<string, KeySet>();
  const keySet = (c: IssuerConfig) => sets.get(c.issuer) ?? sets.set(c.issuer, keySetOf(c)).get(c.issuer)!;
  const verified = verifiedTokens(opts.keys, opts.now);
  return {
    issuers: opts.issuers,
    accessTokenSeconds: accessSeconds,
    async verify(token) {
      const hit = await verified.hit(token);
      if (hit) return hit;
      let claims: JWTPayload;
      try {
        claims = decodeJwt(token);
      } catch {
        return unauthenticated('malformed token', 'malformed');
      }
      if (claims.iss !== OWN_ISSUER) {
        const c = opts.issuers.find((i) => i.issuer === claims.iss);
        if (!c) return unauthenticated('token from an issuer this API does not trust');
        return verifyProvider(token, c, keySet(c), opts.now());
      }
      const credential = await verifyOwn(token, await opts.keys(), opts.now());
      verified.remember(token, claims, credential);
      return credential;
    },
    sign: (c) => signOwn(c, opts.keys, opts.now, accessSeconds),
  };
}

/** Verifies one of our refresh tokens: the player and the version it was issued for. */
export async function verifyRefresh(
  keys: KeySource,
  token: string,
  now: Date,
): Promise<{ playerId: string; version: number; clientId: string | null; scopes: string[]; jti: string | null }> {
  const ring = await keys();
  const kid = kidOfToken(token, 'refresh token');
  const { payload, expired } = await ownPayload(
    token,
    ring.all.filter((x) => x.kid === kid),
    now,
  );
  if (payload && payload.typ === 'refresh' && typeof payload.ver === 'number')
    return {
      playerId: payload.sub as string,
      version: payload.ver,
      clientId: typeof payload.client_id === 'string' ? payload.client_id : null,
      scopes: scopesOf(payload),
      jti: typeof payload.jti === 'string' ? payload.jti : null,
    };
  return expired
    ? unauthenticated('refresh token expired: sign in again', 'expired')
    : unauthenticated('invalid refresh token');
}

/** The bearer token of an Authorization header (any header-name case), or null. */
export function bearerToken(headers: Record<string, string | undefined>): string | null {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== 'authorization' || !v) continue;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(v);
    return m ? m[1] : '';
  }
  return null;
}
