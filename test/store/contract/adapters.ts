// The two adapters of the store's ports, for the one contract suite: every `*.contract.test.ts`
// file runs its cases against each (`describe.each(ADAPTERS)`), so the in-memory twin the fast
// tests use answers exactly as DynamoDB (the real dynalite server) does.
import {
  createDynamoOidcStore,
  createDynamoStore,
  createPushStore,
  type OidcStore,
  type PushStore,
  type Store,
} from '../../../functions/store/index.js';
import {
  createMemoryOidcStore,
  createMemoryPushStore,
  createMemoryStore,
} from '../../../functions/store/memory/index.js';
import { freshTable } from '../../setup/db.js';

export interface Adapter {
  name: 'dynamodb' | 'memory';
  /** A fresh, empty store of this adapter (a new table on the shared dynalite; new maps). */
  make(): Promise<Store>;
}

export const ADAPTERS: Adapter[] = [
  {
    name: 'dynamodb',
    make: async () => {
      const { client, tableName } = await freshTable('contract');
      return createDynamoStore({ client, tableName });
    },
  },
  { name: 'memory', make: async () => createMemoryStore() },
];

/** The two adapters of a port built on its own (push connections, the provider's state). */
export interface PortAdapter<P, C = void> {
  name: 'dynamodb' | 'memory';
  make(config: C): Promise<P>;
}

export const PUSH_ADAPTERS: PortAdapter<PushStore, { maxSubscriptions: number; ttlSeconds: number }>[] = [
  { name: 'dynamodb', make: async (cfg) => createPushStore({ ...(await freshTable('push')), ...cfg }) },
  { name: 'memory', make: async (cfg) => createMemoryPushStore(cfg) },
];

export const OIDC_ADAPTERS: PortAdapter<OidcStore>[] = [
  { name: 'dynamodb', make: async () => createDynamoOidcStore(await freshTable('oidc')) },
  { name: 'memory', make: async () => createMemoryOidcStore() },
];
