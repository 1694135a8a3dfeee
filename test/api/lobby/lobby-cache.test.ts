// The open lobby is cached per instance for LOBBY_CACHE_MS (functions/api/lobby/lobby-cache.ts): a
// second call within the window reads nothing from the store; the cache holds only public
// lobbies with a free seat, each caller's view is still rendered for that caller, and a lobby
// change on this instance empties it at once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOBBY_CACHE_MS } from '../../../functions/api/lobby/lobby-cache.js';
import { buildApp } from '../../../functions/api/http/app.js';
import { SIGNING_KEY, type DynamoTestApp, testApp } from '../../setup/app.js';

let t: DynamoTestApp;
let anne: { playerId: string; token: string };
let bob: { playerId: string; token: string };
let cara: { playerId: string; token: string };
const OPEN = `{ openGames { id seatCount me { seat } seats { seat playerId name } } }`;
const PAGE = `query($f: Int) { openGamesPage(first: $f) { games { id me { seat } } pageInfo { hasNextPage } } }`;

beforeAll(async () => {
  t = await testApp({ store: 'dynamodb' });
  [anne, bob, cara] = await Promise.all(['Anne', 'Bob', 'Cara'].map((n) => t.signUp(n)));
});
afterAll(() => {
  vi.useRealTimers();
  return t.close();
});

const create = async (token: string, extra = '') =>
  (await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2${extra} }) { id } }`, {}, token)).data
    .createGame.id as string;

describe('openGames cache', () => {
  it('a second call within the window does not read the store; each caller still gets its own view', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const publicId = await create(anne.token);
    const privateId = await create(anne.token, ', spectators: false');
    const reads = vi.spyOn(t.app.services.store.log, 'listGamesByStatus');
    const batches = vi.spyOn(t.app.services.store.log, 'getGames');
    const asBob = (await t.gql(OPEN, {}, bob.token)).data.openGames;
    expect(reads).toHaveBeenCalledTimes(1);
    const asAnne = (await t.gql(OPEN, {}, anne.token)).data.openGames;
    const asNobody = (await t.gql(OPEN)).data.openGames;
    expect(reads).toHaveBeenCalledTimes(1);
    expect(batches).toHaveBeenCalledTimes(1);
    // Lists read eventually consistent (half the units): nothing is written from them.
    expect(batches).toHaveBeenLastCalledWith(expect.any(Array), false);
    await t.gql(`{ myGamesPage { games { id } } }`, {}, anne.token);
    expect(batches).toHaveBeenLastCalledWith(expect.any(Array), false);
    await t.gql(`{ myGames { id } }`, {}, anne.token);
    expect(batches).toHaveBeenLastCalledWith(expect.any(Array), false);
    batches.mockClear();
    // Private lobbies are never listed, not even to their creator; the public one is, with
    // `me` rendered per caller from the same cached record.
    for (const list of [asBob, asAnne, asNobody]) {
      expect(list.map((g: any) => g.id)).toContain(publicId);
      expect(list.map((g: any) => g.id)).not.toContain(privateId);
    }
    expect(asAnne.find((g: any) => g.id === publicId).me).toEqual({ seat: 0 });
    expect(asBob.find((g: any) => g.id === publicId).me).toBeNull();
    expect(asNobody.find((g: any) => g.id === publicId).me).toBeNull();
    // Pages are cached by their size and cursor.
    await t.gql(PAGE, { f: 5 }, bob.token);
    await t.gql(PAGE, { f: 5 }, cara.token);
    expect(reads).toHaveBeenCalledTimes(2);
    // After the window the store is read again.
    vi.advanceTimersByTime(LOBBY_CACHE_MS + 1);
    await t.gql(OPEN, {}, bob.token);
    expect(reads).toHaveBeenCalledTimes(3);
    reads.mockRestore();
    batches.mockRestore();
  });

  it('a lobby change on this instance empties it: a game that fills up leaves the list at once', async () => {
    const id = await create(anne.token);
    expect((await t.gql(OPEN, {}, cara.token)).data.openGames.map((g: any) => g.id)).toContain(id);
    expect(
      (await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, bob.token)).errors,
    ).toBeUndefined();
    expect((await t.gql(OPEN, {}, cara.token)).data.openGames.map((g: any) => g.id)).not.toContain(id);
    const fresh = await create(cara.token);
    expect((await t.gql(PAGE, { f: 50 }, bob.token)).data.openGamesPage.games.map((g: any) => g.id)).toContain(fresh);
  });

  it('is per instance: another instance on the same table sees a change only after the window', async () => {
    const other = buildApp({ tableName: t.tableName, client: t.client, signingKey: SIGNING_KEY, rateLimits: false });
    await other.apollo.start();
    const viaOther = async () => {
      const r = await other.apollo.executeOperation({ query: OPEN }, { contextValue: await other.context({}) });
      return (r.body as any).singleResult.data.openGames.map((g: any) => g.id) as string[];
    };
    await viaOther();
    const id = await create(anne.token);
    expect(await viaOther()).not.toContain(id);
    vi.advanceTimersByTime(LOBBY_CACHE_MS + 1);
    expect(await viaOther()).toContain(id);
    await other.apollo.stop();
  });
});
