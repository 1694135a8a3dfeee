// npm run ratings:rebuild: every rating computed again from the finished games
// (functions/api/community/rebuild.ts). Against AWS or another endpoint: TABLE_NAME and
// DYNAMODB_ENDPOINT (`aws` for DynamoDB itself) as for the Lambda functions; otherwise the
// local server's store in DATA_DIR (default ./.data), while `npm start` is stopped.
import { join } from 'node:path';
import { rebuildRatings } from '../functions/api/community/rebuild.js';
import { endpointDocumentClient, localDocumentClient, startDynalite } from '../functions/local/dynalite.js';
import { createDynamoStore } from '../functions/store/index.js';

async function main(): Promise<void> {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const local = endpoint ? null : await startDynalite({ path: join(process.env.DATA_DIR ?? '.data', 'dynalite') });
  const client = endpoint ? endpointDocumentClient(endpoint) : localDocumentClient(local!.endpoint);
  const store = createDynamoStore({ tableName: process.env.TABLE_NAME ?? 'libertalia', client });
  try {
    const done = await rebuildRatings(store);
    console.log(JSON.stringify({ rebuilt: done }));
  } finally {
    await local?.close();
  }
}

await main();
