// `npm start -- --in-memory`: the local server on the store's in-memory adapters (no dynalite, no
// table, nothing on disk) serves the API, the event feed and the local OpenID Provider.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LocalServer, startLocal } from '../../functions/local/server.js';

let s: LocalServer;
beforeAll(async () => {
  s = await startLocal({ port: 0, dataDir: null, memory: true, sweepIntervalMs: 0, rateLimits: false });
});
afterAll(() => s?.close());

const gql = async (query: string, token?: string) => {
  const r = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return (await r.json()) as { data?: any; errors?: unknown[] };
};

it('keeps players, games and their events in memory, with no DynamoDB endpoint', async () => {
  expect(s.endpoint).toBe('');
  expect(s.app.services.store.tableName).toBe('memory');
  const { token } = (await gql(`mutation { signUp(name: "Memory Anne") { token } }`)).data.signUp;
  const game = (await gql(`mutation { createGame(input: { edition: CLASSIC, seats: 3 }) { id status } }`, token)).data
    .createGame;
  expect(game.status).toBe('LOBBY');
  const feed = await fetch(`${s.url}/games/${game.id}/events`);
  const { events } = (await feed.json()) as { events: { type: string }[] };
  expect(events.map((e) => e.type)).toEqual(['gameCreated', 'playerJoined']);
  expect((await gql(`{ me { name } }`, token)).data.me.name).toBe('Memory Anne');
});

it('runs the local OpenID Provider on the memory store', async () => {
  const r = await fetch(`${s.issuer}/.well-known/openid-configuration`);
  expect(r.status).toBe(200);
  expect(((await r.json()) as { issuer: string }).issuer).toBe(s.issuer);
});
