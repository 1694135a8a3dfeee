// Every error code over real HTTP, the limits, the REST routes and the landing page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../functions/api/http/app.js';
import { codeOf } from '../setup/app.js';
import { startServer } from '../setup/http.js';
import { GAME_QUERY, PLAY } from '../setup/play.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const CREATE = `mutation($i: CreateGameInput!) { createGame(input: $i) { id me { hand } } }`;

describe('error codes over HTTP', () => {
  it('answers each typed error with its code and no stack trace', async () => {
    const [a, b, c] = await Promise.all([s.signUp('A'), s.signUp('B'), s.signUp('C')]);
    expect(codeOf(await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }))).toBe('UNAUTHENTICATED');
    expect(codeOf(await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 9 } }, a.token))).toBe('BAD_USER_INPUT');
    expect(codeOf(await s.gql(`mutation { joinGame(gameId: "nope") { id } }`, {}, a.token))).toBe('NOT_FOUND');
    const g = (await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, seed: 'errors' } }, a.token)).data.createGame;
    expect(codeOf(await s.gql(PLAY, { g: g.id, r: 1 }, a.token))).toBe('WRONG_PHASE');
    expect(codeOf(await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: g.id }, b.token))).toBe(
      'FORBIDDEN',
    );
    await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: g.id }, b.token);
    expect(codeOf(await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: g.id }, c.token))).toBe(
      'CONFLICT',
    );
    await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: g.id }, a.token);
    expect(codeOf(await s.gql(PLAY, { g: g.id, r: 99 }, a.token))).toBe('ILLEGAL_MOVE');
    expect(codeOf(await s.gql(PLAY, { g: g.id, r: 1 }, c.token))).toBe('FORBIDDEN');
    const stormy = await s.gql(CREATE, { i: { edition: 'GALECREST', seats: 3, board: 'STORMY' } }, a.token);
    expect(codeOf(stormy)).toBe('NOT_AVAILABLE'); // the stormy tiles are not in the rules data
    expect(codeOf(await s.gql(`{ game(id: "x") { nope } }`))).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(codeOf(await s.gql(`{ game(id: `))).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('refuses bodies over the limit and too many aliases', async () => {
    const big = JSON.stringify({ query: `{ __typename }`, variables: { pad: 'x'.repeat(MAX_BODY_BYTES) } });
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    const aliases = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: openGames { id }`).join(' ')} }`;
    expect(codeOf(await s.gql(aliases))).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('spectators see games without a token; a bad token is refused', async () => {
    const a = await s.signUp('Spect');
    const g = (await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, a.token)).data.createGame;
    const seen = await s.gql(GAME_QUERY, { id: g.id });
    expect(seen.data.game.me).toBeNull();
    expect(codeOf(await s.gql(GAME_QUERY, { id: g.id }, 'garbage'))).toBe('UNAUTHENTICATED');
  });
});

describe('REST routes and landing page', () => {
  it('serves health, the event log with optional auth, 404 for unknown API routes', async () => {
    const a = await s.signUp('Rest');
    const g = (await s.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, a.token)).data.createGame;
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as any).status).toBe('ok');
    const ev = await fetch(`${s.url}/games/${g.id}/events?after=0`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(ev.status).toBe(200);
    expect(((await ev.json()) as any).events.map((e: any) => e.type)).toEqual(['gameCreated', 'playerJoined']);
    expect((await fetch(`${s.url}/games/nope/events`)).status).toBe(404);
    expect((await fetch(`${s.url}/games/${g.id}/elsewhere`)).status).toBe(404);
  });

  it('shows the landing page to browsers', async () => {
    const res = await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});
