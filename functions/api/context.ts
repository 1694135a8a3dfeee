// Per-request context: the shared services and who is calling. A bad token is remembered,
// not thrown here, so that the resolvers answer it as a typed UNAUTHENTICATED error.
import type { Pusher } from '../push/fanout.js';
import type { Store } from '../store/index.js';
import { bearerToken, type Player, verifyToken } from './auth.js';
import type { GameChanges } from './changes.js';
import { ApiError } from './errors.js';
import { noteRequest } from './telemetry.js';
import type { WebhookConfig } from './webhooks.js';

export interface Services {
  store: Store;
  signingKey: string;
  now: () => Date;
  webhooks: WebhookConfig;
  changes: GameChanges;
  /** Push fan-out ("game X is at version V") when a push gateway is configured. */
  push?: Pusher;
}

export interface ApiContext {
  services: Services;
  player: Player | null;
  authError: ApiError | null;
}

export async function createContext(services: Services, headers: Record<string, string | undefined>): Promise<ApiContext> {
  const token = bearerToken(headers);
  if (token === null) return { services, player: null, authError: null };
  try {
    const player = await verifyToken(services.signingKey, token, services.now());
    noteRequest({ playerId: player.id });
    return { services, player, authError: null };
  } catch (e) {
    return { services, player: null, authError: e as ApiError };
  }
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
