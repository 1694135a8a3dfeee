// A web app on another origin calls the local server as it calls the stack: the same CORS policy
// (functions/api/http/cors.ts) answers preflights and lets the browser read the pacing headers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CORS } from '../../functions/api/http/cors.js';
import { startServer } from '../setup/http.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const ORIGIN = 'https://site.example';

it('answers a preflight for /graphql with 204 and the policy', async () => {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'OPTIONS',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(['GET', 'POST', 'OPTIONS']);
  expect(res.headers.get('access-control-allow-headers')?.split(',')).toContain('authorization');
  expect(res.headers.get('access-control-max-age')).toBe(String(CORS.maxAgeSeconds));
});

it('lets a cross-origin caller read a GraphQL answer and its rate-limit headers', async () => {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-expose-headers')?.split(',')).toEqual(
    expect.arrayContaining(['retry-after', 'x-ratelimit-remaining']),
  );
});

it('adds the headers to REST answers too, and none to same-origin calls', async () => {
  const cross = await fetch(`${server.url}/health`, { headers: { origin: ORIGIN } });
  expect(cross.headers.get('access-control-allow-origin')).toBe('*');
  const same = await fetch(`${server.url}/health`);
  expect(same.status).toBe(200);
  expect(same.headers.get('access-control-allow-origin')).toBeNull();
});
