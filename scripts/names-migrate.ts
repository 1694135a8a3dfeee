// npm run names:migrate: moves every name claim to the current key, the confusable skeleton of
// functions/api/accounts/names.ts (functions/api/accounts/migrate-names.ts; docs/accounts.md,
// "Migrating name claims"). Against AWS or another endpoint: TABLE_NAME and DYNAMODB_ENDPOINT
// (`aws` for DynamoDB itself) as for the Lambda functions; otherwise the local server's store in
// DATA_DIR (default ./.data), while `npm start` is stopped. Prints each page's cursor on stderr
// (`--from <cursor>` resumes there) and the report as JSON on stdout; safe to run again.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrateNames } from '../functions/api/accounts/migrate-names.js';
import { endpointDocumentClient, localDocumentClient, startDynalite } from '../functions/local/dynalite.js';
import { createDynamoStore } from '../functions/store/index.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string' } } });
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const local = endpoint ? null : await startDynalite({ path: join(process.env.DATA_DIR ?? '.data', 'dynalite') });
  const client = endpoint ? endpointDocumentClient(endpoint) : localDocumentClient(local!.endpoint);
  const store = createDynamoStore({ tableName: process.env.TABLE_NAME ?? 'libertalia', client });
  try {
    const report = await migrateNames(store, {
      now: Math.floor(Date.now() / 1000),
      from: values.from ?? null,
      onPage: (r) => {
        if (r.cursor)
          console.error(`names:migrate: ${r.players} players, ${r.claims} claims read; resume with --from ${r.cursor}`);
      },
    });
    console.log(JSON.stringify(report, null, 2));
    if (report.collisions.length > 0 || report.changed.length > 0)
      console.error(
        `names:migrate: ${report.collisions.length} collision(s) and ${report.changed.length} player(s) changed during the run: see the report`,
      );
  } finally {
    await local?.close();
  }
}

await main();
