// The drawn table in a real browser (headless Chromium via playwright-core, the client built
// with Vite and served by the local server): a classic 4-seat game against 3 bots and a
// 2-player Winds of Galecrest game between two browser contexts, each played to the end by
// keyboard. At every step the island scene must equal the game's island in rank order (the
// cards still there, in the server's order; the sunrise places kept), and no element may stick
// out of its container, at 1366x768 and at 390x844. Checked at sunrise, a prompt, dusk, the end
// of a round and the final screen, both sizes, with pictures of them for docs/screenshots/ when
// `UPDATE_SCREENSHOTS=1`. axe-core (all rules) runs on the table and the end screen; the first
// paint and the gzipped bundle are measured and printed. The games and the travel case run at
// the same time (each in its own contexts): their time is mostly waiting on the server and the
// page.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { browserStage, describeInChromium, type Who } from '../setup/browser.js';

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
  const gql = <T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> =>
    stage.ok(query, variables, token);

  /** A browser context signed in as the guest, on the game's table. */
  const openTable = (who: Who, gameId: string, reducedMotion: 'reduce' | 'no-preference' = 'no-preference') =>
    stage.openTable(who, gameId, { context: { viewport: DESKTOP, timezoneId: 'UTC', reducedMotion } });

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
      const game = await gameIsland(token, id);
      // The table catches up by push: wait for it at rest showing this version (or a newer one:
      // ask again), and read the scene in that same moment.
      const handle = await page.waitForFunction(`(() => {
        const t = document.querySelector('[data-testid=table]');
        if (!t || t.getAttribute('aria-busy') !== 'false' || Number(t.getAttribute('data-version')) < ${game.version}) return null;
        const cards = [...document.querySelectorAll('[data-testid=island-scene] g.scene-card')].map((g) => ({
          seat: Number(g.getAttribute('data-seat')), rank: Number(g.getAttribute('data-rank')), gone: g.classList.contains('gone'),
        }));
        return { version: Number(t.getAttribute('data-version')), cards };
      })()`);
      const shown = (await handle.jsonValue()) as { version: number; cards: (Card & { gone: boolean })[] };
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
  const OVERFLOW = `(() => {
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
  })()`;

  /** At a prompt, the decision's buttons and the hand's first card show without scrolling. */
  const DECISION_IN_VIEW = `(() => {
    window.scrollTo(0, 0);
    return ['[data-testid=prompt] .options button', '[data-testid=hand] li'].map((sel) => {
      const e = document.querySelector(sel);
      if (!e) return sel + ' missing';
      const r = e.getBoundingClientRect();
      // The decision whole; the hand's first card at least its top half (name, marks) on screen.
      const bottom = sel.includes('hand') ? r.top + r.height / 2 : r.bottom;
      return r.top >= 0 && bottom <= window.innerHeight ? 'ok' : sel + ' below the fold at ' + Math.round(bottom);
    });
  })()`;

  async function decisionInView(page: Page, where: string) {
    expect(await page.evaluate(DECISION_IN_VIEW), where).toEqual(['ok', 'ok']);
  }

  /** The checks of a moment at both sizes (the decision in view at a prompt, no overflow), with its pictures when they are refreshed. */
  async function snap(page: Page, game: string, moment: Moment, taken: Set<Moment>) {
    if (taken.has(moment)) return;
    taken.add(moment);
    // Pictures of the table at rest: the loot tokens travelling to the dens have landed. (The
    // checks need no wait: a token on its way is in a clipped layer the overflow check skips.)
    if (stage.picturing) await page.waitForFunction('!document.querySelector("[data-travel]")');
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      const [inView, overflow] = (await page.evaluate(`[${DECISION_IN_VIEW}, ${OVERFLOW}]`)) as [string[], string[]];
      if (moment === 'prompt') expect(inView, `${game} ${size}`).toEqual(['ok', 'ok']);
      expect(overflow, `overflow at ${game} ${moment} ${size}`).toEqual([]);
      await stage.picture(page, `${game}-${moment}-${size}.png`, size === 'desktop');
    }
    await page.setViewportSize(DESKTOP);
  }

  /**
   * The screenshot moments the page is at now (a dusk prompt is both a prompt and dusk). The
   * day played out reveals its steps one by one: on a fast machine the next card started a new
   * day before the campaign's scoring step was shown. `showAll` shows them all first (clicked
   * in the page, at once: the button re-renders at every step and leaves when the day is shown).
   */
  async function momentsOf(page: Page, showAll: boolean): Promise<Moment[]> {
    return (await page.evaluate(`(() => {
      const q = (sel) => document.querySelector(sel);
      if (${showAll}) q('[data-testid=day-replay] button[data-key=dayr-all]')?.click();
      if (q('[data-testid=table]').getAttribute('data-status') === 'FINISHED') return ['final'];
      const out = [];
      if (q('[data-testid=prompt]')) out.push('prompt');
      const scene = !!q('[data-testid=island-scene]');
      if (/dusk/.test(q('.where')?.textContent ?? '') && scene) out.push('dusk');
      if (q('[data-testid=day-replay] [data-step=scoring]')) out.push('round-end');
      // Sunrise: the island with nobody gone yet, or the day played out showing its sunrise.
      const untouched = scene && !q('[data-testid=island-scene] g.gone');
      if (untouched || q('[data-testid=day-replay] [data-step=sunrise]')) out.push('sunrise');
      return out;
    })()`)) as Moment[];
  }

  /** One action if it is this page's turn: the first prompt option, else the first playable card (keyboard). */
  async function act(page: Page): Promise<boolean> {
    // At rest, the target focused in the page (as Tab would) and the version before.
    const handle = await page.waitForFunction(`(() => {
      const t = document.querySelector('[data-testid=table]');
      if (t.getAttribute('aria-busy') !== 'false') return null;
      const target = document.querySelector('[data-testid=prompt] .options button')
        ?? document.querySelector('[data-testid=hand] button.card:not([aria-disabled=true]):not([disabled])');
      if (!target || target.getAttribute('aria-pressed') === 'true') return { before: null };
      target.focus();
      return { before: t.getAttribute('data-version') };
    })()`);
    const { before } = (await handle.jsonValue()) as { before: string | null };
    if (before === null) return false;
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      `(() => { const t = document.querySelector('[data-testid=table]'); return t.getAttribute('aria-busy') === 'false' && t.getAttribute('data-version') !== ${JSON.stringify(before)}; })()`,
    );
    // Focus stays in the table (on the control or the next thing to do), never on <body>.
    expect(await page.evaluate('document.activeElement !== document.body')).toBe(true);
    return true;
  }

  /** What one game's run has met: the moments checked, the decisions checked, the most options of one. */
  interface Met {
    taken: Set<Moment>;
    prompts: Set<string>;
    most: number;
  }

  /**
   * Every prompt met, not only the first one photographed: the bots' choices depend on the game's
   * id, so which decisions a run meets varies (issue 28's flake was a Gunner's 13 options, met
   * first in some runs only, pushing the hand past the fold at 1366x768).
   */
  async function everyDecisionInView(page: Page, name: string, met: Met) {
    const prompt = (await page.evaluate(`(() => {
      const p = document.querySelector('[data-testid=prompt]');
      return p && { key: String(p.getAttribute('data-key')), options: p.querySelectorAll('.options button').length, text: p.querySelector('.prompt-text')?.textContent };
    })()`)) as { key: string; options: number; text: string } | null;
    if (!prompt || met.prompts.has(prompt.key)) return;
    met.prompts.add(prompt.key);
    const what = `${name}: ${prompt.text} (${prompt.options} options)`;
    met.most = Math.max(met.most, prompt.options);
    await decisionInView(page, `${what}, desktop`);
    await page.setViewportSize(PHONE);
    await decisionInView(page, `${what}, phone`);
    await page.setViewportSize(DESKTOP);
  }

  /** Plays the pages' game to the end, checking the scene at every step and each moment at both sizes. */
  async function playToEnd(pages: { page: Page; token: string }[], id: string, name: string) {
    const met: Met = { taken: new Set(), prompts: new Set(), most: 0 };
    const { taken } = met;
    let axeRun = false;
    /** One page's step: the checks, then its action if it has one (the first browser is checked at every step, the others when they act). */
    const step = async ({ page, token }: { page: Page; token: string }, k: number): Promise<boolean> => {
      const mine = '[data-testid=prompt], [data-testid=hand] button.card[aria-pressed=false]:not([aria-disabled=true])';
      if (k > 0 && !(await page.locator(mine).count())) return false;
      const game = await sceneMatches(page, token, id);
      if (k === 0 && taken.size < MOMENTS.length - 1)
        for (const m of await momentsOf(page, !taken.has('round-end')))
          if (m !== 'final' && !taken.has(m)) await snap(page, name, m, taken);
      await everyDecisionInView(page, name, met);
      if (!axeRun && (await page.locator('[data-testid=prompt]').count())) {
        axeRun = true;
        await stage.axeClean(page, `${name} table`);
      }
      return game !== undefined && (await act(page));
    };
    for (let n = 0; n < 400; n++) {
      // The browsers take their steps at the same time, as two players do (both choose a card at once).
      const acted = (await Promise.all(pages.map(step))).some(Boolean);
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
    await stage.axeClean(page, `${name} end screen`);
    console.log(
      `${name}: ${met.prompts.size} decisions met (up to ${met.most} options), each in view at 1366x768 and 390x844`,
    );
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

  it.concurrent('plays a classic 4-seat game against 3 bots by keyboard, the island drawn as the game has it', async () => {
    const anne = await stage.guest('Anne Bonny');
    const id = await stage.game(anne, {
      edition: 'CLASSIC',
      seats: 4,
      bots: 3,
      seed: 'table classic',
      decisionTimeLimitHours: 24,
    });
    const page = await openTable(anne, id);
    const paint = (await page.evaluate(
      `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`,
    )) as number;
    console.log(`first contentful paint of the table: ${paint.toFixed(0)} ms`);
    // It painted; how fast is printed, not asserted (a loaded CI host once took 3.07 s).
    expect(paint).toBeGreaterThan(0);
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

  /** Plays the first day of a game against 3 bots by keyboard and checks each loot token taken travelling (or not, with reduced motion). */
  async function travelDay(reduced: boolean) {
    const who = await stage.guest(reduced ? 'Rachel Wall' : 'Sadie Farrell');
    const id = await stage.game(who, {
      edition: 'CLASSIC',
      seats: 4,
      bots: 3,
      seed: 'table travel',
      decisionTimeLimitHours: 24,
    });
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
    expect(after).toBeGreaterThan(before);
    if (reduced) {
      // Reduced motion: nothing travels, the den has it at once.
      await page.waitForTimeout(300);
      expect(await page.evaluate('window.__travel.length')).toBe(0);
      return;
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
  }

  it.concurrent("shows each loot token taken travelling from its day space to its taker's den, and at once with reduced motion", async () => {
    await Promise.all([travelDay(false), travelDay(true)]);
    expect(errors).toEqual([]);
  }, 120_000);

  it.concurrent('plays a 2-player Galecrest game between two browsers to the end', async () => {
    const anne = await stage.guest('Jacquotte Delahaye');
    const mary = await stage.guest('Mary Read');
    const id = await stage.game(
      anne,
      { edition: 'GALECREST', seats: 2, board: 'CALM', seed: 'table galecrest' },
      { join: [mary] },
    );
    // Mary's browser asks for reduced motion: a whole game is also played without it (the
    // travel case checks one day), and her page draws each move at half the cost.
    const [a, b] = await Promise.all([openTable(anne, id), openTable(mary, id, 'reduce')]);
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
