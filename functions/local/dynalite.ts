// The embedded DynamoDB-compatible store (dynalite, Apache-2.0) for the local server and tests:
// the same store code talks to it over HTTP with the real AWS SDK; only the endpoint differs.
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';

export interface LocalDynamo {
  endpoint: string;
  close: () => Promise<void>;
}

/** Starts dynalite; `path` persists to a LevelDB folder (in memory without it). Port 0: any free port. */
export async function startDynalite(opts: { path?: string; port?: number; host?: string } = {}): Promise<LocalDynamo> {
  const server = dynalite({ path: opts.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A document client for a local endpoint (dummy credentials: dynalite does not check them). */
export function localDocumentClient(endpoint: string): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * The document client for `DYNAMODB_ENDPOINT`: `aws` means DynamoDB itself (region and
 * credentials from the usual AWS chain); a localhost URL, a local server (dummy credentials);
 * any other URL, that endpoint with the usual credential chain.
 */
export function endpointDocumentClient(endpoint: string): DynamoDBDocumentClient {
  if (endpoint !== 'aws') {
    const host = new URL(endpoint).hostname;
    if (host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]')
      return localDocumentClient(endpoint);
  }
  const base = new DynamoDBClient({ ...(endpoint === 'aws' ? {} : { endpoint }), maxAttempts: 3 });
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}
