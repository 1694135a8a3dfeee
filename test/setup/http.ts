// End-to-end harness: the real local server (functions/local/server.ts) on a free port, on a
// fresh table of the shared dynalite, and a GraphQL client speaking plain HTTP.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { startLocal } from '../../functions/local/server.js';
import type { GqlResult } from './app.js';
import { uniqueNames } from './names.js';

export async function startServer() {
  const local = await startLocal({
    port: 0,
    dataDir: null,
    endpoint: inject('dynamoEndpoint'),
    tableName: `e2e-${randomUUID().slice(0, 8)}`,
    rateLimits: false,
  });
  async function gql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    token?: string,
  ): Promise<GqlResult<T>> {
    const res = await fetch(`${local.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as GqlResult<T>;
  }
  const nameFor = uniqueNames();
  /** A guest named `base` (or `base 2`, ... when this table already has one: names are unique). */
  async function signUp(base: string): Promise<{ playerId: string; token: string; name: string }> {
    const name = nameFor(base);
    const r = await gql(`mutation($n: String!) { signUp(name: $n) { playerId token } }`, { n: name });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return { ...r.data.signUp, name };
  }
  return { ...local, gql, signUp };
}
