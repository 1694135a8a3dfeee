// The game table screen: loads the game and its event log, polls for changes, acts, and draws
// the table from its parts (web/src/table/).
import { api, fetchGame, type Game, type GameEvent } from '../api';
import { h, render } from '../dom';
import { buildReplay, type Frame } from '../replay';
import { header, message } from '../shell';
import { editionName, roundWord } from '../words';
import { namesFor, type TableCtx } from '../table/context';
import { handPart } from '../table/hand';
import { islandPart } from '../table/island';
import { lobbySeats } from '../table/lobby-seats';
import { logPart } from '../table/log';
import { lootPart } from '../table/loot';
import { playersPart } from '../table/players';
import { promptPart } from '../table/prompt';
import { rankingPart } from '../table/ranking';
import { replayPart, type ReplayState } from '../table/replay-view';
import { reputationPart } from '../table/reputation';
import { statusLine } from '../table/status';

const POLL_MS = Number(new URLSearchParams(location.search).get('poll')) || 1500;

export function gameScreen(root: HTMLElement, id: string): () => void {
  let game: Game | null = null;
  let events: GameEvent[] = [];
  let error = '';
  let busy = false;
  let alive = true;
  let notFound = false;
  let frames: Frame[] | null = null;
  let step = 0;
  let polling = false;

  async function fetchEvents() {
    for (;;) {
      const after = events.length ? events[events.length - 1].seq : 0;
      const page = await api.events(id, after);
      // A poll and an action may fetch at the same time: keep each seq once, in order.
      const last = events.length ? events[events.length - 1].seq : 0;
      events = events.concat(page.events.filter((e) => e.seq > last));
      if (!page.hasMore || page.events.length === 0) break;
    }
  }

  async function refresh() {
    const g = await fetchGame(id);
    if (!g) {
      notFound = true;
      return;
    }
    // An older answer (a poll that started before an action) never replaces a newer game.
    if (!game || g.version >= game.version) game = g;
    await fetchEvents();
    if (game.status === 'FINISHED' && !frames) {
      frames = buildReplay(events, game);
      step = frames.length - 1;
    }
  }

  async function act(what: () => Promise<unknown>) {
    if (busy) return;
    busy = true;
    error = '';
    draw();
    try {
      await what();
    } catch (e) {
      error = message(e);
    }
    try {
      await refresh();
    } catch (e) {
      error ||= message(e);
    }
    busy = false;
    if (alive) draw();
  }

  async function poll() {
    if (polling || busy || !alive || game?.status === 'FINISHED') return;
    polling = true;
    try {
      const before = events.length ? events[events.length - 1].seq : 0;
      const page = await api.events(id, before);
      if (page.events.length > 0 && !busy) {
        await refresh();
        if (alive && !busy) draw();
      }
    } catch {
      // the next poll tries again
    } finally {
      polling = false;
    }
  }

  const replay = (): ReplayState | null =>
    frames && {
      frames,
      step,
      move: (to: number) => {
        step = Math.max(0, Math.min(frames!.length - 1, to));
        draw();
      },
    };

  function draw() {
    if (!alive) return;
    if (notFound) {
      render(root, header('Game not found'), h('main', null, h('p', null, 'There is no such game.'), h('a', { href: '#/' }, 'Back to the lobby')));
      return;
    }
    const g = game;
    if (!g) {
      render(root, header('Loading game…'), h('main', null, h('p', { role: 'status' }, error || 'Loading…')));
      return;
    }
    const ctx: TableCtx = { game: g, events, busy, names: namesFor(g), act };
    const r = replay();
    const title = `${editionName(g.edition, g.board)} game`;
    const where =
      g.status === 'ACTIVE'
        ? `${roundWord(g.edition)} ${g.round} of ${g.daysPerRound.length} · Day ${g.day} of ${g.days.length} · ${g.phase.toLowerCase()}`
        : g.status === 'LOBBY'
          ? 'Waiting in the lobby'
          : 'Finished';
    render(
      root,
      header(title, h('p', { class: 'where' }, where)),
      h(
        'main',
        {
          class: 'table',
          'data-testid': 'table',
          'data-status': g.status,
          'data-version': g.version,
          'data-seq': events.length ? events[events.length - 1].seq : 0,
          'aria-busy': busy ? 'true' : 'false',
        },
        h(
          'div',
          { class: 'col-main' },
          statusLine(ctx),
          h('p', { role: 'alert', class: 'error' }, error),
          g.status === 'LOBBY' && lobbySeats(ctx),
          g.status === 'FINISHED' && rankingPart(ctx),
          g.me?.prompts.map((p) => promptPart(ctx, p)),
          g.status !== 'LOBBY' && g.me && g.status !== 'FINISHED' && handPart(ctx),
          g.status === 'ACTIVE' && islandPart(ctx),
          g.status === 'ACTIVE' && lootPart(ctx),
          g.status !== 'LOBBY' && reputationPart(ctx),
          playersPart(ctx),
          g.status === 'FINISHED' && r && replayPart(ctx, r),
        ),
        h('div', { class: 'col-side' }, logPart(ctx)),
      ),
    );
  }

  draw();
  void (async () => {
    try {
      await refresh();
    } catch (e) {
      error = message(e);
    }
    draw();
  })();
  const timer = setInterval(() => void poll(), POLL_MS);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}
