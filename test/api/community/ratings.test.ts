// Ratings against the real dynalite: a rated game updates each player's rating exactly once
// (concurrent calls, retries, the sweep's archive step), with openskill's own values; two games
// sharing a player and rated at once both count; unrated games write nothing.
import { rate, rating } from 'openskill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateFreeForAll, rateGame, ratedPlayers } from '../../../functions/api/community/ratings.js';
import { getGame } from '../../../functions/api/play/games.js';
import { rebuildRatings } from '../../../functions/api/community/rebuild.js';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const CONCEDE = `mutation($g: ID!) { concede(gameId: $g) { status ranking { seat } } }`;

/** A game of `players` (tokens), started; input extras as given. */
async function started(players: { token: string }[], input: Record<string, unknown> = {}) {
  const g = (
    await t.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
      { i: { edition: 'CLASSIC', seats: players.length, ...input } },
      players[0].token,
    )
  ).data.createGame;
  for (const p of players.slice(1))
    expect(
      (await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: g.id }, p.token)).errors,
    ).toBeUndefined();
  expect(
    (
      await t.gql(
        `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { id } }`,
        { g: g.id },
        players[0].token,
      )
    ).errors,
  ).toBeUndefined();
  return g.id as string;
}

/** Every human concedes, in `order` (indexes into players): the bots end the game at once. */
async function concedeAll(id: string, players: { token: string }[], order: number[]) {
  let last: any;
  for (const i of order) {
    last = await t.gql(CONCEDE, { g: id }, players[i].token);
    expect(last.errors).toBeUndefined();
  }
  expect(last.data.concede.status).toBe('FINISHED');
  return last.data.concede.ranking.map((r: { seat: number }) => r.seat) as number[];
}

const store = () => t.app.services.store;
const recOf = async (id: string) => (await getGame(t.app.services, id))!;

