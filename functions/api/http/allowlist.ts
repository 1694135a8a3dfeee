// The operation allowlist, a production option: with it, the API runs only the documents it was
// given (the SDK's and the web app's operations, `npm run allowlist`), whatever else a caller
// sends: GRAPHQL documents off the list answer OPERATION_NOT_ALLOWED before they run. An id is
// the SHA-256 of the document as graphql-js prints it, so whitespace, comments and the
// transport (plain, GET, automatic persisted query) do not matter. Off by default: the API is
// public and introspection and GraphiQL need free-form documents.
import { createHash } from 'node:crypto';
import { type DocumentNode, parse, print } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import { ApiError } from '../errors.js';

/** The id of a document: SHA-256 (hex) of its printed form. */
export const operationId = (document: DocumentNode | string): string =>
  createHash('sha256')
    .update(print(typeof document === 'string' ? parse(document) : document))
    .digest('hex');

/** The allowlist from the environment: `OPERATION_ALLOWLIST`, ids separated by commas or white space; unset or empty: none. */
export function allowlistFromEnv(
  env: Record<string, string | undefined> = process.env,
): ReadonlySet<string> | undefined {
  const ids = (env.OPERATION_ALLOWLIST ?? '').split(/[\s,]+/).filter(Boolean);
  for (const id of ids)
    if (!/^[0-9a-f]{64}$/.test(id))
      throw new Error(
        `OPERATION_ALLOWLIST: ${id.slice(0, 80)} is not a SHA-256 hex id (npm run allowlist prints them)`,
      );
  return ids.length ? new Set(ids) : undefined;
}

/** Refuses every document whose id is not on the list (HTTP 400, before the operation runs). */
export function allowlistPlugin(allowed: ReadonlySet<string>): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document }) {
          if (allowed.has(operationId(document))) return;
          const e = new ApiError(
            'OPERATION_NOT_ALLOWED',
            "this server runs only its listed operations (the SDK's and the web app's): this document is not one of them",
          );
          e.extensions.http = { status: 400, headers: new HeaderMap() };
          throw e;
        },
      };
    },
  };
}
