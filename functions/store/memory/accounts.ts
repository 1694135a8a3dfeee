// The in-memory twin of dynamo/accounts.ts: identities tied once, and unique names whose guest
// claims lapse at `expiresAt` (nothing deletes a lapsed claim: it is only free to claim again,
// as on DynamoDB before its TTL runs).
import type { Operations, Players } from '../ports.js';
import type { NameClaim } from '../records.js';
import { copy, scanPage } from './pages.js';

type Accounts = Pick<
  Players,
  'getIdentity' | 'putIdentity' | 'claimName' | 'renewName' | 'releaseName' | 'getNameClaim'
>;

export function memoryAccounts(): { accounts: Accounts; ops: Pick<Operations, 'scanNameClaims'> } {
  const identities = new Map<string, string>();
  const names = new Map<string, NameClaim>();
  const identity = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);
  const accounts: Accounts = {
    getIdentity: async (issuer, subject) => identities.get(identity(issuer, subject)) ?? null,
    async putIdentity(issuer, subject, playerId) {
      const key = identity(issuer, subject);
      if (identities.has(key)) return false;
      identities.set(key, playerId);
      return true;
    },
    async claimName(nameKey, playerId, claim) {
      const held = names.get(nameKey);
      // A lapsed claim is free at `now` (the condition `expiresAt < now`); a permanent one never.
      const free = !held || held.playerId === playerId || (held.expiresAt !== undefined && held.expiresAt < claim.now);
      if (!free) return false;
      names.set(nameKey, {
        nameKey,
        playerId,
        ...(claim.expiresAt === undefined ? {} : { expiresAt: claim.expiresAt }),
      });
      return true;
    },
    async renewName(nameKey, playerId, expiresAt) {
      const held = names.get(nameKey);
      if (held?.playerId !== playerId || held.expiresAt === undefined) return false;
      held.expiresAt = expiresAt;
      return true;
    },
    async releaseName(nameKey, playerId) {
      if (names.get(nameKey)?.playerId !== playerId) return false;
      return names.delete(nameKey);
    },
    getNameClaim: async (nameKey) => copy(names.get(nameKey) ?? null),
  };
  return {
    accounts,
    ops: {
      async scanNameClaims(limit, cursor) {
        const page = scanPage(names, limit, cursor);
        return { claims: page.items, cursor: page.cursor };
      },
    },
  };
}
