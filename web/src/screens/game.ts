// The game table screen: loads the game and its event log, learns of changes (live.ts), acts,
// and draws the table from its parts (web/src/table/) by patching the page (dom.ts).
import { clearAlert, setSound, soundOn, turnAlert } from '../alerts';
import { api, fetchGame, fetchVersion, type Game, type GameEvent } from '../api';
import { type DayStory, type Digest, dayStories, digest } from '../day';
import { h, render } from '../dom';
import { gameUpdates } from '../live';
import { buildReplay, type Frame } from '../replay';
import { header, message } from '../shell';
import { namesFor, type TableCtx } from '../table/context';
import { dayReplayPart } from '../table/day-replay';
import { digestPart } from '../table/digest';
import { handPart } from '../table/hand';
import { legendPart } from '../table/legend';
import { lobbySeats } from '../table/lobby-seats';
import { followLog, logPart } from '../table/log';
import { playersPart } from '../table/players';
import { promptPart } from '../table/prompt';
import { replayPart, type ReplayState } from '../table/replay-view';
import { reputationPart } from '../table/reputation';
import { scenePart } from '../table/scene';
import { forgetSeatRatings } from '../community/seat-ratings';
import { sidePanels } from '../table/side-panels';
import '../community/concede';
import '../community/chat';
import { densPart } from '../table/dens';
import { rankingPart, scoresPart } from '../table/scores';
import { isMyTurn, statusLine } from '../table/status';
import { editionName, roundWord } from '../words';

/** `?poll=ms`: one poll interval instead of the SDK's (tests); polling runs only while push is not open. */
const POLL_MS = Number(new URLSearchParams(location.search).get('poll')) || undefined;
const STEP_MS = Number(new URLSearchParams(location.search).get('step')) || 1500;
/** Days of the log shown at first, and added by each "Earlier days". */
const LOG_PAGE = 4;
const seenKey = (id: string) => `libertalia.seen.${id}`;
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

