// Per-test-file helpers: a document client on the shared dynalite and a fresh table.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { localDocumentClient } from '../../functions/local/dynalite.js';
import { createTable } from '../../functions/store/index.js';

export async function freshTable(prefix = 't') {
  const client = localDocumentClient(inject('dynamoEndpoint'));
  const tableName = `${prefix}-${randomUUID().slice(0, 8)}`;
  await createTable(client as never, tableName);
  return { client, tableName };
}
