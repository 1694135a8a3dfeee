// The replay in a real browser (headless Chromium via playwright-core, the client built with
// Vite and served by the local server). A classic 3-seat game of two people and a
// bot: half-way through, Anne opens "Replay the game so far"; after the end, Mary watches the
// finished game's replay. At each frame visited the replay must draw the game as it was then
// for that viewer, with the live table's parts: their own hand as card faces and their own
// loot as loot chips (the frames the client builds from the log, which test/web/
// replay-frames.test.ts holds equal to the server's `replay` query; here the hand is also
// compared with `replay` itself wherever a commit ends), the island scene's cards, the dens.
// Another player's hand is never in the page and their loot stays face down until the end,
// when the graveyards are shown. Stepped by keyboard; axe-core (all rules) on both replays. A
// finished 2-player Galecrest game's replay at 390 px: the reputation track as the frame has
// it, everyone's face-up loot as chips, and never wider than the screen. The games are driven
// through the API at machine speed; the two cases run at the same time.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { browserStage, describeInChromium, type Who } from '../setup/browser.js';
import { buildReplay, type Frame } from '../../web/src/replay.js';
import { GAME_FIELDS } from '../setup/app.js';
import { allEvents, playToEnd } from '../setup/play.js';
import { uniqueNames } from '../setup/names.js';

const FIELDS = `${GAME_FIELDS} galecrest { reputation }`;

