// The lobby: create a game, my games (whose turn it is), open games to join.
import { api, ApiError, type Board, type BotKind, type Edition, type GameSummary } from '../api';
import { h, render } from '../dom';
import { saveSession } from '../session';
import { go, header, message } from '../shell';
import { turnAlert } from '../alerts';
import { pollingUpdates } from '../live';
import { editionName, roundWord, timeLeft, turnText } from '../words';
import { remindersPanel } from './reminders';

const EDITIONS: [Edition, string][] = [
  ['CLASSIC', 'Classic (2012)'],
  ['GALECREST', 'Winds of Galecrest (2022)'],
];
const BOARD_NAMES: Record<Board, string> = { CALM: 'Calm', STORMY: 'Stormy', UNCHARTED: 'Uncharted' };
/** The sides offered: only those the server can set up (Query.boards), Calm until it answers. */
let boards: Board[] = ['CALM'];

export function lobbyScreen(root: HTMLElement): () => void {
  let mine: GameSummary[] = [];
  let open: GameSummary[] = [];
  let error = '';
  let busy = false;
  const form = {
    edition: 'CLASSIC' as Edition,
    seats: 4,
    bots: 3,
    botKind: 'GREEDY' as BotKind,
    board: 'CALM' as Board,
    hours: '',
    seed: '',
  };
  let alive = true;

  const field = (label: string, id: string, control: HTMLElement, hint?: string) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      control,
      hint && h('small', { id: `${id}-hint` }, hint),
    );

  function draw() {
    const seatsOpts = [2, 3, 4, 5, 6];
    turnAlert(mine.filter((g) => g.status === 'ACTIVE' && g.me && g.awaiting.includes(g.me.seat)).length, 'Lobby');
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
                {
                  id: 'edition',
                  'data-key': 'edition',
                  value: form.edition,
                  onchange: (e: Event) => ((form.edition = (e.target as HTMLSelectElement).value as Edition), draw()),
                },
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
                {
                  id: 'bots',
                  'data-key': 'bots',
                  value: form.bots,
                  'aria-describedby': 'bots-hint',
                  onchange: (e: Event) => ((form.bots = Number((e.target as HTMLSelectElement).value)), draw()),
                },
                Array.from({ length: form.seats }, (_, n) => h('option', { value: n }, String(n))),
              ),
              'The last seats are played by bots; the others wait for players to join.',
            ),
            field(
              'Bot play',
              'botkind',
              h(
                'select',
                {
                  id: 'botkind',
                  'data-key': 'botkind',
                  value: form.botKind,
                  onchange: (e: Event) => (form.botKind = (e.target as HTMLSelectElement).value as BotKind),
                },
                h('option', { value: 'GREEDY' }, 'Greedy (looks one day ahead)'),
                h('option', { value: 'RANDOM' }, 'Random'),
                h('option', { value: 'EXPERT' }, 'Expert (searches, slower)'),
              ),
            ),
            form.edition === 'GALECREST' &&
              field(
                'Board',
                'board',
                h(
                  'select',
                  {
                    id: 'board',
                    'data-key': 'board',
                    value: form.board,
                    'aria-describedby': 'board-hint',
                    onchange: (e: Event) => (form.board = (e.target as HTMLSelectElement).value as Board),
                  },
                  boards.map((v) => h('option', { value: v }, BOARD_NAMES[v])),
                ),
                boards.length === 1 ? `Only the ${BOARD_NAMES[boards[0]]} side can be played here for now.` : undefined,
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
                    const mineDue = g.me ? g.seats[g.me.seat]?.deadline : null;
                    const due = t === 'Your turn' ? mineDue : g.status === 'ACTIVE' ? g.nextDeadline : null;
                    return h(
                      'li',
                      { class: t === 'Your turn' ? 'mine turn' : 'mine', 'data-key': `mine-${g.id}` },
                      h(
                        'a',
                        { href: `#/game/${g.id}`, 'data-key': `open-${g.id}` },
                        `${editionName(g.edition, g.board)}, ${g.seatCount} seats`,
                      ),
                      h(
                        'span',
                        { class: 'meta' },
                        g.status === 'ACTIVE' ? `${roundWord(g.edition)} ${g.round}, day ${g.day} · ` : '',
                        h('strong', null, t),
                        due ? h('span', { class: 'deadline', 'data-testid': 'countdown' }, ` · ${timeLeft(due)}`) : '',
                      ),
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
                      { 'data-key': `open-li-${g.id}` },
                      h(
                        'span',
                        null,
                        `${editionName(g.edition, g.board)}: ${g.seats.filter((s) => !s.isOpen).length} of ${g.seatCount} seats taken`,
                      ),
                      h('span', { class: 'meta' }, g.seats.map((s) => s.name ?? 'free seat').join(', ')),
                      h('span', { class: 'meta', 'data-testid': 'open-terms' }, openTerms(g)),
                      g.me
                        ? h('a', { href: `#/game/${g.id}`, 'data-key': `open-${g.id}` }, 'Open')
                        : h(
                            'button',
                            { type: 'button', 'data-key': `join-${g.id}`, onclick: () => join(g.id) },
                            'Join',
                          ),
                    ),
                  ),
                ),
          ),
        ),
        remindersPanel(draw),
      ),
    );
  }

  void api
    .boards('GALECREST')
    .then((b) => {
      boards = b.length ? b : boards;
      if (!boards.includes(form.board)) form.board = boards[0];
      if (alive) draw();
    })
    .catch(() => undefined); // Calm stays offered; the lists show any error

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
  // Lists and countdowns refresh every 5 s while the tab is visible.
  const updates = pollingUpdates(async () => true, 5000);
  updates.start(load);
  return () => {
    alive = false;
    updates.stop();
  };
}

/** What a joiner signs up for: the time per decision and how many bots play. */
export function openTerms(g: GameSummary): string {
  const bots = g.seats.filter((s) => s.isBot).length;
  const limit = g.decisionTimeLimitHours ? `${g.decisionTimeLimitHours} h per decision` : 'no time limit';
  return `${limit} · ${bots ? `${bots} bot${bots === 1 ? '' : 's'}` : 'no bots'}`;
}
