// The community panels in a real browser (headless Chromium via playwright-core, the client built
// with Vite and served by the local server): two browser contexts at a rated 2-player
// classic game (public, server-seeded, both seats human). Anne posts in the chat and Mary sees it
// live (the panel polls its cursor); Mary concedes through the two-step button; Anne concedes
// through GraphQL, which ends the game (the bots play the conceded seats); Anne's new rating then
// shows on the leaderboard, her profile and beside her name at the table. No element sticks out
// at 390 px.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { browserStage, describeInChromium, type Who } from '../setup/browser.js';

const PHONE = { width: 390, height: 844 };

describeInChromium('the community panels in headless Chromium', () => {
  const stage = browserStage();
  const { errors } = stage;

  const gql = <T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> =>
    stage.ok(query, variables, token);

  /** A browser context signed in as the guest, on the game's table (the chat polled every 300 ms). */
  const tableFor = (who: Who, gameId: string, viewport = { width: 1366, height: 768 }) =>
    stage.openTable(who, gameId, { context: { viewport, timezoneId: 'UTC' }, search: '?poll=300', timeout: 20_000 });

  /** Nothing wider than the phone's screen. */
  const fits = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

  it('chats, concedes, ends a rated game and shows the new rating', async () => {
    const [anne, mary] = await Promise.all([stage.guest('Anne Bonny'), stage.guest('Mary Read')]);
    const id = await stage.game(anne, { edition: 'CLASSIC', seats: 2 }, { join: [mary] });
    const [a, b] = await Promise.all([tableFor(anne, id), tableFor(mary, id, PHONE)]);

    // Anne posts by keyboard; Mary's panel shows it without a reload.
    await a.getByLabel('Message', { exact: true }).fill('Fair winds, Mary');
    await a.getByLabel('Message', { exact: true }).press('Enter');
    const line = b.locator('[data-testid=chat-line]', { hasText: 'Fair winds, Mary' });
    await line.waitFor();
    expect(await line.getByRole('button', { name: 'Mute Anne Bonny' }).count()).toBe(1);
    expect(await line.getByRole('button', { name: /^Report message/ }).count()).toBe(1);
    // Hiding is the creator's (Anne's), not Mary's; nobody reports or mutes themself.
    expect(await line.getByRole('button', { name: /^Hide/ }).count()).toBe(0);
    const own = a.locator('[data-testid=chat-line]', { hasText: 'Fair winds, Mary' });
    await own.getByRole('button', { name: /^Hide/ }).waitFor();
    expect(await own.getByRole('button', { name: /^(Mute|Report)/ }).count()).toBe(0);
    expect(await fits(b)).toBe(true);

    // Mary concedes in two steps: the first press only asks.
    await b.getByRole('button', { name: 'Concede…' }).click();
    await b.getByRole('button', { name: 'Keep playing' }).waitFor();
    expect(await fits(b)).toBe(true);
    await b.getByRole('button', { name: 'Yes, concede' }).click();
    await b.getByRole('button', { name: 'Concede…' }).waitFor({ state: 'detached' });
    await a.getByText('(conceded)').first().waitFor();

    // Anne gives up too: every seat is then a bot's, which ends the game at once; Mary gave up
    // first, so she ranks last and Anne wins.
    const { concede } = await gql<{ concede: { status: string; ranking: { seat: number }[] } }>(
      'mutation ($g: ID!) { concede(gameId: $g) { status ranking { seat } } }',
      { g: id },
      anne.token,
    );
    expect(concede.status).toBe('FINISHED');
    expect(concede.ranking.map((r) => r.seat)).toEqual([0, 1]);
    let rating: { rating: number; wins: number } | null = null;
    for (let i = 0; i < 200 && !rating; i++) {
      ({ rating } = await gql<{ rating: { rating: number; wins: number } | null }>(
        'query ($p: ID!) { rating(playerId: $p, edition: CLASSIC) { rating wins } }',
        { p: anne.playerId },
      ));
      if (!rating) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rating?.wins).toBe(1);
    const shown = rating!.rating.toFixed(1);

    // The leaderboard, reached from the header, lists Anne with it; her name opens her profile.
    await a.getByRole('link', { name: 'Leaderboard' }).click();
    const board = a.locator('[data-testid=leaderboard]');
    await board.waitFor();
    expect(await board.getByRole('row', { name: /Anne Bonny/ }).innerText()).toContain(shown);
    await board.getByRole('link', { name: 'Anne Bonny' }).click();
    await a.locator('[data-testid=rating-history] li').first().waitFor();
    expect(await a.locator('[data-testid=rating-history]').innerText()).toContain(`place 1 of 2, rating ${shown}`);
    expect(await a.locator('[data-testid=profile-editions]').innerText()).toContain(`rating ${shown}, 1 played, 1 won`);
    // A recent game opens the finished table (its replay).
    await a.locator('[data-testid=recent-games] a').first().click();
    await a.waitForSelector('[data-testid=table][aria-busy=false]');
    await a.locator('[data-testid=seat-rating]', { hasText: `rating ${shown}` }).waitFor();

    await b.goto(`${stage.local.url}/#/profile/${anne.playerId}`);
    await b.locator('[data-testid=rating-history] li').first().waitFor();
    expect(await fits(b)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);
});
