// Tokens for tests: one of our own (HS256, as the service signs them) with any claims, and a
// stand-in OpenID Provider (a key pair and its JWKS) to mint provider access tokens at will.
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { OWN_ISSUER, SCOPES, type IssuerConfig } from '../../functions/api/accounts/auth.js';
import { kidOf } from '../../functions/api/accounts/keys.js';

/** A token of ours signed with `secret` (kid set unless `kid: null`), valid 1 h from `now` unless told. */
export async function ownToken(
  secret: string,
  claims: JWTPayload & { sub: string },
  opts: { now?: Date; kid?: string | null; exp?: number | null } = {},
) {
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const jwt = new SignJWT(claims)
    .setProtectedHeader(opts.kid === null ? { alg: 'HS256' } : { alg: 'HS256', kid: opts.kid ?? kidOf(secret) })
    .setIssuer(claims.iss ?? OWN_ISSUER)
    .setIssuedAt(iat);
  if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? iat + 3600);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** A fake provider: its IssuerConfig (JWKS inline) and a function minting its access tokens. */
export async function testIssuer(issuer = 'https://issuer.test', audience: string | undefined = 'libertalia') {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const config: IssuerConfig = { issuer, audience, jwks: { keys: [jwk] } };
  async function token(claims: JWTPayload, opts: { now?: Date; lifetime?: number } = {}) {
    const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
    return new SignJWT({ scope: `openid ${SCOPES.play}`, ...(audience ? { aud: audience } : {}), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(claims.iss ?? issuer)
      .setIssuedAt(claims.iat ?? iat)
      .setExpirationTime(claims.exp ?? iat + (opts.lifetime ?? 3600))
      .sign(privateKey);
  }
  return { config, token };
}
