// Per-request context: the shared services and who is calling. A bad token is remembered,
// not thrown here, so that the resolvers answer it as a typed UNAUTHENTICATED error.
import type { Store } from '../store/index.js';
import { bearerToken, type Player, verifyToken } from './auth.js';
import type { GameChanges } from './changes.js';
import { ApiError } from './errors.js';
import type { WebhookConfig } from './webhooks.js';
import { type Limiters, principals } from './ratelimit.js';

export interface Services {
  store: Store;
  signingKey: string;
  now: () => Date;
  webhooks: WebhookConfig;
  changes: GameChanges;
  /** Per-instance rate limits (ratelimit.ts). */
  limiters: Limiters;
}

export interface ApiContext {
  services: Services;
  player: Player | null;
  authError: ApiError | null;
  /** The caller's network address (rate limits of anonymous calls), if the entry point knows it. */
  address?: string | null;
  /** The API client acting for the player (accounts issue), if any: rate limits apply to it too. */
  clientId?: string | null;
}

export async function createContext(services: Services, headers: Record<string, string | undefined>, address: string | null = null): Promise<ApiContext> {
  const token = bearerToken(headers);
  if (token === null) return { services, player: null, authError: null, address };
  try {
    return { services, player: await verifyToken(services.signingKey, token, services.now()), authError: null, address };
  } catch (e) {
    return { services, player: null, authError: e as ApiError, address };
  }
}

/**
 * The per-instance rate limit of one operation, before it runs: reads and mutations per
 * principal (player and acting client; the address for anonymous calls), sign-ups per address.
 * Throws RATE_LIMITED with `retryAfterSeconds`.
 */
export function admit(ctx: ApiContext, kind: 'query' | 'mutation' | 'subscription', fields: readonly string[] = []): void {
  const keys = principals(ctx);
  const { limiters } = ctx.services;
  if (kind === 'mutation' && !ctx.player && fields.includes('signUp')) limiters.signUp.check(keys, 'sign-ups per address');
  else if (kind === 'mutation') limiters.write.check(keys, 'mutations per player');
  else limiters.read.check(keys, 'reads per player');
}

/** The caller, or UNAUTHENTICATED. */
export function requirePlayer(ctx: ApiContext): Player {
  if (ctx.authError) throw ctx.authError;
  if (!ctx.player) throw new ApiError('UNAUTHENTICATED', 'this call needs Authorization: Bearer <token> (see signUp)');
  return ctx.player;
}

/** The caller if a token was sent (a bad token is still an error), else null: a spectator. */
export function optionalPlayer(ctx: ApiContext): Player | null {
  if (ctx.authError) throw ctx.authError;
  return ctx.player;
}