export function gameScreen(root: HTMLElement, id: string): () => void {
  forgetSeatRatings();
  let game: Game | null = null;
  let events: GameEvent[] = [];
  let error = '';
  let busy = false;
  let logDays = LOG_PAGE;
  let alive = true;
  let notFound = false;
  let frames: Frame[] | null = null;
  let step = 0;
  // The day played out: the story shown, how many steps, whether it plays by itself.
  let story: DayStory | null = null;
  let shown = 0;
  let playing = false;
  /** Stories ending at or before this seq were there when the page opened (or were shown). */
  let storiesUpTo: number | null = null;
  let sinceLast: Digest | null = null;
  let seenAtOpen: number | null = (() => {
    const v = Number(localStorage.getItem(seenKey(id)));
    return Number.isFinite(v) && v > 0 ? v : null;
  })();

  const lastSeq = () => (events.length ? events[events.length - 1].seq : 0);

  async function fetchEvents() {
    for (;;) {
      const page = await api.events(id, lastSeq());
      // A poll and an action may fetch at the same time: keep each seq once, in order.
      const last = lastSeq();
      events = events.concat(page.events.filter((e) => e.seq > last));
      if (!page.hasMore || page.events.length === 0) break;
    }
  }

  function openStory(s: DayStory) {
    story = s;
    playing = !reducedMotion();
    shown = playing ? 1 : s.steps.length;
    storiesUpTo = Math.max(storiesUpTo ?? 0, s.to);
  }

  function afterEvents() {
    const stories = dayStories(events).filter((s) => s.complete);
    const newest = stories[stories.length - 1];
    if (storiesUpTo === null) {
      // First load: what this browser saw before, and what happened since.
      storiesUpTo = lastSeq();
      if (seenAtOpen !== null && seenAtOpen < lastSeq()) {
        const d = digest(events, seenAtOpen);
        if (d.events > 0) sinceLast = d;
      }
      seenAtOpen = null;
    } else if (newest && newest.to > storiesUpTo) openStory(newest);
    if (!document.hidden) localStorage.setItem(seenKey(id), String(lastSeq()));
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
    afterEvents();
    if (game.status === 'FINISHED' && !frames) openReplay();
    else if (frames) {
      // Open during the game: the new events join it; a reader at the last event follows them.
      const atEnd = step === frames.length - 1;
      frames = framesOf(game);
      step = atEnd ? frames.length - 1 : Math.min(step, frames.length - 1);
    }
  }

  /** The frames up to the game as loaded (the log may already hold newer events). */
  const framesOf = (g: Game) =>
    buildReplay(
      events.filter((e) => e.seq <= g.lastSeq),
      g,
    );
  function openReplay() {
    frames = framesOf(game!);
    step = frames.length - 1;
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

  let refreshing: Promise<void> | null = null;
  /** The game and the new log events; a push (or poll) and another at once refresh once. */
  const load = () => (refreshing ??= refresh().finally(() => (refreshing = null)));
  let loaded = false;
  // The first load and every change after it: push where it is available (AWS and the local
  // server alike), polling the version with the SDK's back-off otherwise (live.ts).
  const updates = gameUpdates<Game>(
    id,
    {
      game: async () => {
        await load();
        return game;
      },
      version: () => fetchVersion(id),
    },
    () => {
      if (!alive) return;
      if (!busy) draw();
      if (!loaded) {
        loaded = true;
        if (frames) followLog(root);
      }
    },
    {
      pollMs: POLL_MS,
      onPushing: () => draw(),
      onError: (e) => {
        if (notFound) updates.stop();
        if (game || !alive) return;
        error = message(e);
        draw();
      },
    },
  );

  const replay = (): ReplayState | null =>
    frames && {
      frames,
      step,
      move: (to: number) => {
        step = Math.max(0, Math.min(frames!.length - 1, to));
        draw();
        followLog(root);
      },
      close:
        game?.status === 'FINISHED'
          ? null
          : () => {
              frames = null;
              draw();
              document.querySelector<HTMLElement>('[data-key=r-open]')?.focus();
            },
    };

  function dayReplay() {
    if (!story) return null;
    return {
      story,
      shown,
      next: () => {
        shown = Math.min(story!.steps.length, shown + 1);
        playing = false;
        draw();
      },
      all: () => {
        shown = story!.steps.length;
        playing = false;
        draw();
      },
      close: () => {
        story = null;
        playing = false;
        draw();
      },
    };
  }

  function draw() {
    if (!alive) return;
    if (notFound) {
      clearAlert('Game not found');
      render(
        root,
        header('Game not found'),
        h(
          'main',
          { 'data-key': 'nf' },
          h('p', null, 'There is no such game.'),
          h('a', { href: '#/' }, 'Back to the lobby'),
        ),
      );
      return;
    }
    const g = game;
    if (!g) {
      render(
        root,
        header('Loading game…'),
        h('main', { 'data-key': 'loading' }, h('p', { role: 'status' }, error || 'Loading…')),
      );
      return;
    }
    const ctx: TableCtx = { game: g, events, busy, names: namesFor(g), now: Date.now(), act, redraw: draw };
    const r = replay();
    const d = dayReplay();
    const title = `${editionName(g.edition, g.board)} game`;
    turnAlert(isMyTurn(ctx) ? 1 : 0, title);
    const where =
      g.status === 'ACTIVE'
        ? `${roundWord(g.edition)} ${g.round} of ${g.daysPerRound.length} · Day ${g.day} of ${g.days.length} · ${g.phase.toLowerCase()}`
        : g.status === 'LOBBY'
          ? 'Waiting in the lobby'
          : 'Finished';
    const sound = h(
      'label',
      { class: 'sound' },
      h('input', {
        type: 'checkbox',
        'data-key': 'sound',
        checked: soundOn(),
        onchange: (e: Event) => setSound((e.target as HTMLInputElement).checked),
      }),
      ' Sound on my turn',
    );
    const finished = g.status === 'FINISHED';
    render(
      root,
      header(title, h('p', { class: 'where' }, where, ' ', sound)),
      h(
        'main',
        {
          class: 'table',
          'data-testid': 'table',
          'data-key': `table-${g.id}`,
          'data-status': g.status,
          'data-version': g.version,
          'data-seq': lastSeq(),
          'aria-busy': busy ? 'true' : 'false',
          'data-live': updates.pushing() ? 'push' : 'poll',
        },
        h(
          'div',
          { class: 'col-main' },
          statusLine(ctx),
          h('p', { role: 'alert', class: 'error', 'data-key': 'error' }, error),
          g.me?.prompts.map((p) => promptPart(ctx, p)),
          g.status !== 'LOBBY' && g.me && !finished && handPart(ctx),
          g.status === 'ACTIVE' && scenePart(ctx),
          sinceLast &&
            digestPart(
              ctx,
              sinceLast,
              dayStories(events).some((s) => s.complete)
                ? () => {
                    const all = dayStories(events).filter((s) => s.complete);
                    sinceLast = null;
                    openStory(all[all.length - 1]);
                    draw();
                  }
                : null,
              () => {
                sinceLast = null;
                draw();
              },
            ),
          d && dayReplayPart(ctx, d),
          g.status === 'LOBBY' && lobbySeats(ctx),
          finished && rankingPart(ctx),
          finished && scoresPart(ctx),
          g.status !== 'LOBBY' && reputationPart(ctx),
          g.status !== 'LOBBY' && densPart(ctx),
          playersPart(ctx),
          r && replayPart(ctx, r),
          g.status === 'ACTIVE' &&
            !r &&
            h(
              'p',
              { 'data-key': 'r-open-p' },
              h(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  'data-key': 'r-open',
                  onclick: () => {
                    openReplay();
                    draw();
                    document.querySelector<HTMLElement>('[data-key=r-first]')?.focus();
                  },
                },
                'Replay the game so far',
              ),
            ),
        ),
        h(
          'div',
          { class: 'col-side' },
          g.status !== 'LOBBY' && legendPart(ctx),
          sidePanels(ctx),
          logPart(ctx, r ? r.frames[r.step].seq : null, {
            days: logDays,
            more: () => {
              logDays += LOG_PAGE;
              draw();
            },
          }),
        ),
      ),
    );
  }

  draw();
  // The day replay plays by itself; countdowns move on.
  let ticks = 0;
  const ticker = setInterval(() => {
    ticks++;
    if (story && playing && shown < story.steps.length) {
      shown++;
      if (shown >= story.steps.length) playing = false;
      draw();
    } else if (ticks % 20 === 0) draw();
  }, STEP_MS);
  return () => {
    alive = false;
    updates.stop();
    clearInterval(ticker);
  };
}