describeInChromium('the replay in headless Chromium', () => {
  const stage = browserStage();
  const { errors } = stage;

  const { ok, guest, axeClean } = stage;

  /** What the replay draws now: the frame's seq, the hand, the island scene, each den and its loot, every card face's seat. */
  async function shown(page: Page) {
    return (await page.evaluate(`(() => {
      const r = document.querySelector('[data-testid=replay]');
      const num = (e, a) => Number(e.getAttribute(a));
      return {
        seq: num(r, 'data-seq'),
        hand: [...r.querySelectorAll('[data-testid=replay-hand] li')].map((li) => num(li, 'data-rank')),
        handSeats: [...r.querySelectorAll('[data-testid=replay-hand] g.face')].map((g) => num(g, 'data-seat')),
        hands: document.querySelectorAll('[data-testid=replay-hand]').length,
        island: [...r.querySelectorAll('[data-testid=island-scene] g.scene-card')].map((g) => ({
          seat: num(g, 'data-seat'), rank: num(g, 'data-rank'), gone: g.classList.contains('gone'),
        })),
        dens: [...r.querySelectorAll('[data-testid=dens] li.den-row')].map((row) => ({
          seat: num(row, 'data-seat'),
          cards: [...row.querySelectorAll('.den-cards g.face')].map((g) => num(g, 'data-rank')),
          chips: [...row.querySelectorAll('.den-loot .loot')].map((c) => c.textContent.trim()),
          loot: row.querySelector('.den-loot').textContent.trim(),
          graves: row.querySelectorAll('.den-grave g.face').length,
        })),
        track: [...r.querySelectorAll('[data-testid=reputation] li')].map((li) => {
          const t = li.querySelector('.token');
          return t ? num(t, 'data-seat') : null;
        }),
        wide: document.documentElement.scrollWidth > window.innerWidth,
      };
    })()`)) as {
      seq: number;
      hand: number[];
      handSeats: number[];
      hands: number;
      island: { seat: number; rank: number; gone: boolean }[];
      dens: { seat: number; cards: number[]; chips: string[]; loot: string; graves: number }[];
      track: (number | null)[];
      wide: boolean;
    };
  }

  /** Moves the replay's slider to frame k (as a reader dragging it) and waits for the frame. */
  async function goTo(page: Page, k: number, seq: number) {
    await page.evaluate(`(() => {
      const el = document.getElementById('replay-step');
      el.value = '${k}';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
    await page.waitForSelector(`[data-testid=replay][data-seq="${seq}"]`);
  }

  /** The loot chips' words for a frame seat's kinds ("2 × Jewel" / "Jewel"), by the game's legend. */
  const chipWords = (legend: { kind: string; name: string }[], kinds: Record<string, number>) =>
    Object.entries(kinds)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => {
        const name = legend.find((l) => l.kind === k)?.name ?? k;
        return n === 1 ? name : `${n} × ${name}`;
      })
      .sort();

  /**
   * The replay at frame k equals the frame built from the viewer's own log: the hand (their
   * seat's card faces only), the island's cards still there, each den, the viewer's loot as
   * chips and the others' face down (until the end).
   */
  async function frameShown(page: Page, f: Frame, me: number, game: any) {
    const s = await shown(page);
    const legend: { kind: string; name: string }[] = game.lootLegend;
    expect(s.wide).toBe(false);
    // Galecrest: the track holds each player's token on the space the frame has (once dealt).
    if (game.edition === 'GALECREST' && f.phase !== 'LOBBY')
      expect(s.track).toEqual(
        game.galecrest.reputation.map((_: unknown, i: number) => {
          const k = f.seats.findIndex((x) => x.reputation === i);
          return k < 0 ? null : k;
        }),
      );
    else expect(s.track).toEqual([]);
    expect(s.seq).toBe(f.seq);
    expect(s.hands).toBe(1);
    expect(s.hand).toEqual(f.hand);
    expect(new Set(s.handSeats)).toEqual(new Set(f.hand!.length ? [me] : []));
    const here = s.island.filter((c) => !c.gone).map((c) => `${c.seat}:${c.rank}`);
    expect(here.sort()).toEqual(f.island.map((c) => `${c.seat}:${c.rank}`).sort());
    const ranks = s.island.map((c) => c.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    for (const d of s.dens) {
      const fs = f.seats[d.seat];
      expect(d.cards, `den of seat ${d.seat} at ${f.seq}`).toEqual(fs.den);
      if (f.finished) continue;
      expect(d.graves).toBe(0);
      // Your own loot as tokens, and Galecrest's face-up loot of everyone; classic's others face down.
      if (d.seat === me || game.edition === 'GALECREST')
        expect(d.chips.sort()).toEqual(chipWords(legend, fs.lootKinds!));
      else {
        expect(d.chips).toEqual([]);
        expect(d.loot).toBe(`${fs.loot} loot face down`);
      }
    }
    return s;
  }

  /** The commit ends among the seqs: where the server's replay moves to a new version. */
  async function handAtCommitEnd(gameId: string, seq: number, token: string): Promise<number[] | null> {
    const q = 'query ($g: ID!, $at: Int!) { replay(gameId: $g, at: $at) { version me { hand } } }';
    const [before, at] = await Promise.all([
      ok(q, { g: gameId, at: seq - 1 }, token),
      ok(q, { g: gameId, at: seq }, token),
    ]);
    return before.replay.version === at.replay.version ? null : at.replay.me.hand;
  }

  /** Visits frames spread over the log plus every sunrise, checking each against the frame (and the server's replay where a commit ends). */
  async function visit(page: Page, gameId: string, who: Who, picks: number) {
    const game = (
      await ok(`query ($id: ID!) { game(id: $id) { ${FIELDS} lootLegend { kind name } } }`, { id: gameId }, who.token)
    ).game;
    const events = await allEvents(stage.post, gameId, who.token);
    const frames = buildReplay(events, game);
    await page.waitForFunction(
      `document.querySelector('[data-testid=replay]') && document.getElementById('replay-step').max === '${frames.length - 1}'`,
    );
    const me = game.me.seat;
    const started = frames.findIndex((f) => f.event.type === 'gameStarted');
    const ks = new Set<number>([started, frames.length - 1]);
    for (let i = 0; i < picks; i++)
      ks.add(started + Math.floor(((frames.length - 1 - started) * (i + 1)) / (picks + 1)));
    frames.forEach((f, k) => f.event.type === 'sunrise' && k % 3 === 0 && ks.add(k));
    let checkedWithServer = 0;
    let withHand = 0;
    const visited = [...ks].sort((a, b) => a - b);
    // The server's answers do not depend on the page: asked all at once while the page steps.
    const servers = visited.map((k) => handAtCommitEnd(gameId, frames[k].seq, who.token));
    for (const [i, k] of visited.entries()) {
      await goTo(page, k, frames[k].seq);
      const s = await frameShown(page, frames[k], me, game);
      if (s.hand.length) withHand++;
      const server = await servers[i];
      if (server) {
        expect(s.hand, `hand at ${frames[k].seq}`).toEqual(server);
        checkedWithServer++;
      }
    }
    expect(withHand).toBeGreaterThan(3);
    expect(checkedWithServer).toBeGreaterThan(0);
    return { frames, game };
  }

  it.concurrent('shows each player their own hand and loot at every frame, during the game and after it', async ({
    expect,
  }) => {
    const name = uniqueNames();
    const anne = await guest(name('Anne Replay'));
    const mary = await guest(name('Mary Replay'));
    const { createGame } = await ok(
      'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
      { i: { edition: 'CLASSIC', seats: 3, seed: 'replay browser' } },
      anne.token,
    );
    const id = createGame.id;
    await ok('mutation ($g: ID!) { joinGame(gameId: $g) { id } }', { g: id }, mary.token);
    await ok(
      'mutation ($g: ID!) { startGame(gameId: $g, fillWithBots: true, botKind: GREEDY) { id } }',
      { g: id },
      anne.token,
    );
    const tokens = [anne.token, mary.token, null];
    // Half-way: the moves of about a campaign and a half.
    await expect(playToEnd(stage.post, id, tokens, 5, 30)).rejects.toThrow(/did not finish/);

    // During the game: Anne opens the replay of the game so far, by keyboard.
    const pa = await stage.openTable(anne, id);
    const open = pa.getByRole('button', { name: 'Replay the game so far' });
    await open.focus();
    await pa.keyboard.press('Enter');
    await pa.waitForSelector('[data-testid=replay]');
    await visit(pa, id, anne, 12);
    // Step by keyboard from the first event: Next moves one event on.
    await pa.getByRole('button', { name: '« First' }).focus();
    await pa.keyboard.press('Enter');
    const label = () => pa.locator('label[for=replay-step]').textContent();
    await expect.poll(label).toMatch(/^Event 1 of \d+$/);
    await pa.getByRole('button', { name: 'Next ▶' }).focus();
    await pa.keyboard.press('Enter');
    await expect.poll(label).toMatch(/^Event 2 of \d+$/);
    await axeClean(pa, 'the replay during the game');
    await pa.getByRole('button', { name: 'Close the replay' }).click();
    expect(await pa.locator('[data-testid=replay]').count()).toBe(0);
    // Anne's page is done: closed, it does not draw the rest of the game played below.
    await pa.context().close();

    // After the end: Mary's replay of the finished game, with every graveyard at its last frame.
    await playToEnd(stage.post, id, tokens, 5);
    const pm = await stage.openTable(mary, id);
    await pm.waitForSelector('[data-testid=replay]');
    const { frames, game } = await visit(pm, id, mary, 12);
    const last = await shown(pm);
    expect(last.seq).toBe(frames[frames.length - 1].seq);
    const graves = game.seats.reduce((n: number, s: { graveyard: number[] }) => n + s.graveyard.length, 0);
    expect(last.dens.reduce((n, d) => n + d.graves, 0)).toBe(graves);
    await axeClean(pm, 'the finished replay');
    expect(errors).toEqual([]);
  }, 240_000);

  it.concurrent("draws a Galecrest replay with the reputation track and everyone's face-up loot, at phone width too", async () => {
    const anne = await guest(uniqueNames()('Anne Galecrest Replay'));
    const { createGame } = await ok(
      'mutation ($i: CreateGameInput!) { createGame(input: $i) { id } }',
      { i: { edition: 'GALECREST', seats: 2, board: 'CALM', seed: 'replay browser galecrest' } },
      anne.token,
    );
    const id = createGame.id;
    await ok(
      'mutation ($g: ID!) { startGame(gameId: $g, fillWithBots: true, botKind: GREEDY) { id } }',
      { g: id },
      anne.token,
    );
    await playToEnd(stage.post, id, [anne.token, null], 7);
    const page = await stage.openTable(anne, id);
    await page.waitForSelector('[data-testid=replay]');
    await page.setViewportSize({ width: 390, height: 844 });
    await visit(page, id, anne, 10);
    await axeClean(page, 'the Galecrest replay at phone width');
    expect(errors).toEqual([]);
  }, 240_000);
});
