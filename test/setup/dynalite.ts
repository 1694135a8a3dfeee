// Vitest global setup: ONE in-memory dynalite server for the whole run. Test files create
// their own uniquely named tables on it (see test/setup/db.ts).
import type { TestProject } from 'vitest/node';
import { startDynalite } from '../../functions/local/dynalite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dynamo = await startDynalite();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.close();
}
