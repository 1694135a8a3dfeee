// The reference play-by-web client: sign up, lobby, game table, replay. Hash routes:
// #/ (lobby, or sign-up without a session) and #/game/<id> (the table).
import './style.css';
import { api, ApiError, fetchGame, loadSession, saveSession, type Board, type BotKind, type Edition, type Game, type GameEvent, type GameSummary, type Prompt } from './api';
import { h, render } from './dom';
import { loadCards } from './cards';
import { buildReplay, type Frame } from './replay';
import { cardName, cardText, denWord, describe, MIDSHIPMAN_SEAT, type Names, roundWord, when } from './words';

const root = document.getElementById('app')!;
const POLL_MS = Number(new URLSearchParams(location.search).get('poll')) || 1500;

let stop: (() => void) | null = null;

function message(e: unknown): string {
  return e instanceof ApiError || e instanceof Error ? e.message : String(e);
}

function go(hash: string): void {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route(): void {
  stop?.();
  stop = null;
  const session = loadSession();
  const m = /^#\/game\/([^/]+)$/.exec(location.hash);
  if (!session) signUpScreen(m ? location.hash : '#/');
  else if (m) stop = gameScreen(decodeURIComponent(m[1]));
  else stop = lobbyScreen();
}

function header(title: string, extra?: Node): HTMLElement {
  const session = loadSession();
  return h(
    'header',
    { class: 'top' },
    h('a', { href: '#/', class: 'brand' }, 'Libertalia Online'),
    h('h1', null, title),
    session &&
      h(
        'p',
        { class: 'who' },
        `Signed in as ${session.name} `,
        h('button', { type: 'button', class: 'link', 'data-key': 'signout', onclick: () => (saveSession(null), go('#/')) }, 'Sign out'),
      ),
    extra,
  );
}

// ---- sign up ----

function signUpScreen(next: string): void {
  let error = '';
  const draw = () =>
    render(
      root,
      header('Sign up'),
      h(
        'main',
        { class: 'narrow' },
        h('p', null, 'Pick a pirate name to play Libertalia (classic or Winds of Galecrest) against friends and bots. No password: your session stays in this browser.'),
        h(
          'form',
          { onsubmit: submit, 'aria-label': 'Sign up' },
          h('label', { for: 'name' }, 'Your name'),
          h('input', { id: 'name', name: 'name', required: true, maxlength: 40, autocomplete: 'nickname', 'data-key': 'name' }),
          h('button', { type: 'submit', 'data-key': 'signup' }, 'Sign up'),
        ),
        h('p', { role: 'alert', class: 'error' }, error),
      ),
    );
  async function submit(ev: Event) {
    ev.preventDefault();
    const name = (root.querySelector('#name') as HTMLInputElement).value.trim();
    if (!name) return;
    try {
      saveSession(await api.signUp(name));
      go(next);
    } catch (e) {
      error = message(e);
      draw();
    }
  }
  draw();
  (root.querySelector('#name') as HTMLInputElement).focus();
}

// ---- lobby ----

const EDITIONS: [Edition, string][] = [
  ['CLASSIC', 'Classic (2012)'],
  ['GALECREST', 'Winds of Galecrest (2022)'],
];
const BOARDS: [Board, string][] = [
  ['CALM', 'Calm'],
  ['STORMY', 'Stormy'],
  ['UNCHARTED', 'Uncharted'],
];

function editionName(e: Edition, board: Board | null): string {
  return e === 'GALECREST' ? `Winds of Galecrest${board ? ` (${board.toLowerCase()} board)` : ''}` : 'Classic';
}

function turnText(g: GameSummary | Game, mySeat: number | null): string {
  if (g.status === 'LOBBY') {
    const open = g.seats.filter((s) => s.isOpen).length;
    return open ? `Waiting for ${open} more player${open === 1 ? '' : 's'}` : 'Ready to start';
  }
  if (g.status === 'FINISHED') return 'Finished';
  if (mySeat !== null && g.awaiting.includes(mySeat)) return 'Your turn';
  const names = g.awaiting.map((s) => g.seats[s]?.name ?? `Seat ${s + 1}`);
  return names.length ? `Waiting for ${names.join(', ')}` : 'Running';
}

function lobbyScreen(): () => void {
  let mine: GameSummary[] = [];
  let open: GameSummary[] = [];
  let error = '';
  let busy = false;
  const form = { edition: 'CLASSIC' as Edition, seats: 4, bots: 3, botKind: 'GREEDY' as BotKind, board: 'CALM' as Board, hours: '', seed: '' };
  let alive = true;

  const field = (label: string, id: string, control: HTMLElement, hint?: string) =>
    h('div', { class: 'field' }, h('label', { for: id }, label), control, hint && h('small', { id: `${id}-hint` }, hint));

  function draw() {
    const seatsOpts = [2, 3, 4, 5, 6];
    render(
      root,
      header('Lobby'),
      h(
        'main',
        { class: 'lobby' },
        h(
          'section',
          { 'aria-labelledby': 'new-h' },
          h('h2', { id: 'new-h' }, 'New game'),
          h(
            'form',
            { onsubmit: create, 'aria-label': 'New game' },
            field(
              'Edition',
              'edition',
              h(
                'select',
                { id: 'edition', 'data-key': 'edition', value: form.edition, onchange: (e: Event) => ((form.edition = (e.target as HTMLSelectElement).value as Edition), draw()) },
                EDITIONS.map(([v, l]) => h('option', { value: v }, l)),
              ),
            ),
            field(
              'Seats',
              'seats',
              h(
                'select',
                {
                  id: 'seats',
                  'data-key': 'seats',
                  value: form.seats,
                  onchange: (e: Event) => {
                    form.seats = Number((e.target as HTMLSelectElement).value);
                    form.bots = Math.min(form.bots, form.seats - 1);
                    draw();
                  },
                },
                seatsOpts.map((n) => h('option', { value: n }, String(n))),
              ),
            ),
            field(
              'Bots',
              'bots',
              h(
                'select',
                { id: 'bots', 'data-key': 'bots', value: form.bots, 'aria-describedby': 'bots-hint', onchange: (e: Event) => ((form.bots = Number((e.target as HTMLSelectElement).value)), draw()) },
                Array.from({ length: form.seats }, (_, n) => h('option', { value: n }, String(n))),
              ),
              'The last seats are played by bots; the others wait for players to join.',
            ),
            field(
              'Bot play',
              'botkind',
              h(
                'select',
                { id: 'botkind', 'data-key': 'botkind', value: form.botKind, onchange: (e: Event) => (form.botKind = (e.target as HTMLSelectElement).value as BotKind) },
                h('option', { value: 'GREEDY' }, 'Greedy (looks one day ahead)'),
                h('option', { value: 'RANDOM' }, 'Random'),
              ),
            ),
            form.edition === 'GALECREST' &&
              field(
                'Board',
                'board',
                h(
                  'select',
                  { id: 'board', 'data-key': 'board', value: form.board, onchange: (e: Event) => (form.board = (e.target as HTMLSelectElement).value as Board) },
                  BOARDS.map(([v, l]) => h('option', { value: v }, l)),
                ),
              ),
            field(
              'Time limit per decision (hours)',
              'hours',
              h('input', {
                id: 'hours',
                'data-key': 'hours',
                type: 'number',
                min: 1,
                max: 720,
                inputmode: 'numeric',
                placeholder: 'no limit',
                value: form.hours,
                'aria-describedby': 'hours-hint',
                oninput: (e: Event) => (form.hours = (e.target as HTMLInputElement).value),
              }),
              'Leave empty for no limit.',
            ),
            field(
              'Seed (optional)',
              'seed',
              h('input', {
                id: 'seed',
                'data-key': 'seed',
                maxlength: 100,
                placeholder: 'random',
                value: form.seed,
                'aria-describedby': 'seed-hint',
                oninput: (e: Event) => (form.seed = (e.target as HTMLInputElement).value),
              }),
              'The same seed and moves replay the same game.',
            ),
            h('button', { type: 'submit', 'data-key': 'create', disabled: busy }, 'Create game'),
          ),
          h('p', { role: 'alert', class: 'error' }, error),
        ),
        h(
          'div',
          { class: 'col-side' },
        h(
          'section',
          { 'aria-labelledby': 'mine-h' },
          h('h2', { id: 'mine-h' }, 'My games'),
          mine.length === 0
            ? h('p', null, 'No games yet.')
            : h(
                'ul',
                { class: 'games', 'data-testid': 'my-games' },
                mine.map((g) => {
                  const t = turnText(g, g.me?.seat ?? null);
                  return h(
                    'li',
                    { class: t === 'Your turn' ? 'mine turn' : 'mine' },
                    h('a', { href: `#/game/${g.id}`, 'data-key': `open-${g.id}` }, `${editionName(g.edition, g.board)}, ${g.seatCount} seats`),
                    h('span', { class: 'meta' }, g.status === 'ACTIVE' ? `${roundWord(g.edition)} ${g.round}, day ${g.day} · ` : '', h('strong', null, t)),
                    h('span', { class: 'meta' }, g.seats.map((s) => s.name ?? 'free seat').join(', ')),
                  );
                }),
              ),
        ),
        h(
          'section',
          { 'aria-labelledby': 'open-h' },
          h('h2', { id: 'open-h' }, 'Open games'),
          open.length === 0
            ? h('p', null, 'No game is waiting for players.')
            : h(
                'ul',
                { class: 'games', 'data-testid': 'open-games' },
                open.map((g) =>
                  h(
                    'li',
                    null,
                    h('span', null, `${editionName(g.edition, g.board)}: ${g.seats.filter((s) => !s.isOpen).length} of ${g.seatCount} seats taken`),
                    h('span', { class: 'meta' }, g.seats.map((s) => s.name ?? 'free seat').join(', ')),
                    g.me
                      ? h('a', { href: `#/game/${g.id}`, 'data-key': `open-${g.id}` }, 'Open')
                      : h('button', { type: 'button', 'data-key': `join-${g.id}`, onclick: () => join(g.id) }, 'Join'),
                  ),
                ),
              ),
          ),
        ),
      ),
    );
  }

  async function load() {
    try {
      [mine, open] = await Promise.all([api.myGames(), api.openGames()]);
      error = '';
    } catch (e) {
      error = message(e);
      if (e instanceof ApiError && e.code === 'UNAUTHENTICATED') {
        saveSession(null);
        go('#/');
        return;
      }
    }
    if (alive) draw();
  }

  async function create(ev: Event) {
    ev.preventDefault();
    busy = true;
    draw();
    try {
      const id = await api.createGame({
        edition: form.edition,
        seats: form.seats,
        bots: form.bots,
        botKind: form.botKind,
        ...(form.edition === 'GALECREST' ? { board: form.board } : {}),
        decisionTimeLimitHours: form.hours ? Number(form.hours) : null,
        ...(form.seed.trim() ? { seed: form.seed.trim() } : {}),
      });
      go(`#/game/${id}`);
    } catch (e) {
      error = message(e);
      busy = false;
      draw();
    }
  }

  async function join(id: string) {
    try {
      await api.joinGame(id);
      go(`#/game/${id}`);
    } catch (e) {
      error = message(e);
      draw();
    }
  }

  draw();
  void load();
  const timer = setInterval(() => void load(), 5000);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

// ---- the game table ----

const SEAT_COLORS = 6;

function gameScreen(id: string): () => void {
  let game: Game | null = null;
  let events: GameEvent[] = [];
  let error = '';
  let busy = false;
  let alive = true;
  let notFound = false;
  let frames: Frame[] | null = null;
  let step = 0;
  let polling = false;

  const names = (): Names => ({
    edition: game?.edition ?? 'CLASSIC',
    seat: (s: number) => (s === MIDSHIPMAN_SEAT ? 'neutral' : game?.me?.seat === s ? 'You' : (game?.seats[s]?.name ?? `Seat ${s + 1}`)),
  });
  const seatName = (s: number) => names().seat(s);
  const card = (rank: number) => cardName(game!.edition, rank);

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

  // ---- parts of the table ----

  function statusLine(g: Game): HTMLElement {
    let text: string;
    const me = g.me;
    if (g.status === 'LOBBY') text = turnText(g, me?.seat ?? null);
    else if (g.status === 'FINISHED') text = `Game over: ${g.ranking[0] ? seatName(g.ranking[0].seat) : '?'} ${g.ranking[0]?.seat === me?.seat ? 'win' : 'wins'}.`;
    else if (me && me.prompts.length) text = 'Your turn: answer the decision below.';
    else if (me && g.phase === 'CHOOSE' && g.awaiting.includes(me.seat)) text = `Your turn: choose your character for day ${g.day}.`;
    else if (me && g.phase === 'CHOOSE' && me.choice !== null) text = `You chose ${card(me.choice)}. Waiting for ${g.awaiting.map(seatName).join(', ')}.`;
    else text = turnText(g, me?.seat ?? null);
    return h('p', { class: 'status', role: 'status', 'data-testid': 'status' }, text);
  }

  function lobbyPart(g: Game): HTMLElement {
    const me = g.me;
    const session = loadSession();
    const full = g.seats.every((s) => !s.isOpen);
    const isCreator = session?.playerId === g.creatorId;
    return h(
      'section',
      { 'aria-labelledby': 'lobby-h' },
      h('h2', { id: 'lobby-h' }, 'Seats'),
      h(
        'ol',
        { class: 'seats-list' },
        g.seats.map((s) => h('li', null, s.isOpen ? 'free seat' : `${s.name ?? '?'}${s.isBot ? ' (bot)' : ''}${me?.seat === s.seat ? ' (you)' : ''}`)),
      ),
      g.decisionTimeLimitHours ? h('p', null, `Each decision may take ${g.decisionTimeLimitHours} hours.`) : h('p', null, 'No time limit.'),
      h(
        'div',
        { class: 'actions' },
        isCreator && h('button', { type: 'button', 'data-key': 'start', disabled: busy || !full, onclick: () => act(() => api.startGame(id)) }, 'Start game'),
        isCreator && !full && h('p', null, 'Share this page’s address: the game starts when every seat is taken.'),
        !me && g.seats.some((s) => s.isOpen) && h('button', { type: 'button', 'data-key': 'join', disabled: busy, onclick: () => act(() => api.joinGame(id)) }, 'Join this game'),
        me && !isCreator && h('button', { type: 'button', 'data-key': 'leave', disabled: busy, onclick: () => act(() => api.leaveGame(id)).then(() => go('#/')) }, 'Leave'),
      ),
    );
  }

  function promptPart(g: Game, p: Prompt): HTMLElement {
    return h(
      'section',
      { class: 'prompt', 'aria-labelledby': `prompt-${p.id}`, 'data-testid': 'prompt' },
      h('h2', { id: `prompt-${p.id}` }, 'Your decision'),
      h('p', { class: 'prompt-text' }, p.text),
      p.deadline && h('p', { class: 'deadline' }, `Answer by ${when(p.deadline)}.`),
      h(
        'div',
        { class: 'options', role: 'group', 'aria-label': p.text },
        p.options.map((o) =>
          h(
            'button',
            { type: 'button', 'data-key': `opt-${o.id}`, 'data-option': o.id, disabled: busy, onclick: () => act(() => api.answerPrompt(g.id, p.id, o.id)) },
            optionLabel(g, p, o.label, o.id),
          ),
        ),
      ),
    );
  }

  function optionLabel(g: Game, p: Prompt, label: string, optionId: string): string {
    // Character options are "<seat>:<rank>": say whose card it is.
    const m = /^(-?\d+):(\d+(?:\.\d+)?)$/.exec(optionId);
    if (p.kind === 'character' && m) return `${seatName(Number(m[1]))}: ${cardName(g.edition, Number(m[2]))}`;
    return label;
  }

  function handPart(g: Game): HTMLElement {
    const me = g.me!;
    const choosing = g.status === 'ACTIVE' && g.phase === 'CHOOSE' && (g.awaiting.includes(me.seat) || me.choice !== null);
    return h(
      'section',
      { 'aria-labelledby': 'hand-h', class: 'hand' },
      h('h2', { id: 'hand-h' }, `Your hand (${me.hand.length} card${me.hand.length === 1 ? '' : 's'})`),
      choosing
        ? h(
            'p',
            { id: 'hand-hint' },
            me.choice === null ? `Choose the character you send ashore on day ${g.day}.` : 'You may change your choice until the last player has chosen.',
            me.choiceDeadline ? ` Due ${when(me.choiceDeadline)}.` : '',
          )
        : h('p', { id: 'hand-hint' }, g.status === 'ACTIVE' ? 'Cards are chosen at the start of each day.' : ''),
      h(
        'ul',
        { class: 'cards', 'data-testid': 'hand', 'aria-describedby': 'hand-hint' },
        me.hand.map((r) =>
          h(
            'li',
            null,
            h(
              'button',
              {
                type: 'button',
                class: 'card',
                'data-key': `card-${r}`,
                'data-rank': r,
                'aria-pressed': me.choice === r ? 'true' : 'false',
                disabled: !choosing || busy,
                onclick: () => act(() => api.playCard(g.id, r)),
              },
              h('strong', null, card(r)),
              h('small', null, cardText(g.edition, r)),
            ),
          ),
        ),
      ),
    );
  }

  function islandPart(g: Game): HTMLElement {
    return h(
      'section',
      { 'aria-labelledby': 'island-h' },
      h('h2', { id: 'island-h' }, 'Island (rank order, left to right)'),
      g.island.length === 0
        ? h('p', { class: 'muted' }, 'Nobody is ashore.')
        : h(
            'ol',
            { class: 'island', 'data-testid': 'island' },
            g.island.map((c) =>
              h('li', { class: `chip seat-${c.seat < 0 ? 'n' : c.seat % SEAT_COLORS}`, title: cardText(g.edition, c.rank) }, h('strong', null, cardName(g.edition, c.rank)), h('span', null, seatName(c.seat))),
            ),
          ),
    );
  }

  function lootPart(g: Game): HTMLElement {
    const today = g.days[g.day - 1] ?? [];
    return h(
      'section',
      { 'aria-labelledby': 'loot-h' },
      h('h2', { id: 'loot-h' }, 'Loot'),
      h('p', null, h('strong', null, `Day ${g.day}: `), today.length ? today.join(', ') : 'taken'),
      h(
        'details',
        null,
        h('summary', { 'data-key': 'loot-more' }, `The ${roundWord(g.edition).toLowerCase()}’s other days (bag: ${g.bagSize} tokens)`),
        h(
          'ol',
          null,
          g.days.map((d, i) => h('li', null, `Day ${i + 1}: ${d.length ? d.join(', ') : '—'}`)),
        ),
      ),
    );
  }

  function reputationPart(g: Game): HTMLElement | null {
    const track = g.boardInfo.reputation;
    if (g.edition !== 'GALECREST' || !Array.isArray(track)) return null;
    return h(
      'section',
      { 'aria-labelledby': 'rep-h' },
      h('h2', { id: 'rep-h' }, 'Reputation track'),
      h('p', { class: 'muted' }, 'Lowest to highest. Equal ranks on the island: the higher reputation sits to the right.'),
      h(
        'ol',
        { class: 'track', start: 0, 'data-testid': 'reputation' },
        track.map((s, i) => h('li', { class: s === null ? 'empty' : `chip seat-${s % SEAT_COLORS}` }, h('span', { class: 'space' }, `Space ${i}`), h('strong', null, s === null ? '—' : seatName(s)))),
      ),
    );
  }

  function seatsPart(g: Game): HTMLElement {
    const gal = g.edition === 'GALECREST';
    const cols = ['Player', 'Doubloons', 'Score', 'Hand', denWord(g.edition) === 'ship' ? 'Ship' : 'Den', 'Loot', ...(gal ? ['Reputation'] : []), 'Now'];
    return h(
      'section',
      { 'aria-labelledby': 'seats-h' },
      h('h2', { id: 'seats-h' }, 'Players'),
      h(
        'div',
        { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'Players table' },
        h(
          'table',
          { 'data-testid': 'seats' },
          h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            null,
            g.seats.map((s) =>
              h(
                'tr',
                { class: s.seat === g.me?.seat ? 'me' : '' },
                h('th', { scope: 'row' }, h('span', { class: `dot seat-${s.seat % SEAT_COLORS}` }), `${s.name ?? 'free seat'}${s.isBot ? ' (bot)' : ''}${s.seat === g.me?.seat ? ' (you)' : ''}`),
                h('td', null, String(s.doubloons)),
                h('td', null, String(s.score)),
                h('td', null, String(s.handSize)),
                h('td', null, s.den.length ? s.den.map(card).join(', ') : '—'),
                h('td', null, s.loot ? s.loot.filter((l) => l.count > 0).map((l) => `${l.count} ${l.kind}`).join(', ') || '—' : `${s.lootCount} face down`),
                gal && h('td', null, s.reputation === null ? '—' : String(s.reputation)),
                h('td', null, s.awaited ? (s.deadline ? `deciding (due ${when(s.deadline)})` : 'deciding') : g.phase === 'CHOOSE' && s.hasChosen ? 'has chosen' : ''),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function rankingPart(g: Game): HTMLElement {
    return h(
      'section',
      { 'aria-labelledby': 'rank-h', class: 'ranking' },
      h('h2', { id: 'rank-h' }, 'Final ranking'),
      h(
        'ol',
        { 'data-testid': 'ranking' },
        g.ranking.map((r) => h('li', null, h('strong', null, `${r.place}. ${r.name ?? `Seat ${r.seat + 1}`}${r.seat === g.me?.seat ? ' (you)' : ''}`), ` — ${r.score} points`)),
      ),
      g.seed && h('p', { class: 'muted' }, `Seed: ${g.seed}`),
    );
  }

  function replayPart(g: Game): HTMLElement | null {
    if (!frames || frames.length === 0) return null;
    const f = frames[step];
    const n = names();
    const move = (to: number) => {
      step = Math.max(0, Math.min(frames!.length - 1, to));
      draw();
    };
    const nextDay = () => {
      const i = frames!.findIndex((x, k) => k > step && x.event.type === 'sunrise');
      move(i < 0 ? frames!.length - 1 : i);
    };
    return h(
      'section',
      { 'aria-labelledby': 'replay-h', class: 'replay', 'data-testid': 'replay' },
      h('h2', { id: 'replay-h' }, 'Replay'),
      h(
        'div',
        { class: 'actions', role: 'group', 'aria-label': 'Replay controls' },
        h('button', { type: 'button', 'data-key': 'r-first', disabled: step === 0, onclick: () => move(0) }, '« First'),
        h('button', { type: 'button', 'data-key': 'r-prev', disabled: step === 0, onclick: () => move(step - 1) }, '◀ Back'),
        h('button', { type: 'button', 'data-key': 'r-next', disabled: step === frames.length - 1, onclick: () => move(step + 1) }, 'Next ▶'),
        h('button', { type: 'button', 'data-key': 'r-day', disabled: step === frames.length - 1, onclick: nextDay }, 'Next sunrise »'),
        h('button', { type: 'button', 'data-key': 'r-last', disabled: step === frames.length - 1, onclick: () => move(frames!.length - 1) }, 'Last »'),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'replay-step' }, `Event ${step + 1} of ${frames.length}`),
        h('input', { id: 'replay-step', type: 'range', min: 0, max: frames.length - 1, value: step, 'data-key': 'r-range', oninput: (e: Event) => move(Number((e.target as HTMLInputElement).value)) }),
      ),
      h('p', { class: 'replay-event', 'aria-live': 'polite', 'data-testid': 'replay-event' }, `${roundWord(g.edition)} ${f.round}, day ${f.day}: ${describe(f.event, n)}`),
      h('p', null, h('strong', null, 'Island: '), f.island.length ? f.island.map((c) => `${cardName(g.edition, c.rank)} (${n.seat(c.seat)})`).join(', ') : 'nobody ashore'),
      h(
        'div',
        { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'Players at this point' },
        h(
          'table',
          null,
          h('thead', null, h('tr', null, ['Player', 'Doubloons', 'Score', denWord(g.edition) === 'ship' ? 'Ship' : 'Den', 'Loot tokens', ...(g.edition === 'GALECREST' ? ['Reputation'] : [])].map((c) => h('th', { scope: 'col' }, c)))),
          h(
            'tbody',
            null,
            f.seats.map((s, i) =>
              h(
                'tr',
                null,
                h('th', { scope: 'row' }, n.seat(i)),
                h('td', null, String(s.doubloons)),
                h('td', null, String(s.score)),
                h('td', null, s.den.length ? s.den.map((r) => cardName(g.edition, r)).join(', ') : '—'),
                h('td', null, String(s.loot)),
                g.edition === 'GALECREST' && h('td', null, s.reputation === null ? '—' : String(s.reputation)),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function logPart(): HTMLElement {
    const n = names();
    const shown = events.slice(-200).reverse();
    return h(
      'section',
      { 'aria-labelledby': 'log-h', class: 'log' },
      h('h2', { id: 'log-h' }, 'Event log'),
      h('p', { class: 'muted' }, `Newest first (${events.length} events${events.length > shown.length ? `, last ${shown.length} shown` : ''}).`),
      h(
        'ol',
        { reversed: true, tabindex: 0, 'data-scroll': 'log', 'data-testid': 'log', 'aria-label': 'Event log, newest first' },
        shown.map((e) => h('li', { value: e.seq, class: `ev ev-${e.type}` }, describe(e, n))),
      ),
    );
  }

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
          statusLine(g),
          h('p', { role: 'alert', class: 'error' }, error),
          g.status === 'LOBBY' && lobbyPart(g),
          g.status === 'FINISHED' && rankingPart(g),
          g.me?.prompts.map((p) => promptPart(g, p)),
          g.status !== 'LOBBY' && g.me && g.status !== 'FINISHED' && handPart(g),
          g.status === 'ACTIVE' && islandPart(g),
          g.status === 'ACTIVE' && lootPart(g),
          g.status !== 'LOBBY' && reputationPart(g),
          seatsPart(g),
          g.status === 'FINISHED' && replayPart(g),
        ),
        h('div', { class: 'col-side' }, logPart()),
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

window.addEventListener('hashchange', route);
// Card names come from the API; draw anyway if it cannot be reached (ranks still show).
void loadCards().finally(route);
