// End to end in a real browser: the reference web client (web/), built with Vite and served by
// the local server, driven by clicks in headless Chromium (Debian's `chromium` package through
// playwright-core; test/setup/browser.ts). Pictures of the lobby, the table, the day played out,
// the end screen and a phone for docs/screenshots when `UPDATE_SCREENSHOTS=1`. Contrast is
// checked by axe-core injected into the page. Each case has its own player and browser context
// and runs alongside the others: their time is mostly waiting on the server and the page.
import type { Locator, Request, WebSocket } from 'playwright-core';
import { type ExpectStatic, it } from 'vitest';
import { browserStage, describeInChromium } from '../setup/browser.js';

const CLASSIC_LOOT = ['chest', 'jewel', 'goods', 'map', 'relic', 'saber', 'officer'];
const GALECREST_LOOT = ['map', 'barrel', 'relic', 'saber', 'amulet', 'hook', 'chest'];
const DESKTOP = { width: 1280, height: 900 };

describeInChromium('reference web client in headless Chromium', () => {
  const stage = browserStage();
  const consoleErrors = stage.errors;
  const gql = <T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> =>
    stage.ok(query, variables, token);

  /** The helpers of one player's page (a new browser context). */
  async function client(expect: ExpectStatic) {
    const page = await stage.page({ context: { viewport: DESKTOP, timezoneId: 'UTC' } });
    // playwright-core has no expect matchers: these wait (up to 15 s) for the page to show it.
    const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });
    const shown = (l: Locator) => l.waitFor({ state: 'visible' });
    const enabled = (l: Locator) => poll(() => l.isEnabled()).toBe(true);
    const hasText = (l: Locator, text: string) => poll(() => l.innerText()).toContain(text);
    const table = () => page.getByTestId('table');
    const version = () => table().getAttribute('data-version');
    const handButtons = () => page.getByTestId('hand').getByRole('button');

    /** Waits until the table shows a newer game version and no request is running. */
    async function waitForChange(before: string | null) {
      // A string: this file is type-checked without the DOM library.
      await page.waitForFunction(
        `(() => { const t = document.querySelector('[data-testid=table]'); return !!t && t.getAttribute('aria-busy') === 'false' && t.getAttribute('data-version') !== ${JSON.stringify(before)}; })()`,
      );
    }

    /** The log position (seq) of the newest "You decide…" line, 0 if none. */
    async function lastDecision(): Promise<number> {
      // The log is grouped by day (newest day first, oldest first within a day): the highest seq.
      const lines = page
        .getByTestId('log')
        .getByRole('listitem')
        .filter({ hasText: /^You decide/ });
      const seqs = await lines.evaluateAll((els) => els.map((e) => Number(e.getAttribute('value'))));
      return Math.max(0, ...seqs);
    }

    async function handCount(): Promise<number> {
      return handButtons().count();
    }

    /** axe-core's colour-contrast rule (WCAG AA) on the page as it is now. */
    const contrast = (where: string) => stage.axeClean(page, `contrast on ${where}`, ['color-contrast']);

    /** Every element within the viewport's width (no sideways scrolling or clipping). */
    async function noClipping(where: string) {
      const wide = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1); }).map((e) => e.tagName + '.' + e.className + ' ' + (e.textContent ?? '').slice(0, 30))`,
      );
      expect(wide, `clipped at phone width on ${where}`).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      // A card's name stays inside its card (100 user units wide): "Quartermaster" once ran past it.
      const spilled = await page.evaluate(
        `[...document.querySelectorAll('.face-name')].filter((t) => t.getBBox().width > 94).map((t) => t.textContent)`,
      );
      expect(spilled, `card names wider than their card on ${where}`).toEqual([]);
    }

    /** The page says "your turn" in the tab title and the favicon badge exactly when it is. */
    async function titleMatchesTurn() {
      const status = (await page.getByTestId('status').textContent()) ?? '';
      const title = await page.title();
      const badge = await page.locator('link[rel=icon]').getAttribute('data-badge');
      if (status.startsWith('Your turn')) {
        expect(title).toMatch(/^● Your turn · /);
        expect(badge).toBe('on');
      } else {
        expect(title).not.toMatch(/^●/);
        expect(badge).toBe('off');
      }
    }

    async function legendHasEveryKind(kinds: string[]) {
      const legend = page.getByTestId('loot-legend');
      await shown(legend);
      expect(
        await legend.locator('li[data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))),
      ).toEqual(kinds);
      for (const kind of kinds) {
        const entry = legend.locator(`li[data-kind="${kind}"]`);
        expect(await entry.locator('[role=img] svg').count()).toBe(1);
        expect(await entry.innerText()).toMatch(/tokens[\s\S]*(doubloon|worth|score|reputation|discard)/);
      }
    }

    /** The day played out: each step, then the changes per player; Close hides it. */
    async function checkDayReplay(shot?: string) {
      const panel = page.getByTestId('day-replay');
      await shown(panel);
      const steps = panel.getByTestId('day-step');
      const next = panel.getByRole('button', { name: /^Next step/ });
      if (await next.count()) {
        const before = await steps.count();
        await next.click();
        await poll(() => steps.count()).toBeGreaterThan(before);
      }
      const all = panel.getByRole('button', { name: 'Show all' });
      if (await all.count()) await all.click();
      const kinds = await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
      expect(kinds.slice(0, 4)).toEqual(['sunrise', 'day', 'dusk', 'night']);
      await hasText(steps.first(), 'Sunrise: ');
      // Each dusk line is one character's pick and what it gave.
      expect(await panel.locator('[data-step=dusk] li').count()).toBeGreaterThan(0);
      await hasText(panel.getByTestId('day-deltas'), 'doubloons');
      if (shot) {
        await tokensLanded();
        await stage.picture(panel, shot);
      }
      await contrast('the day played out');
      await panel.getByRole('button', { name: 'Close' }).click();
      await poll(() => panel.count()).toBe(0);
    }

    /** For a picture: the loot tokens travelling to the dens have landed (none on their way). */
    const tokensLanded = async () => {
      if (stage.picturing) await page.waitForFunction('!document.querySelector("[data-travel]")');
    };

    /**
     * Plays the open game to the end by clicking: the first option of each prompt, otherwise
     * the first card of the hand (clicked, or focused and Enter pressed). Returns what was seen.
     */
    async function playToEnd(shot: string, keyboard = false) {
      const press = async (l: Locator) => {
        if (!keyboard) return l.click();
        await l.focus();
        await page.keyboard.press('Enter');
      };
      const seen = { shrunk: 0, promptsAnswered: 0, cardsPlayed: 0, shot: false, dayReplay: false, namedOptions: 0 };
      const afterAction = async () => {
        // Focus stays on the control that acted, or moves to the next thing to do: never <body>.
        if (keyboard)
          expect(
            await page.evaluate('document.activeElement !== document.body && !!document.activeElement.closest("main")'),
          ).toBe(true);
        await titleMatchesTurn();
        if (!seen.dayReplay && (await page.getByTestId('day-replay').count())) {
          await checkDayReplay(shot.replace('table', 'day-replay'));
          seen.dayReplay = true;
        }
      };
      for (let turn = 0; turn < 300; turn++) {
        await poll(() => table().getAttribute('aria-busy')).toBe('false');
        if ((await table().getAttribute('data-status')) === 'FINISHED') return seen;
        const before = await version();
        const prompt = page.getByTestId('prompt');
        if (await prompt.count()) {
          if (!seen.shot && seen.cardsPlayed > 0) {
            await tokensLanded();
            await stage.picture(page, shot, true);
            seen.shot = true;
          }
          const text = (await prompt.locator('.prompt-text').textContent()) ?? '';
          expect(text.length).toBeGreaterThan(0);
          // Labels as the server wrote them: players by name, never a seat number.
          for (const b of await prompt.getByRole('button').all()) {
            const label = (await b.textContent()) ?? '';
            const id = (await b.getAttribute('data-option')) ?? '';
            expect(label).not.toMatch(/\bseat \d/i);
            // Another seat's card or token (`<seat>:...`; this player holds seat 0): its owner's name.
            const owner = /^(\d+):/.exec(id);
            if (owner && owner[1] !== '0') {
              expect(label).toMatch(/^.+'s /);
              seen.namedOptions++;
            }
          }
          const option = prompt.getByRole('button').first();
          await enabled(option);
          const answeredBefore = await lastDecision();
          await press(option);
          await waitForChange(before);
          // The answer is in the log in words, and that prompt is gone (or a new one is asked).
          await poll(lastDecision).toBeGreaterThan(answeredBefore);
          seen.promptsAnswered++;
          await afterAction();
          continue;
        }
        const cards = handButtons();
        const n = await cards.count();
        const first = cards.first();
        if (n > 0 && (await first.isEnabled())) {
          const name = (await first.locator('strong').textContent()) ?? '';
          const dayBefore = await page.locator('.where').textContent();
          await press(first);
          await waitForChange(before);
          seen.cardsPlayed++;
          // Everyone else is a bot: this choice was the last, so the day ran and the card left the hand.
          await hasText(page.getByTestId('log'), `You choose ${name}.`);
          const status = await table().getAttribute('data-status');
          if (status !== 'FINISHED') {
            const after = await handCount();
            if (after < n) seen.shrunk++;
            expect(await page.locator('.where').textContent()).not.toBe(dayBefore);
          }
          await afterAction();
          continue;
        }
        throw new Error(`nothing to click on turn ${turn}: ${await page.getByTestId('status').textContent()}`);
      }
      throw new Error('the game did not end within 300 clicks');
    }

    async function checkFinished(seats: number) {
      await poll(() => table().getAttribute('data-status')).toBe('FINISHED');
      await shown(page.getByRole('heading', { name: 'Final ranking' }));
      const ranks = page.getByTestId('ranking').getByRole('listitem');
      await poll(() => ranks.count()).toBe(seats);
      await hasText(ranks.first(), '1.');
      await hasText(page.getByTestId('ranking'), '(you)');
      await hasText(page.getByTestId('status'), 'Game over');
      await hasText(page.getByTestId('log'), 'Game over.');
      // Scores explained per round, and how ties are broken (each tie says what decided it).
      const breakdown = page.getByTestId('breakdown');
      await poll(() => breakdown.locator('caption').count()).toBe(3);
      await poll(() => breakdown.locator('tbody tr').count()).toBe(3 * seats);
      await hasText(breakdown, 'Banked');
      await hasText(page.getByTestId('tie-rule'), 'Equal scores');
      const scores = await ranks.evaluateAll((els) =>
        els.map((e) => Number(/— (\d+) points/.exec(e.textContent ?? '')?.[1])),
      );
      const ties = scores.filter((v, i) => i > 0 && v === scores[i - 1]).length;
      expect(await page.getByTestId('tie-reason').count()).toBe(ties);
      // The replay steps through the log: back to the first event, then one forward.
      const replay = page.getByTestId('replay');
      await replay.getByRole('button', { name: /First/ }).click();
      await hasText(replay.getByTestId('replay-event'), 'Game created');
      await shown(replay.getByText(/^Event 1 of \d+$/));
      await replay.getByRole('button', { name: /Next ▶/ }).click();
      await shown(replay.getByText(/^Event 2 of \d+$/));
      await replay.getByRole('button', { name: /Next sunrise/ }).click();
      await hasText(replay.getByTestId('replay-event'), 'Sunrise');
      // The replay draws the island with the table's own parts; the log marks the same event.
      await poll(() => replay.getByTestId('island-scene').locator('g.scene-card').count()).toBeGreaterThanOrEqual(
        seats,
      );
      const current = page.getByTestId('log').locator('li[aria-current=step]');
      await poll(() => current.count()).toBe(1);
      await hasText(current, 'Sunrise');
      await contrast('the end screen');
    }

    async function createGame(opts: {
      edition: string;
      seats: string;
      bots: string;
      board?: string;
      seed: string;
      hours?: string;
    }) {
      await page.getByLabel('Edition').selectOption(opts.edition);
      await page.getByLabel('Seats').selectOption(opts.seats);
      await page.getByLabel('Bots', { exact: true }).selectOption(opts.bots);
      if (opts.board) await page.getByLabel('Board').selectOption(opts.board);
      if (opts.hours) await page.getByLabel('Time limit per decision (hours)').fill(opts.hours);
      await page.getByLabel('Seed (optional)').fill(opts.seed);
      await page.getByRole('button', { name: 'Create game' }).click();
      await enabled(page.getByRole('button', { name: 'Start game' }));
      await poll(() => table().getAttribute('data-status')).toBe('LOBBY');
      const start = await version();
      await page.getByRole('button', { name: 'Start game' }).click();
      await waitForChange(start);
      await poll(() => table().getAttribute('data-status')).toBe('ACTIVE');
    }

    /**
     * Signs in through the local OpenID Provider the way a player does (authorization code +
     * PKCE: the app leaves for the provider's login form and comes back with a code), choosing
     * the account's name on its first sign-in.
     */
    async function signInWithAccount(name: string) {
      const email = `${name.split(' ')[0].toLowerCase()}@example.test`;
      await page.getByRole('button', { name: 'Sign in or create an account' }).click();
      await page.waitForURL(/\/oidc\/interaction\//);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill('pirate');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await chooseNameIfAsked(name);
    }

    /** An account's first sign-in asks for its display name. */
    async function chooseNameIfAsked(name: string) {
      await shown(page.getByRole('heading', { name: /^(Choose your name|Lobby)$/ }).first());
      if (await page.getByRole('heading', { name: 'Choose your name' }).isVisible()) {
        await page.getByLabel('Your name', { exact: true }).fill(name);
        await page.getByRole('button', { name: 'Choose this name' }).click();
      }
    }

    /** Opens the lobby signed in with the account `name` (a first sign-in chooses the name). */
    async function signedIn(name: string) {
      await page.goto(`${stage.local.url}/`);
      await shown(page.getByRole('heading', { name: /^(Sign in|Choose your name|Lobby)$/ }).first());
      if (await page.getByRole('heading', { name: 'Sign in' }).isVisible()) await signInWithAccount(name);
      else await chooseNameIfAsked(name);
      await shown(page.getByRole('heading', { name: 'Lobby' }));
    }

    return {
      page,
      poll,
      shown,
      enabled,
      hasText,
      table,
      version,
      handButtons,
      waitForChange,
      lastDecision,
      handCount,
      contrast,
      noClipping,
      titleMatchesTurn,
      legendHasEveryKind,
      playToEnd,
      checkFinished,
      createGame,
      signInWithAccount,
      signedIn,
    };
  }

  it.concurrent('signs in with PKCE, plays a classic 4-seat game against 3 bots to the end by clicking', async ({
    expect,
  }) => {
    const {
      page,
      poll,
      shown,
      hasText,
      handButtons,
      contrast,
      noClipping,
      titleMatchesTurn,
      legendHasEveryKind,
      playToEnd,
      checkFinished,
      createGame,
      signInWithAccount,
    } = await client(expect);
    await page.goto(`${stage.local.url}/`);
    await shown(page.getByRole('heading', { name: 'Sign in' }));
    await signInWithAccount('Anne Bonny');
    await shown(page.getByRole('heading', { name: 'Lobby' }));
    await shown(page.getByText('Signed in as Anne Bonny'));
    expect(page.url()).not.toContain('code=');

    await createGame({ edition: 'CLASSIC', seats: '4', bots: '3', seed: 'web classic' });
    await poll(() => page.getByTestId('seats').getByRole('row').count()).toBe(5);
    await poll(() => handButtons().count()).toBe(9);
    await shown(page.getByRole('heading', { name: 'Your hand (9 cards)' }));
    await hasText(page.getByTestId('status'), 'Your turn: choose your character for day 1');

    await legendHasEveryKind(CLASSIC_LOOT);
    await titleMatchesTurn();
    await contrast('the classic table');

    const seen = await playToEnd('table-classic.png');
    expect(seen.cardsPlayed).toBe(18);
    expect(seen.shrunk).toBeGreaterThan(10);
    expect(seen.promptsAnswered).toBeGreaterThan(0);
    expect(seen.shot).toBe(true);
    expect(seen.dayReplay).toBe(true);
    await checkFinished(4);
    await titleMatchesTurn();
    await stage.picture(page, 'finished-classic.png', true);

    // The end screen at phone width: nothing clipped, scores still readable.
    await page.setViewportSize({ width: 390, height: 844 });
    await noClipping('the end screen');
    await page.getByTestId('breakdown').scrollIntoViewIfNeeded();
    await stage.picture(page, 'end-phone.png');
    await page.setViewportSize({ width: 1280, height: 900 });
    // Back in the lobby, my games list it as finished.
    await page.getByRole('link', { name: 'Libertalia Online' }).click();
    await shown(page.getByRole('heading', { name: 'Lobby' }));
    await hasText(page.getByTestId('my-games'), 'Finished');
    expect(consoleErrors).toEqual([]);
  }, 180_000); // the sign-in round trip, then a whole game by clicks

  it.concurrent('plays a 2-player Winds of Galecrest game (CALM board) against a bot to the end', async ({
    expect,
  }) => {
    const {
      page,
      poll,
      shown,
      hasText,
      table,
      handButtons,
      contrast,
      noClipping,
      legendHasEveryKind,
      playToEnd,
      checkFinished,
      createGame,
      signedIn,
    } = await client(expect);
    await signedIn('Charlotte Badger');
    // Another player opens a game: the lobby lists it to join.
    const { signUp } = await gql<{ signUp: { token: string } }>('mutation { signUp(name: "Mary Read") { token } }');
    await gql(
      'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
      { i: { edition: 'CLASSIC', seats: 3, bots: 1 } },
      signUp.token,
    );

    await page.getByRole('link', { name: 'Libertalia Online' }).click();
    await shown(page.getByRole('heading', { name: 'Lobby' }));
    await createGame({
      edition: 'GALECREST',
      seats: '2',
      bots: '1',
      board: 'CALM',
      seed: 'web galecrest',
      hours: '24',
    });
    // A time limit: the table counts down (the hand's hint) instead of showing a bare date.
    await poll(() => page.locator('#hand-hint').innerText()).toMatch(/2[34] h \d\d min left/);

    // Back in the lobby: my games say whose turn it is and the time left, Mary's game waits for a player.
    await page.getByRole('link', { name: 'Libertalia Online' }).click();
    await hasText(page.getByTestId('my-games'), 'Your turn');
    await poll(() => page.getByTestId('my-games').getByTestId('countdown').innerText()).toMatch(
      / · 2[34] h \d\d min left$/,
    );
    await poll(() => page.title()).toMatch(/^● Your turn · Lobby/);
    await hasText(page.getByTestId('open-games'), 'Mary Read, free seat, Bot');
    await shown(
      page
        .getByTestId('open-games')
        .getByRole('listitem')
        .filter({ hasText: 'Mary Read' })
        .getByRole('button', { name: 'Join' }),
    );
    await page.getByLabel('Edition').selectOption('GALECREST');
    await shown(page.getByLabel('Board'));
    await stage.picture(page, 'lobby.png', true);
    await page.getByRole('link', { name: 'Winds of Galecrest (calm board), 2 seats' }).click();
    await poll(() => table().getAttribute('data-status')).toBe('ACTIVE');

    await poll(() => handButtons().count()).toBe(6);
    await shown(page.getByRole('heading', { name: 'Reputation track' }));
    await poll(() => page.getByTestId('reputation').getByRole('listitem').count()).toBe(6);
    await hasText(page.getByTestId('reputation'), 'You');

    await legendHasEveryKind(GALECREST_LOOT);
    await hasText(page.getByTestId('reputation'), 'doubloons');

    // Phone width: nothing wider than the screen, the players table included (labelled blocks).
    await page.setViewportSize({ width: 390, height: 844 });
    await noClipping('the Galecrest table');
    await contrast('the Galecrest table at phone width');
    await page.getByTestId('seats').scrollIntoViewIfNeeded();
    await stage.picture(page, 'table-phone.png');
    await page.setViewportSize({ width: 1280, height: 900 });

    // This game is played with the keyboard only: focus a button, press Enter.
    const seen = await playToEnd('table-galecrest.png', true);
    expect(seen.cardsPlayed).toBeGreaterThanOrEqual(15);
    expect(seen.shrunk).toBeGreaterThan(8);
    expect(seen.promptsAnswered).toBeGreaterThan(0);
    expect(seen.dayReplay).toBe(true);
    await checkFinished(2);
    await hasText(page.getByTestId('seats'), 'Reputation');
    expect(consoleErrors).toEqual([]);
  }, 180_000);

  it.concurrent('joins another player’s game, changes the day’s choice, and sees the other player’s move arrive by push', async ({
    expect,
  }) => {
    const { page, poll, shown, hasText, table, version, handButtons, waitForChange, titleMatchesTurn, signedIn } =
      await client(expect);
    await signedIn('Sayyida al Hurra');
    const { signUp } = await gql<{ signUp: { token: string } }>('mutation { signUp(name: "Jack Rackham") { token } }');
    const jack = signUp.token;
    const { createGame } = await gql<{ createGame: { id: string } }>(
      'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
      { i: { edition: 'CLASSIC', seats: 3, bots: 1, seed: 'web two humans' } },
      jack,
    );
    const id = createGame.id;

    const sockets: string[] = [];
    const polls: string[] = [];
    const onSocket = (ws: WebSocket) => sockets.push(ws.url());
    const onRequest = (r: Request) => {
      if (/query GameVersion/.test(r.postData() ?? '')) polls.push(r.url());
    };
    page.on('websocket', onSocket);
    await page.getByRole('link', { name: 'Libertalia Online' }).click();
    const entry = page.getByTestId('open-games').getByRole('listitem').filter({ hasText: 'Jack Rackham' });
    await entry.getByRole('button', { name: 'Join' }).click();
    await poll(() => table().getAttribute('data-status')).toBe('LOBBY');
    await hasText(page.getByTestId('status'), 'Ready to start');
    // From here on what arrives comes by push (the local server's /push: the same protocol and
    // client code as the AWS WebSocket API): the page sends no poll while the socket is open.
    await page.reload();
    await poll(() => table().getAttribute('data-live')).toBe('push');
    // The table opened one socket to /push (and another after the reload), nothing else.
    expect(sockets.map((u) => new URL(u).pathname)).toEqual(['/push', '/push']);
    page.on('request', onRequest);

    // Jack starts the game from elsewhere: the page is told at once.
    await gql('mutation ($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, jack);
    await poll(() => table().getAttribute('data-status')).toBe('ACTIVE');
    await poll(() => handButtons().count()).toBe(9);

    const [a, b] = [handButtons().nth(0), handButtons().nth(1)];
    const nameB = (await b.locator('strong').textContent()) ?? '';
    await titleMatchesTurn();
    expect(await page.title()).toMatch(/^● Your turn/);
    let before = await version();
    // Keyboard: the card that acted keeps the focus through the request and the redraw.
    const keyA = await a.getAttribute('data-key');
    await a.focus();
    await page.keyboard.press('Enter');
    await waitForChange(before);
    await hasText(page.getByTestId('status'), 'Waiting for Jack Rackham');
    expect(await a.getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate('document.activeElement?.getAttribute("data-key")')).toBe(keyA);
    await titleMatchesTurn();
    expect(await page.title()).not.toMatch(/^●/);
    // Still changeable: Jack has not chosen yet.
    before = await version();
    await b.click();
    await waitForChange(before);
    expect(await b.getAttribute('aria-pressed')).toBe('true');
    expect(await a.getAttribute('aria-pressed')).toBe('false');
    await hasText(page.getByTestId('log'), `You change your choice to ${nameB}.`);
    await poll(() => handButtons().count()).toBe(9);

    // Jack's choice is the last one: the day runs, and the page shows it without a click (push).
    const { game } = await gql<{ game: { me: { hand: number[] } } }>(
      'query ($g: ID!) { game(id: $g) { me { hand } } }',
      { g: id },
      jack,
    );
    await gql(
      'mutation ($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }',
      { g: id, r: game.me.hand[0] },
      jack,
    );
    await hasText(page.getByTestId('log'), 'Sunrise');
    await poll(() => handButtons().count()).toBe(8);
    // On the drawn island (a card face of that rank) or in the day played out.
    const rankB = /\((\d+)\)$/.exec(nameB)?.[1];
    await poll(() =>
      page
        .locator(
          `[data-testid=island-scene] g.scene-card[data-rank="${rankB}"], [data-testid=day-replay]:has-text("${nameB}")`,
        )
        .count(),
    ).toBeGreaterThan(0);
    // Decisions of the day (Jack's by API, mine by clicking) until day 2 begins.
    for (let i = 0; i < 30; i++) {
      const { game: j } = await gql<{
        game: { phase: string; me: { prompts: { id: string; options: { id: string }[] }[] } };
      }>('query ($g: ID!) { game(id: $g) { phase me { prompts { id options { id } } } } }', { g: id }, jack);
      if (j.phase === 'CHOOSE') break;
      const p = j.me.prompts[0];
      if (p)
        await gql(
          'mutation ($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }',
          { g: id, p: p.id, o: p.options[0].id },
          jack,
        );
      else if (await page.getByTestId('prompt').count()) {
        before = await version();
        await page.getByTestId('prompt').getByRole('button').first().click();
        await waitForChange(before);
      }
      // Neither Jack nor the page has a decision: mine is on its way to the page by push.
      else
        await page
          .getByTestId('prompt')
          .waitFor({ timeout: 5_000 })
          .catch(() => {});
    }
    // The day played out arrives, and it is my turn again: the title says so.
    await shown(page.getByTestId('day-replay'));
    await poll(() => page.title()).toMatch(/^● Your turn/);
    await titleMatchesTurn();

    // Every change above came by push: not one poll, and the socket stayed open.
    page.off('request', onRequest);
    page.off('websocket', onSocket);
    expect(polls).toEqual([]);
    expect(await table().getAttribute('data-live')).toBe('push');

    // Since my last visit: this browser remembers the last event it showed.
    await page.evaluate(`localStorage.setItem('libertalia.seen.${id}', '3')`);
    await page.reload();
    const digest = page.getByTestId('digest');
    await shown(digest);
    await hasText(digest, 'day 1 played');
    await hasText(digest, 'It is your turn.');
    await hasText(digest.getByTestId('digest-deltas'), 'Jack Rackham');
    await digest.getByRole('button', { name: 'Watch the last day' }).click();
    await shown(page.getByTestId('day-replay'));
    await poll(() => digest.count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
