// Site-wide webhooks: an integrator site registers a URL once, with its client-credentials
// token, and receives the notices of every user it acts for (actAs), whatever their games.
// Registrations live in the client's partition; deliveries go through the same notice worker as
// a player's own webhooks (webhooks.ts `recordDeliveries` finds them through the site user's issuer).
import { SCOPES, type Credential } from '../accounts/auth.js';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import { type Registered, registerOnce } from './webhooks.js';

/** Registrations one site may hold (a site needs one or two: production, staging). */
export const MAX_SITE_WEBHOOKS_PER_CLIENT = 5;

/** The calling site's client id: a client-credentials token with the users.act scope, else FORBIDDEN / UNAUTHENTICATED. */
export function siteClient(credential: Credential | null): string {
  if (!credential)
    throw new ApiError('UNAUTHENTICATED', "site webhooks need the site's client-credentials token", {
      reason: 'missing',
    });
  if (credential.type !== 'client')
    throw new ApiError(
      'FORBIDDEN',
      "site webhooks belong to an integrator site: call with its client-credentials token (a player's own are registerWebhook)",
    );
  if (!credential.scopes.includes(SCOPES.actForUsers))
    throw new ApiError('FORBIDDEN', `this client lacks the ${SCOPES.actForUsers} scope`);
  return credential.clientId;
}

export function registerSiteWebhook(services: Services, clientId: string, url: string): Promise<Registered> {
  return registerOnce(
    services,
    { clientId },
    url,
    null,
    MAX_SITE_WEBHOOKS_PER_CLIENT,
    () =>
      new ApiError(
        'LIMIT_EXCEEDED',
        `at most ${MAX_SITE_WEBHOOKS_PER_CLIENT} site webhooks per client; delete one first (deleteSiteWebhook)`,
        { limit: { name: 'siteWebhooksPerClient', max: MAX_SITE_WEBHOOKS_PER_CLIENT } },
      ),
  );
}
