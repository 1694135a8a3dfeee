// The in-memory twin of dynamo/oidc.ts: the local OpenID Provider's entries with their lookups by
// uid, grant and account. An entry is never answered past its `expiresAt` (a read then deletes
// it, as the adapter does); payloads are kept as JSON text, so they read back as JSON would.
import type { OidcStore } from '../ports.js';
import type { OidcEntry } from '../records.js';

interface Entry {
  payload: string;
  expiresAt: number;
  consumed?: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const entryKey = (model: string, id: string) => `${model}#${id}`;

export function createMemoryOidcStore(): OidcStore {
  const entries = new Map<string, Entry>();
  /** uid -> the session entry's key, with its own expiry. */
  const uids = new Map<string, { ref: string; expiresAt: number }>();
  /** grant or account -> `<model>#<id>` of its entries (each one's key). */
  const grants = new Map<string, Set<string>>();
  const accounts = new Map<string, Set<string>>();
  const point = (index: Map<string, Set<string>>, owner: string, ref: string) =>
    index.set(owner, (index.get(owner) ?? new Set()).add(ref));
  const read = (ref: string): OidcEntry | null => {
    const e = entries.get(ref);
    if (!e) return null;
    if (e.expiresAt <= nowSeconds()) {
      entries.delete(ref);
      return null;
    }
    return { payload: JSON.parse(e.payload), ...(e.consumed !== undefined ? { consumed: e.consumed } : {}) };
  };
  const revokeGrant = async (grantId: string) => {
    for (const ref of grants.get(grantId) ?? []) entries.delete(ref);
    grants.delete(grantId);
  };
  return {
    async put(model, id, payload, expiresIn) {
      const ref = entryKey(model, id);
      const expiresAt = nowSeconds() + Math.max(1, Math.ceil(expiresIn));
      entries.set(ref, { payload: JSON.stringify(payload), expiresAt });
      if (typeof payload.uid === 'string') uids.set(payload.uid, { ref, expiresAt });
      if (typeof payload.grantId === 'string') point(grants, payload.grantId, ref);
      if ((model === 'Grant' || model === 'Session') && typeof payload.accountId === 'string')
        point(accounts, payload.accountId, ref);
    },
    get: async (model, id) => read(entryKey(model, id)),
    async getByUid(uid) {
      const p = uids.get(uid);
      return p && p.expiresAt > nowSeconds() ? read(p.ref) : null;
    },
    async consume(model, id) {
      const e = entries.get(entryKey(model, id));
      if (e) e.consumed = nowSeconds();
    },
    delete: async (model, id) => void entries.delete(entryKey(model, id)),
    revokeGrant,
    async revokeAccount(accountId) {
      for (const ref of accounts.get(accountId) ?? []) {
        const [model, id] = ref.split('#');
        if (model === 'Grant') await revokeGrant(id);
        entries.delete(ref);
      }
      accounts.delete(accountId);
    },
  };
}
