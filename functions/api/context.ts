// Per-request context: the shared services and who is calling. A bad token is remembered,
// not thrown here, so that the resolvers answer it as a typed UNAUTHENTICATED error. `Services`
// and the interfaces it names are in services.ts (types only).
import type { PlayerRecord } from '../store/index.js';
import { bearerToken, type Credential, type Player } from './accounts/auth.js';
import { ApiError } from './errors.js';
import { resolvePlayer } from './accounts/accounts.js';
import { noteRequest } from './http/telemetry.js';
import { principals } from './http/ratelimit.js';
import type { Services } from './services.js';
import type { Charge } from './http/charge.js';

export interface ApiContext {
  services: Services;
  player: Player | null;
  /** The verified token, if one was sent and it is valid. */
  credential: Credential | null;
  /** The player record behind `player` (tokens, kind, issuer). */
  profile: PlayerRecord | null;
  /**
   * The integrator client acting (its client-credentials token, or one of its users' sessions):
   * rate limits key on it as well as on the player. Null for guests and the web app's users.
   */
  clientId: string | null;
  authError: ApiError | null;
  /** The caller's network address (rate limits of anonymous calls), if the entry point knows it. */
  address?: string | null;
  /** The tokens the entry point already took before parsing (app.ts `gate`), if any. */
  admitted?: Partial<Charge>;
  /** The bucket kind the request used last (the rate-limit headers show its state). */
  rateKind?: 'read' | 'write';
}

export async function createContext(
  services: Services,
  headers: Record<string, string | undefined>,
  address: string | null = null,
): Promise<ApiContext> {
  const token = bearerToken(headers);
  const anonymous: ApiContext = {
    services,
    player: null,
    credential: null,
    profile: null,
    clientId: null,
    authError: null,
    address,
  };
  if (token === null) return anonymous;
  try {
    if (token === '') throw new ApiError('UNAUTHENTICATED', 'malformed Authorization header', { reason: 'malformed' });
    const credential = await services.verifier.verify(token);
    const profile = await resolvePlayer(services, credential);
    const player = profile ? { id: profile.id, name: profile.name } : null;
    if (player) noteRequest({ playerId: player.id });
    // Events name the app a user came through (audit); rate limits key on integrators only
    // (their client tokens and their users' sessions), not on the first-party web app.
    const clientId = credential.type === 'user' ? null : credential.clientId;
    const actor = { playerId: player?.id ?? null, clientId: credential.clientId };
    return { services: { ...services, actor }, player, credential, profile, clientId, authError: null, address };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { ...anonymous, authError: e };
  }
}

export type Bucket = 'read' | 'write' | 'signUp' | 'introspection';

/**
 * The per-instance rate limit of one parsed operation, before it runs (charge.ts says what it
 * counts): reads and mutations per principal (player and acting client; the address for anonymous
 * calls), introspection fields per principal, sign-ups per address whatever token is sent.
 * `prepaid`: the tokens the entry point took before parsing (app.ts `gate`). Throws RATE_LIMITED with
 * `retryAfterSeconds` (LIMIT_EXCEEDED if one operation counts more than a whole burst).
 */
export function charge(ctx: ApiContext, c: Charge, prepaid?: Partial<Charge>): void {
  const keys = principals(ctx);
  const { limiters } = ctx.services;
  const less = (b: Bucket, n: number) => Math.max(0, n - (prepaid?.[b] ?? 0));
  if (c.write > 0) ctx.rateKind = 'write';
  else if (c.read > 0) ctx.rateKind ??= 'read';
  // The request's own bucket first: a request refused by a later one still spent its read or write.
  limiters.read.check(keys, 'reads per player', less('read', c.read), c.read);
  limiters.write.check(keys, 'mutations per player', less('write', c.write), c.write);
  limiters.signUp.check([signUpKey(ctx)], 'sign-ups per address', less('signUp', c.signUp), c.signUp);
  limiters.introspection.check(
    keys,
    'introspection fields (__schema, __type) per player',
    less('introspection', c.introspection),
    c.introspection,
  );
}

/** Sign-ups count against the address even when a token is sent (a token is free to get). */
export const signUpKey = (ctx: { address?: string | null }) => `address:${ctx.address ?? 'unknown'}`;

/** Tokens taken outside a parsed operation (REST reads; the pre-parse fee): the same buckets as `charge`. */
export function admit(ctx: ApiContext, bucket: Bucket | Partial<Charge>): void {
  charge(ctx, {
    read: 0,
    write: 0,
    signUp: 0,
    introspection: 0,
    ...(typeof bucket === 'string' ? { [bucket]: 1 } : bucket),
  });
}

/** The caller, or UNAUTHENTICATED (FORBIDDEN for a signed-in account that has no player yet). */
export function requirePlayer(ctx: ApiContext): Player {
  if (ctx.authError) throw ctx.authError;
  if (!ctx.player) {
    if (ctx.credential?.type === 'user')
      throw new ApiError(
        'FORBIDDEN',
        'this account has no player yet: choose a display name with register(name), or link a guest player with linkGuest',
      );
    if (ctx.credential?.type === 'client')
      throw new ApiError('FORBIDDEN', 'a client token acts for one of its users: exchange it with actAs(user) first');
    throw new ApiError(
      'UNAUTHENTICATED',
      'this call needs Authorization: Bearer <token> (sign in, or signUp as a guest)',
      { reason: 'missing' },
    );
  }
  return ctx.player;
}

/** The caller if a token was sent (a bad token is still an error), else null: a spectator. */
export function optionalPlayer(ctx: ApiContext): Player | null {
  if (ctx.authError) throw ctx.authError;
  return ctx.player;
}
