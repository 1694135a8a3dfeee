// Profiles against the real dynalite: a finished game is counted once per player under
// concurrent calls and retries (the commit listener, the sweep's archive step), with its place,
// the characters each played and its entry among the recent games, paged newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countGame } from '../../../functions/api/community/profile.js';
import { getGame } from '../../../functions/api/play/games.js';
import { archiveLog } from '../../../functions/api/ops/retention.js';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const PROFILE = `query($p: ID!, $f: Int, $a: String) { profile(playerId: $p, first: $f, after: $a) {
  playerId name editions { edition played won rating { games } favouriteCharacters { rank name games } }
  recentGames { games { gameId edition place players conceded } pageInfo { hasNextPage endCursor } } } }`;

/** A started classic game of `players`, every human then conceding in `order`: finished. */
async function finished(players: { token: string }[], order: number[]) {
  const id = (
    await t.gql(
      `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
      { i: { edition: 'CLASSIC', seats: players.length } },
      players[0].token,
    )
  ).data.createGame.id as string;
  for (const p of players.slice(1))
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, p.token);
  await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, players[0].token);
  let last: any;
  for (const i of order)
    last = await t.gql(`mutation($g: ID!) { concede(gameId: $g) { status } }`, { g: id }, players[i].token);
  expect(last.data.concede.status).toBe('FINISHED');
  return id;
}

describe('profiles', () => {
  it('count a finished game once per player, with places, characters and the recent games paged', async () => {
    const [anne, mary] = await Promise.all(['Profile Anne', 'Profile Mary'].map((n) => t.signUp(n)));
    // Mary concedes first: she is last, Anne first.
    const g1 = await finished([anne, mary], [1, 0]);
    const rec = (await getGame(t.app.services, g1))!;
    // The listener already counted it; more calls, at once, and the sweep's archive step change nothing.
    await Promise.all([1, 2, 3, 4].map(() => countGame(t.app.services, rec)));
    await archiveLog(t.app.services, g1);
    const p = (await t.gql(PROFILE, { p: anne.playerId })).data.profile;
    expect(p.name).toBe('Profile Anne');
    const classic = p.editions.find((e: { edition: string }) => e.edition === 'CLASSIC');
    expect(classic).toMatchObject({ played: 1, won: 1 });
    const seat = rec.doc.seats.findIndex((s) => s.playerId === anne.playerId);
    const st = rec.doc.state!.seats[seat];
    const played = new Set([...st.den, ...st.graveyard, ...st.out, ...st.kept]);
    expect(classic.favouriteCharacters.length).toBe(Math.min(3, played.size));
    for (const c of classic.favouriteCharacters) {
      expect(played.has(c.rank)).toBe(true);
      expect(c.games).toBe(1);
      expect(c.name.length).toBeGreaterThan(0);
    }
    expect(p.recentGames.games).toEqual([{ gameId: g1, edition: 'CLASSIC', place: 1, players: 2, conceded: true }]);
    const maryClassic = (await t.gql(PROFILE, { p: mary.playerId })).data.profile.editions[0];
    expect(maryClassic).toMatchObject({ edition: 'CLASSIC', played: 1, won: 0 });

    // Two more games: three in all, paged two by two, newest first, never repeated.
    const g2 = await finished([anne, mary], [0, 1]);
    const g3 = await finished([mary, anne], [0, 1]);
    const page1 = (await t.gql(PROFILE, { p: anne.playerId, f: 2 })).data.profile;
    expect(page1.editions[0]).toMatchObject({ played: 3, won: 2 });
    expect(page1.recentGames.games.map((g: { gameId: string }) => g.gameId)).toEqual([g3, g2]);
    expect(page1.recentGames.pageInfo.hasNextPage).toBe(true);
    const page2 = (await t.gql(PROFILE, { p: anne.playerId, f: 2, a: page1.recentGames.pageInfo.endCursor })).data
      .profile;
    expect(page2.recentGames.games.map((g: { gameId: string }) => g.gameId)).toEqual([g1]);
    expect(page2.recentGames.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
  });

  it('answers null for an unknown player and BAD_USER_INPUT for a bad page', async () => {
    expect((await t.gql(PROFILE, { p: 'nobody' })).data.profile).toBeNull();
    const anne = await t.signUp('Profile Bad');
    expect(codeOf(await t.gql(PROFILE, { p: anne.playerId, f: 0 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(PROFILE, { p: anne.playerId, a: 'bogus' }))).toBe('BAD_USER_INPUT');
  });
});
