// The drawn table in a real browser (headless Chromium via playwright-core, the client built
// with Vite and served by the local server in memory): a classic 4-seat game against 3 bots
// and a 2-player Winds of Galecrest game between two browser contexts, each played to the
// end. At every step the island scene must equal the game's island in rank order (the cards
// still there, in the server's order; the sunrise places kept), and no element may stick out
// of its container, at 1366x768 and at 390x844. Screenshots at sunrise, a prompt, dusk, the
// end of a round and the final screen, both sizes: `UPDATE_SCREENSHOTS=1` writes them to
// docs/screenshots/ (else the temp folder). axe-core (all rules) runs on the table and the end
// screen; the first paint and the gzipped bundle are measured and printed.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { browserStage, describeInChromium, type Who } from '../setup/browser.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS ? resolve('docs/screenshots') : join(tmpdir(), 'libertalia-table-shots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const MOMENTS = ['sunrise', 'prompt', 'dusk', 'round-end', 'final'] as const;
type Moment = (typeof MOMENTS)[number];

interface Card {
  seat: number;
  rank: number;
}

describeInChromium('the drawn table in headless Chromium', () => {
  const stage = browserStage();
  const { errors } = stage;

  beforeAll(() => {
    mkdirSync(SHOTS, { recursive: true });
  });

  async function gql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
    const body = (await stage.post(query, variables, token)) as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  const guest = (name: string) => stage.guest(name);

  /** A browser context signed in as the guest, on the game's table. */
  const openTable = (who: Who, gameId: string, reducedMotion: 'reduce' | 'no-preference' = 'no-preference') =>
    stage.openTable(who, gameId, { context: { viewport: DESKTOP, timezoneId: 'UTC', reducedMotion } });

  /** The table at rest: no request running. */
  const settled = (page: Page) => page.waitForSelector('[data-testid=table][aria-busy=false]');

  /** The island as the game has it now (the caller's view) and its version. */
  async function gameIsland(token: string, id: string) {
    const { game } = await gql<{ game: { version: number; phase: string; island: Card[]; status: string } }>(
      'query ($id: ID!) { game(id: $id) { version phase status island { seat rank } } }',
      { id },
      token,
    );
    return game;
  }

  /**
   * The scene equals the game: the cards still on the island are the game's island in its
   * order, every slot (with those that left) is in rank order, and no card is drawn twice.
   */
  async function sceneMatches(page: Page, token: string, id: string) {
    for (let attempt = 0; attempt < 10; attempt++) {
      await settled(page);
      const game = await gameIsland(token, id);
      // The table catches up by push: wait for it to show this version (or a newer one: ask again).
      await page.waitForFunction(
        `Number(document.querySelector('[data-testid=table]')?.getAttribute('data-version')) >= ${game.version}`,
      );
      const shown = (await page.evaluate(`(() => {
        const t = document.querySelector('[data-testid=table]');
        const cards = [...document.querySelectorAll('[data-testid=island-scene] g.scene-card')].map((g) => ({
          seat: Number(g.getAttribute('data-seat')), rank: Number(g.getAttribute('data-rank')), gone: g.classList.contains('gone'),
        }));
        return { version: Number(t.getAttribute('data-version')), cards };
      })()`)) as { version: number; cards: (Card & { gone: boolean })[] };
      if (shown.version !== game.version) continue;
      if (game.status !== 'ACTIVE') return;
      const here = shown.cards.filter((c) => !c.gone).map(({ seat, rank }) => ({ seat, rank }));
      expect(here).toEqual(game.island.map(({ seat, rank }) => ({ seat, rank })));
      const ranks = shown.cards.map((c) => c.rank);
      expect(ranks, JSON.stringify(shown.cards)).toEqual([...ranks].sort((a, b) => a - b));
      expect(new Set(shown.cards.map((c) => `${c.seat}:${c.rank}`)).size).toBe(shown.cards.length);
      return game;
    }
    throw new Error('the table never showed the game version the API answered');
  }

  /** Every element inside its container (unless the container scrolls or clips) and the page never wider than the screen. */
  async function noOverflow(page: Page, where: string) {
    const out = await page.evaluate(`(() => {
      const bad = [];
      for (const e of document.querySelectorAll('body *')) {
        if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
        const p = e.parentElement;
        if (!p || p === document.body) continue;
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const cs = getComputedStyle(e);
        if (cs.position === 'absolute' || cs.position === 'fixed') continue;
        let box = p;
        while (box && getComputedStyle(box).display === 'contents') box = box.parentElement;
        const pr = box.getBoundingClientRect();
        const ps = getComputedStyle(box);
        // A scrolling or clipping box holds its overflow; a 1px box is a visually hidden one (table heads at phone width).
        if (ps.overflowX !== 'visible' || pr.width <= 2) continue;
        if (r.right > pr.right + 1 || r.left < pr.left - 1)
          bad.push(e.tagName + '.' + (e.getAttribute('class') || '') + ' in ' + box.tagName + '.' + (box.getAttribute('class') || '') + ': ' + (e.textContent || '').slice(0, 40));
      }
      if (document.documentElement.scrollWidth > window.innerWidth) bad.push('page scrolls sideways');
      return bad;
    })()`);
    expect(out, `overflow at ${where}`).toEqual([]);
  }

  async function axeClean(page: Page, where: string) {
    if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ path: AXE });
    const found = await page.evaluate(
      `axe.run(document).then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))))`,
    );
    expect(found, `axe on ${where}`).toEqual([]);
  }

  /** At a prompt, the decision's buttons and the hand's first card show without scrolling. */
  async function decisionInView(page: Page, where: string) {
    const seen = await page.evaluate(`(() => {
      window.scrollTo(0, 0);
      return ['[data-testid=prompt] .options button', '[data-testid=hand] li'].map((sel) => {
        const e = document.querySelector(sel);
        if (!e) return sel + ' missing';
        const r = e.getBoundingClientRect();
        // The decision whole; the hand's first card at least its top half (name, marks) on screen.
        const bottom = sel.includes('hand') ? r.top + r.height / 2 : r.bottom;
        return r.top >= 0 && bottom <= window.innerHeight ? 'ok' : sel + ' below the fold at ' + Math.round(bottom);
      });
    })()`);
    expect(seen, where).toEqual(['ok', 'ok']);
  }

  /** Desktop and phone screenshots of this moment (once per game and moment), each checked for overflow. */
  async function snap(page: Page, game: string, moment: Moment, taken: Set<Moment>) {
    if (taken.has(moment)) return;
    taken.add(moment);
    // Pictures of the table at rest: the loot tokens travelling to the dens have landed.
    await page.waitForFunction('!document.querySelector("[data-travel]")');
    if (moment === 'prompt') await decisionInView(page, `${game} desktop`);
    await noOverflow(page, `${game} ${moment} desktop`);
    await page.screenshot({ path: join(SHOTS, `${game}-${moment}-desktop.png`), fullPage: true });
    await page.setViewportSize(PHONE);
    if (moment === 'prompt') await decisionInView(page, `${game} phone`);
    await noOverflow(page, `${game} ${moment} phone`);
    await page.screenshot({ path: join(SHOTS, `${game}-${moment}-phone.png`) });
    await page.setViewportSize(DESKTOP);
  }

  /** The screenshot moments the page is at now (a dusk prompt is both a prompt and dusk). */
  async function momentsOf(page: Page): Promise<Moment[]> {
    const status = await page.getAttribute('[data-testid=table]', 'data-status');
    if (status === 'FINISHED') return ['final'];
    const out: Moment[] = [];
    if (await page.locator('[data-testid=prompt]').count()) out.push('prompt');
    const where = (await page.locator('.where').textContent()) ?? '';
    const scene = await page.locator('[data-testid=island-scene]').count();
    if (/dusk/.test(where) && scene) out.push('dusk');
    if (await page.locator('[data-testid=day-replay] [data-step=scoring]').count()) out.push('round-end');
    // Sunrise: the island with nobody gone yet, or the day played out showing its sunrise.
    const untouched = scene && !(await page.locator('[data-testid=island-scene] g.gone').count());
    if (untouched || (await page.locator('[data-testid=day-replay] [data-step=sunrise]').count())) out.push('sunrise');
    return out;
  }

  /** One action if it is this page's turn: the first prompt option, else the first playable card (keyboard). */
  async function act(page: Page): Promise<boolean> {
    await settled(page);
    const before = await page.getAttribute('[data-testid=table]', 'data-version');
    const option = page.locator('[data-testid=prompt] .options button').first();
    const card = page.locator('[data-testid=hand] button.card:not([aria-disabled=true]):not([disabled])').first();
    const target = (await option.count()) ? option : (await card.count()) ? card : null;
    if (!target) return false;
    if ((await target.getAttribute('aria-pressed')) === 'true') return false;
    await target.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      `(() => { const t = document.querySelector('[data-testid=table]'); return t.getAttribute('aria-busy') === 'false' && t.getAttribute('data-version') !== ${JSON.stringify(before)}; })()`,
    );
    // Focus stays in the table (on the control or the next thing to do), never on <body>.
    expect(await page.evaluate('document.activeElement !== document.body')).toBe(true);
    return true;
  }

  /**
   * Every prompt met, not only the first one photographed: the bots' choices depend on the game's
   * id, so which decisions a run meets varies (issue 28's flake was a Gunner's 13 options, met
   * first in some runs only, pushing the hand past the fold at 1366x768).
   */
  let most = 0;
  async function everyDecisionInView(page: Page, name: string, checked: Set<string>) {
    const prompt = page.locator('[data-testid=prompt]').first();
    if (!(await prompt.count())) return;
    const key = `${await prompt.getAttribute('data-key')}`;
    if (checked.has(key)) return;
    checked.add(key);
    const options = await prompt.locator('.options button').count();
    const what = `${name}: ${await prompt.locator('.prompt-text').textContent()} (${options} options)`;
    most = Math.max(most, options);
    await decisionInView(page, `${what}, desktop`);
    await page.setViewportSize(PHONE);
    await decisionInView(page, `${what}, phone`);
    await page.setViewportSize(DESKTOP);
  }

  /** Plays the pages' game to the end, checking the scene at every step and taking the pictures. */
  async function playToEnd(pages: { page: Page; token: string }[], id: string, name: string) {
    const taken = new Set<Moment>();
    const prompts = new Set<string>();
    most = 0;
    let axeRun = false;
    for (let step = 0; step < 400; step++) {
      let acted = false;
      for (const [k, { page, token }] of pages.entries()) {
        // The first browser is checked at every step, the others when they act.
        const mine = await page
          .locator('[data-testid=prompt], [data-testid=hand] button.card[aria-pressed=false]:not([aria-disabled=true])')
          .count();
        if (k > 0 && !mine) continue;
        const game = await sceneMatches(page, token, id);
        if (k === 0 && taken.size < MOMENTS.length - 1) {
          // The day played out reveals its steps one by one: on a fast machine the next card
          // started a new day before the campaign's scoring step was shown. Show them all first.
          // Clicked in the page, at once: the button re-renders at every step and leaves when the
          // day is shown, so waiting for it to be stable can outlast it.
          if (!taken.has('round-end'))
            await page.evaluate(
              `document.querySelector('[data-testid=day-replay] button[data-key=dayr-all]')?.click()`,
            );
        }
        if (k === 0 && taken.size < MOMENTS.length - 1)
          for (const m of await momentsOf(page)) if (m !== 'final' && !taken.has(m)) await snap(page, name, m, taken);
        await everyDecisionInView(page, name, prompts);
        if (!axeRun && (await page.locator('[data-testid=prompt]').count())) {
          await axeClean(page, `${name} table`);
          axeRun = true;
        }
        if (game === undefined) continue;
        if (await act(page)) acted = true;
      }
      const done = await Promise.all(
        pages.map(async ({ page }) => (await page.getAttribute('[data-testid=table]', 'data-status')) === 'FINISHED'),
      );
      if (done.every(Boolean)) break;
      if (!acted) await pages[0].page.waitForTimeout(150);
    }
    const { page } = pages[0];
    await page.waitForSelector('[data-testid=table][data-status=FINISHED]');
    await page.getByRole('heading', { name: 'Final ranking' }).waitFor();
    await snap(page, name, 'final', taken);
    await axeClean(page, `${name} end screen`);
    console.log(`${name}: ${prompts.size} decisions met (up to ${most} options), each in view at 1366x768 and 390x844`);
    return taken;
  }

  it('builds a bundle under 100 KB of gzipped JavaScript', () => {
    const dir = resolve('web/dist/assets');
    const js = readdirSync(dir).filter((f) => f.endsWith('.js'));
    const gz = js.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f))).length, 0);
    console.log(`web bundle: ${js.length} JS file(s), ${(gz / 1024).toFixed(1)} KB gzipped`);
    expect(js.length).toBeGreaterThan(0);
    expect(gz).toBeLessThan(100 * 1024);
  });

  it('plays a classic 4-seat game against 3 bots by keyboard, the island drawn as the game has it', async () => {
    const anne = await guest('Anne Bonny');
    const { createGame } = await gql<{ createGame: { id: string } }>(
      'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
      { i: { edition: 'CLASSIC', seats: 4, bots: 3, seed: 'table classic', decisionTimeLimitHours: 24 } },
      anne.token,
    );
    const id = createGame.id;
    await gql('mutation ($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, anne.token);
    const page = await openTable(anne, id);
    const paint = (await page.evaluate(
      `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`,
    )) as number;
    console.log(`first contentful paint of the table: ${paint.toFixed(0)} ms`);
    expect(paint).toBeGreaterThan(0);
    expect(paint).toBeLessThan(3000); // the goal is 1 s; a loaded CI machine gets room
    // Every hand card says its name, rank, tie-break mark and timing to a screen reader.
    const marks = await page.locator('[data-testid=hand] button.card .card-marks [role=img]').count();
    expect(marks).toBeGreaterThanOrEqual(9);
    const taken = await playToEnd([{ page, token: anne.token }], id, 'classic');
    expect([...taken].sort()).toEqual([...MOMENTS].sort());
    // Every day of the log is reachable: "Earlier days" opens them down to the setting up.
    const more = page.getByTestId('log-more');
    while (await more.count()) await more.click();
    await page.getByRole('heading', { name: 'Setting up' }).waitFor();
    expect(errors).toEqual([]);
  }, 600_000);

  /** The seats of the tokens taken (lootGained) after event `after`, in log order. */
  async function takenAfter(token: string, id: string, after: number): Promise<number[]> {
    const seats: number[] = [];
    let cursor: string | null = null;
    for (;;) {
      const { eventsPage }: { eventsPage: { events: any[]; pageInfo: { hasNextPage: boolean; endCursor: string } } } =
        await gql(
          'query ($g: ID!, $a: String) { eventsPage(gameId: $g, first: 100, after: $a) { events { seq type ... on LootGainedEvent { seat n } } pageInfo { hasNextPage endCursor } } }',
          { g: id, a: cursor },
          token,
        );
      for (const e of eventsPage.events)
        if (e.seq > after && e.type === 'lootGained') for (let i = 0; i < (e.n ?? 1); i++) seats.push(e.seat!);
      if (!eventsPage.pageInfo.hasNextPage) return seats;
      cursor = eventsPage.pageInfo.endCursor;
    }
  }

  /** Records every travelling token the page shows: its states and its place (page coordinates) at each frame. */
  const RECORD_TRAVEL = `(() => {
    const seen = (window.__travel = []);
    const where = (el) => { const r = el.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height }; };
    const inBox = (p, sel) => { const e = document.querySelector(sel); if (!e) return false; const r = e.getBoundingClientRect();
      const cx = p.x - scrollX + p.w / 2, cy = p.y - scrollY + p.h / 2; return cx >= r.left && cx <= r.right && cy >= r.top && cy <= r.bottom; };
    const track = (el) => {
      const rec = { seat: Number(el.getAttribute('data-seat')), kind: el.getAttribute('data-kind'), states: [], path: [] };
      seen.push(rec);
      const note = () => {
        const p = where(el);
        const state = el.getAttribute('data-travel');
        rec.states.push(state);
        rec.path.push(p);
        // Moving: a CSS transition of its transform runs (not a jump), however few frames a loaded machine draws.
        if (state === 'moving') rec.transition = el.getAnimations().filter((a) => a.transitionProperty === 'transform').map((a) => a.effect.getTiming().duration)[0] ?? 0;
        if (state === 'start') rec.fromSpaces = inBox(p, '[data-testid=loot-spaces]') || inBox(p, '[data-testid=bag]');
        if (state === 'end') rec.inDen = inBox(p, '[data-testid=dens] li[data-seat="' + rec.seat + '"]');
      };
      note();
      new MutationObserver(note).observe(el, { attributes: true, attributeFilter: ['data-travel'] });
      const frame = () => { if (!el.isConnected || el.getAttribute('data-travel') === 'end') return; rec.path.push(where(el)); requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    };
    new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) if (n.nodeType === 1 && n.hasAttribute('data-travel')) track(n); })
      .observe(document.body, { childList: true, subtree: true });
  })()`;

  it("shows each loot token taken travelling from its day space to its taker's den, and at once with reduced motion", async () => {
    for (const reduced of [false, true]) {
      const who = await guest(reduced ? 'Rachel Wall' : 'Sadie Farrell');
      const { createGame } = await gql<{ createGame: { id: string } }>(
        'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
        { i: { edition: 'CLASSIC', seats: 4, bots: 3, seed: 'table travel', decisionTimeLimitHours: 24 } },
        who.token,
      );
      const id = createGame.id;
      await gql('mutation ($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, who.token);
      const page = await openTable(who, id, reduced ? 'reduce' : 'no-preference');
      await page.evaluate(RECORD_TRAVEL);
      const before = Number(await page.getAttribute('[data-testid=table]', 'data-seq'));
      // Play until a day has been played out (a card, and any decision the day asks for).
      for (let i = 0; i < 10 && !(await page.locator('[data-testid=day-replay]').count()); i++) {
        await sceneMatches(page, who.token, id);
        if (!(await act(page))) await page.waitForTimeout(100);
      }
      await page.waitForSelector('[data-testid=day-replay]');
      const after = Number(await page.getAttribute('[data-testid=table]', 'data-seq'));
      const takers = await takenAfter(who.token, id, before);
      expect(takers.length).toBeGreaterThan(0);
      // Every taker's den shows loot as soon as the day is drawn (no waiting for a token).
      const denLoot =
        (await page.evaluate(`[...document.querySelectorAll('[data-testid=dens] li[data-seat]')].map((li) => {
        const t = li.querySelector('.den-loot').textContent; const d = /(\\d+) loot face down/.exec(t);
        return d ? Number(d[1]) : li.querySelectorAll('.den-loot .loot').length; })`)) as number[];
      for (const s of takers) expect(denLoot[s], `den of seat ${s}`).toBeGreaterThan(0);
      if (reduced) {
        // Reduced motion: nothing travels, the den has it at once.
        await page.waitForTimeout(300);
        expect(await page.evaluate('window.__travel.length')).toBe(0);
        continue;
      }
      await page.waitForFunction(
        `window.__travel.length >= ${takers.length} && window.__travel.every((r) => r.states.includes('end'))`,
      );
      const rec = (await page.evaluate('window.__travel')) as {
        seat: number;
        kind: string;
        states: string[];
        path: { x: number; y: number }[];
        fromSpaces: boolean;
        inDen: boolean;
        transition: number;
      }[];
      let onTheWay = 0;
      // One token per token taken, in the order taken (dusk: right to left), each to its taker.
      expect(rec.map((r) => r.seat)).toEqual(takers);
      for (const r of rec) {
        expect(r.states[0]).toBe('start');
        expect(r.states).toContain('moving');
        expect(r.states.at(-1)).toBe('end');
        expect(r.fromSpaces, 'starts on the loot spaces').toBe(true);
        expect(r.inDen, `ends in the den of seat ${r.seat}`).toBe(true);
        const start = r.path[0];
        const end = r.path.at(-1)!;
        expect(Math.hypot(end.x - start.x, end.y - start.y)).toBeGreaterThan(20);
        // It travels: a transition of its transform over most of a second, not a jump. (Frames
        // drawn on the way are counted too, but not required: a loaded machine may draw none.)
        expect(r.transition, JSON.stringify(r)).toBeGreaterThanOrEqual(500);
        onTheWay += r.path.filter(
          (p) => Math.hypot(p.x - start.x, p.y - start.y) > 2 && Math.hypot(p.x - end.x, p.y - end.y) > 2,
        ).length;
      }
      console.log(`${rec.length} tokens travelled, ${onTheWay} frames drawn on their way`);
      // And it is gone once landed: the den's loot holds it.
      await page.waitForFunction('!document.querySelector("[data-travel]")');
      expect(after).toBeGreaterThan(before);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('plays a 2-player Galecrest game between two browsers to the end', async () => {
    const anne = await guest('Jacquotte Delahaye');
    const mary = await guest('Mary Read');
    const { createGame } = await gql<{ createGame: { id: string } }>(
      'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
      { i: { edition: 'GALECREST', seats: 2, board: 'CALM', seed: 'table galecrest' } },
      anne.token,
    );
    const id = createGame.id;
    await gql('mutation ($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, mary.token);
    await gql('mutation ($g: ID!) { startGame(gameId: $g) { id } }', { g: id }, anne.token);
    const a = await openTable(anne, id);
    const b = await openTable(mary, id);
    // The reputation track is drawn: one token per player on its space.
    expect(await a.locator('[data-testid=reputation] .token').count()).toBe(2);
    const taken = await playToEnd(
      [
        { page: a, token: anne.token },
        { page: b, token: mary.token },
      ],
      id,
      'galecrest',
    );
    expect(taken.has('final')).toBe(true);
    expect(taken.has('sunrise')).toBe(true);
    // After the end both graveyards are face up to each player.
    await b.waitForSelector('[data-testid=table][data-status=FINISHED]');
    expect(errors).toEqual([]);
  }, 600_000);
});