describe('ratings', () => {
  it('are applied once per player under concurrent calls and retries, with openskill’s values', async () => {
    const players = await Promise.all(['Rated Anne', 'Rated Mary', 'Rated Jack'].map((n) => t.signUp(n)));
    const id = await started(players);
    const ranking = await concedeAll(id, players, [1, 2, 0]); // Mary gave up first: last
    expect(ranking).toEqual([0, 2, 1]);
    const rec = await recOf(id);
    expect(ratedPlayers(rec)).toEqual(players.map((p) => p.playerId));
    // The end already rated it; five more concurrent calls, then a retry, then the sweep.
    await Promise.all(Array.from({ length: 5 }, () => rateGame(t.app.services, rec)));
    await rateGame(t.app.services, rec);
    await t.app.sweep(new Date(Date.now() + 60_000));

    const expected = rate([[rating()], [rating()], [rating()]], { rank: [1, 3, 2] });
    for (const [seat, p] of players.entries()) {
      const r = (await store().community.getRating(p.playerId, 'classic'))!;
      expect(r.mu).toBeCloseTo(expected[seat][0].mu, 10);
      expect(r.sigma).toBeCloseTo(expected[seat][0].sigma, 10);
      expect(r).toMatchObject({ games: 1, wins: seat === 0 ? 1 : 0, applied: [id], v: 1 });
      const history = await store().community.listRatingHistory(p.playerId, 'classic', 10);
      expect(history.items.map((h) => [h.gameId, h.place])).toEqual([[id, ranking.indexOf(seat) + 1]]);
    }
  });

  it('two games sharing a player, rated at the same moment, both count (in one order or the other)', async () => {
    const [anne, mary, jack] = await Promise.all(['Race Anne', 'Race Mary', 'Race Jack'].map((n) => t.signUp(n)));
    const g1 = await started([anne, mary]);
    const g2 = await started([anne, jack]);
    await concedeAll(g1, [anne, mary], [1, 0]); // Anne wins g1
    await concedeAll(g2, [anne, jack], [0, 1]); // Anne loses g2
    // Forget what their ends applied, then rate both at once (and each twice).
    for (const p of [anne, mary, jack]) await store().community.deleteRating(p.playerId, 'classic');
    for (const g of [g1, g2]) await store().community.deleteRatedGame(g);
    const [r1, r2] = await Promise.all([recOf(g1), recOf(g2)]);
    await Promise.all([
      rateGame(t.app.services, r2),
      rateGame(t.app.services, r1),
      rateGame(t.app.services, r2),
      rateGame(t.app.services, r1),
    ]);
    const a = (await store().community.getRating(anne.playerId, 'classic'))!;
    expect(a).toMatchObject({ games: 2, wins: 1, v: 2 });
    expect([...a.applied].sort()).toEqual([g1, g2].sort());
    // Either order: each game rates Anne from her rating at that moment against a fresh opponent.
    const win = (r: { mu: number; sigma: number }) => rateFreeForAll([r, rating()], [0, 1])[0];
    const lose = (r: { mu: number; sigma: number }) => rateFreeForAll([r, rating()], [1, 0])[0];
    const orders = [lose(win(rating())), win(lose(rating()))];
    expect(orders.some((o) => Math.abs(o.mu - a.mu) < 1e-9 && Math.abs(o.sigma - a.sigma) < 1e-9)).toBe(true);
    // The opponents played one game each.
    expect((await store().community.getRating(mary.playerId, 'classic'))!.games).toBe(1);
    expect((await store().community.getRating(jack.playerId, 'classic'))!.games).toBe(1);
  });

  it('a game with a bot seat, a private game and a chosen seed are not rated', async () => {
    const [anne, mary] = await Promise.all(['Unrated Anne', 'Unrated Mary'].map((n) => t.signUp(n)));
    const withBot = await started([anne], { seats: 2 });
    expect((await t.gql(CONCEDE, { g: withBot }, anne.token)).data.concede.status).toBe('FINISHED');
    const privateGame = await started([anne, mary], { spectators: false });
    await concedeAll(privateGame, [anne, mary], [0, 1]);
    const seeded = await started([anne, mary], { seed: 'chosen' });
    await concedeAll(seeded, [anne, mary], [1, 0]);
    for (const id of [withBot, privateGame, seeded]) {
      const rec = await recOf(id);
      expect(ratedPlayers(rec)).toBeNull();
      expect(await rateGame(t.app.services, rec)).toBe(false);
    }
    expect(await store().community.getRating(anne.playerId, 'classic')).toBeNull();
    expect(await store().community.getRating(mary.playerId, 'classic')).toBeNull();
  });

  it('npm run ratings:rebuild computes the same ratings again from the finished games, in the order they ended', async () => {
    const [anne, mary] = await Promise.all(['Rebuilt Anne', 'Rebuilt Mary'].map((n) => t.signUp(n)));
    const g1 = await started([anne, mary]);
    await concedeAll(g1, [anne, mary], [1, 0]);
    const g2 = await started([anne, mary]);
    await concedeAll(g2, [anne, mary], [1, 0]);
    const before = (await store().community.getRating(anne.playerId, 'classic'))!;
    expect(before.games).toBe(2);
    const done = await rebuildRatings(store());
    expect(done.games).toBeGreaterThanOrEqual(2);
    const after = (await store().community.getRating(anne.playerId, 'classic'))!;
    expect(after).toMatchObject({ games: 2, wins: 2, applied: [g1, g2] });
    expect(after.mu).toBeCloseTo(before.mu, 10);
    expect(after.sigma).toBeCloseTo(before.sigma, 10);
  });

  it('the leaderboard pages stably while ratings change, and a player’s history lists their rated games', async () => {
    // Rating items written straight to the store: 30 players with spread-out ratings.
    const ids = Array.from({ length: 30 }, (_, i) => `board-${String(i).padStart(2, '0')}`);
    const put = (id: string, mu: number, v: number) =>
      store().community.putRating(
        {
          playerId: id,
          edition: 'galecrest',
          mu,
          sigma: 2,
          ordinal: mu - 6,
          games: v,
          wins: 0,
          applied: [`g${v}`],
          v,
          updatedAt: new Date().toISOString(),
        },
        v - 1,
        `g${v}`,
      );
    for (const [i, id] of ids.entries()) expect(await put(id, 10 + i, 1)).toBe(true);
    const PAGE = `query($a: String) { leaderboard(edition: GALECREST, first: 7, after: $a) { ratings { playerId rating games edition } pageInfo { hasNextPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; ; page++) {
      const r: any = await t.gql(PAGE, { a: after });
      expect(r.errors).toBeUndefined();
      const entries = r.data.leaderboard.ratings;
      const ratings = entries.map((e: any) => e.rating);
      expect(ratings).toEqual([...ratings].sort((x: number, y: number) => y - x));
      seen.push(...entries.map((e: any) => e.playerId));
      // Meanwhile ratings change: a player already listed drops to the bottom, one not yet listed
      // goes to the top. Nobody else may be skipped or seen twice.
      if (page === 1) {
        expect(await put(seen[0], -50, 2)).toBe(true);
        expect(await put(ids[0], 500, 2)).toBe(true);
      }
      if (!r.data.leaderboard.pageInfo.hasNextPage) break;
      after = r.data.leaderboard.pageInfo.endCursor;
    }
    const movers = new Set([seen[0], ids[0]]);
    const others = seen.filter((id) => !movers.has(id));
    expect(new Set(others).size).toBe(others.length);
    expect(others.sort()).toEqual(ids.filter((id) => !movers.has(id)).sort());
    expect(codeOf(await t.gql(PAGE, { a: 'bm90LWEtY3Vyc29y' }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(`{ leaderboard(edition: CLASSIC, first: 51) { ratings { playerId } } }`))).toBe(
      'BAD_USER_INPUT',
    );

    // A real player's history: the rated games with their places, newest first.
    const [anne, mary] = await Promise.all(['History Anne', 'History Mary'].map((n) => t.signUp(n)));
    const g1 = await started([anne, mary]);
    await concedeAll(g1, [anne, mary], [0, 1]);
    const g2 = await started([anne, mary]);
    await concedeAll(g2, [anne, mary], [1, 0]);
    const h: any = await t.gql(
      `query($p: ID!) { rating(playerId: $p, edition: CLASSIC) { name games wins rating } ratingHistory(playerId: $p, edition: CLASSIC, first: 1) { games { gameId place players } pageInfo { hasNextPage endCursor } } }`,
      { p: anne.playerId },
    );
    expect(h.data.rating).toMatchObject({ name: 'History Anne', games: 2, wins: 1 });
    expect(h.data.ratingHistory.games).toEqual([{ gameId: g2, place: 1, players: 2 }]);
    const next: any = await t.gql(
      `query($p: ID!, $a: String) { ratingHistory(playerId: $p, edition: CLASSIC, first: 1, after: $a) { games { gameId place } pageInfo { hasNextPage } } }`,
      { p: anne.playerId, a: h.data.ratingHistory.pageInfo.endCursor },
    );
    expect(next.data.ratingHistory).toEqual({ games: [{ gameId: g1, place: 2 }], pageInfo: { hasNextPage: false } });
  });
});
