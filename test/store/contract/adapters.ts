// The two adapters of the store's ports, for the one contract suite: every `*.contract.test.ts`
// file runs its cases against each (`describe.each(ADAPTERS)`), so the in-memory twin the fast
// tests use answers exactly as DynamoDB (the real dynalite server) does.
import { createDynamoStore, type Store } from '../../../functions/store/index.js';
import { createMemoryStore } from '../../../functions/store/memory/index.js';
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
