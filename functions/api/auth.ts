// Bearer tokens: HS256 JWTs (jose) naming the player. The signing key comes from configuration
// (the local server makes one and keeps it; on AWS it is a secret).
import { jwtVerify, SignJWT } from 'jose';
import { ApiError } from './errors.js';

const ISSUER = 'libertalia-online';
/** Correspondence games last weeks; a token outlives a few of them. */
const TOKEN_LIFETIME_SECONDS = 180 * 24 * 3600;

export interface Player {
  id: string;
  name: string;
}

const keyOf = (signingKey: string) => new TextEncoder().encode(signingKey);

export async function signToken(signingKey: string, p: Player, now: Date): Promise<string> {
  // Times from the configured clock (not jose's own), so tests and the server agree.
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ name: p.name })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(p.id)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .sign(keyOf(signingKey));
}

/** The player a token names; UNAUTHENTICATED if it is malformed, forged or expired. */
export async function verifyToken(signingKey: string, token: string, now: Date): Promise<Player> {
  try {
    const { payload } = await jwtVerify(token, keyOf(signingKey), { algorithms: ['HS256'], issuer: ISSUER, currentDate: now });
    if (typeof payload.sub !== 'string' || typeof payload.name !== 'string') throw new Error('claims');
    return { id: payload.sub, name: payload.name };
  } catch {
    throw new ApiError('UNAUTHENTICATED', 'invalid or expired token');
  }
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
