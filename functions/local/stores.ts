// Where the local server keeps its records: a DynamoDB table (dynalite, persisted under the data
// folder or in memory; or another endpoint), or, with `npm start -- --in-memory`, the in-memory
// adapters of every port (store/memory: no dynalite at all, nothing survives the process).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { join } from 'node:path';
import { pushStoreOf, type StoreConfig } from '../api/http/core.js';
import { CONNECTION_TTL_SECONDS, MAX_SUBSCRIPTIONS } from '../push/protocol.js';
import { checkSchema, createDynamoOidcStore, createTable, type OidcStore, type PushStore } from '../store/index.js';
import { endpointDocumentClient, localDocumentClient, startDynalite } from './dynalite.js';
import { lockDataDir } from './lock.js';

export interface LocalStores {
  /** What buildApp is given: the table, or the ports in memory (with their push store). */
  app: StoreConfig;
  push: PushStore;
  /** The local OpenID Provider's state. */
  oidc: OidcStore;
  /** The DynamoDB endpoint ('' in memory). */
  endpoint: string;
  close: () => Promise<void>;
}

/** Every port in memory (loaded only when asked for: a server on a table never loads the adapters). */
export async function memoryStores(): Promise<LocalStores> {
  const { createMemoryOidcStore, createMemoryPushStore, createMemoryStore } = await import('../store/memory/index.js');
  const push = createMemoryPushStore({ maxSubscriptions: MAX_SUBSCRIPTIONS, ttlSeconds: CONNECTION_TTL_SECONDS });
  return {
    app: { store: createMemoryStore('memory'), pushStore: push },
    push,
    oidc: createMemoryOidcStore(),
    endpoint: '',
    close: async () => {},
  };
}

/**
 * The table (made if missing) at `endpoint`, else on a dynalite of our own (under `dataDir`, locked
 * against a second server; in memory without one). A table written by the first store version is
 * refused (OldSchemaError) before anything is written, and everything opened is closed again.
 */
export async function dynamoStores(opts: {
  dataDir: string | null;
  endpoint?: string;
  tableName: string;
}): Promise<LocalStores> {
  const { dataDir, tableName } = opts;
  const unlock = dataDir && !opts.endpoint ? lockDataDir(dataDir) : () => {};
  const dynamo = opts.endpoint
    ? { endpoint: opts.endpoint, close: async () => {} }
    : await startDynalite(dataDir ? { path: join(dataDir, 'dynalite') } : {});
  const client: DynamoDBDocumentClient = opts.endpoint
    ? endpointDocumentClient(opts.endpoint)
    : localDocumentClient(dynamo.endpoint);
  const close = async () => {
    client.destroy();
    await dynamo.close();
    unlock();
  };
  try {
    await createTable(client as never, tableName);
    await checkSchema(client, tableName);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    app: { tableName, client },
    push: pushStoreOf(client, tableName),
    oidc: createDynamoOidcStore({ client, tableName }),
    endpoint: dynamo.endpoint,
    close,
  };
}
