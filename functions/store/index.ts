// The store: small ports by capability (ports.ts), the records they keep (records.ts), and two
// adapters of every port: DynamoDB (dynamo/, the deployed and `npm start` store) and in memory
// (memory/, the fast tests' twin). No game rules: the API folds commits into games.
export type * from './ports.js';
export type * from './records.js';
export { APPLIED_KEPT, COUNTED_KEPT, eventsOf, HEAD_COMMITS, lastSeqOf, parseOutboxId } from './records.js';
export { createDynamoOidcStore, createDynamoStore, type DynamoConfig } from './dynamo/index.js';
export { createPushStore, type PushStoreConfig } from './dynamo/connections.js';
export {
  checkSchema,
  createTable,
  INDEX_SHARDS,
  keys,
  GSI1,
  GSI2,
  GSI3,
  OldSchemaError,
  SCHEMA_VERSION,
  shardOf,
  tableDefinition,
  TTL_ATTRIBUTE,
} from './dynamo/table.js';
