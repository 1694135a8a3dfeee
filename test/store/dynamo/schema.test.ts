// The table's schema marker (DynamoDB only). What every port answers is the contract suite's
// (test/store/contract/), run on both adapters.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { checkSchema, OldSchemaError } from '../../../functions/store/index.js';
import { freshTable } from '../../setup/db.js';

describe('schema check', () => {
  it('marks an empty table, accepts it again, and refuses a table written by the first version', async () => {
    const { client: c3, tableName: t3 } = await freshTable('schema');
    await checkSchema(c3, t3);
    await checkSchema(c3, t3);
    const { client: c4, tableName: t4 } = await freshTable('old');
    await c4.send(
      new PutCommand({
        TableName: t4,
        Item: { PK: 'GAME#old', SK: 'GAME', version: 3, doc: '{}', outbox: '[]', requests: '{}' },
      }),
    );
    await expect(checkSchema(c4, t4)).rejects.toThrow(OldSchemaError);
    await expect(checkSchema(c4, t4)).rejects.toThrow(/mv \.data \.data-v1/);
  });
});
