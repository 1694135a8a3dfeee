// The e-mail reminder settings panel (lobby): accounts only (a guest gets ACCOUNT_REQUIRED and
// sees nothing), hidden where the deployment sends no e-mail (MAIL_UNAVAILABLE). State lives
// here; `redraw` is the screen's own draw, so the lobby's polls keep what is being typed.
import { ApiError, request } from '../api';
import { h } from '../dom';
import { RemindersDocument, SetRemindersDocument } from '../generated';

const DELAYS = [1, 4, 12, 24, 48];

interface State {
  loaded: boolean;
  hidden: boolean;
  email: string;
  enabled: boolean;
  delayHours: number;
  dailyDigest: boolean;
  confirmed: boolean;
  dailyLimit: number;
  note: string;
}

const state: State = {
  loaded: false,
  hidden: false,
  email: '',
  enabled: false,
  delayHours: 12,
  dailyDigest: false,
  confirmed: false,
  dailyLimit: 10,
  note: '',
};
let loading = false;

type Settings = {
  email?: string | null;
  confirmed: boolean;
  enabled: boolean;
  delayHours: number;
  dailyDigest: boolean;
  dailyLimit: number;
};
const take = (s: Settings) => Object.assign(state, { ...s, email: s.email ?? '', loaded: true });

function load(redraw: () => void) {
  if (loading || state.loaded || state.hidden) return;
  loading = true;
  request(RemindersDocument)
    .then((d) => take(d.reminderSettings))
    .catch(() => (state.hidden = true)) // a guest, or no e-mail here
    .finally(() => {
      loading = false;
      redraw();
    });
}

async function save(e: Event, redraw: () => void) {
  e.preventDefault();
  try {
    const input = {
      email: state.email || null,
      enabled: state.enabled,
      delayHours: state.delayHours,
      dailyDigest: state.dailyDigest,
    };
    take((await request(SetRemindersDocument, { input })).setReminders);
    state.note =
      state.enabled && !state.confirmed ? 'Saved: follow the link we e-mailed you to confirm the address.' : 'Saved.';
  } catch (err) {
    state.note = err instanceof ApiError ? err.message : 'Could not save.';
  }
  redraw();
}

/** The panel, or null while loading / for players without reminders. */
export function remindersPanel(redraw: () => void): HTMLElement | null {
  load(redraw);
  if (!state.loaded || state.hidden) return null;
  const check = (key: 'enabled' | 'dailyDigest', label: string) =>
    h(
      'label',
      null,
      h('input', {
        type: 'checkbox',
        'data-key': `rem-${key}`,
        checked: state[key],
        onchange: (ev: Event) => (state[key] = (ev.target as HTMLInputElement).checked),
      }),
      ` ${label}`,
    );
  return h(
    'section',
    { 'aria-labelledby': 'rem-h', 'data-key': 'reminders' },
    h('h2', { id: 'rem-h' }, 'E-mail reminders'),
    h(
      'form',
      { onsubmit: (ev: Event) => save(ev, redraw), 'aria-label': 'E-mail reminders' },
      h('label', { for: 'rem-email' }, 'Address'),
      h('input', {
        id: 'rem-email',
        type: 'email',
        autocomplete: 'email',
        maxlength: 254,
        value: state.email,
        oninput: (ev: Event) => (state.email = (ev.target as HTMLInputElement).value),
      }),
      check('enabled', 'Remind me when a game waits for me'),
      h('label', { for: 'rem-delay' }, 'After'),
      h(
        'select',
        {
          id: 'rem-delay',
          value: String(state.delayHours),
          onchange: (ev: Event) => (state.delayHours = Number((ev.target as HTMLSelectElement).value)),
        },
        DELAYS.map((d) => h('option', { value: String(d) }, `${d} hour${d === 1 ? '' : 's'}`)),
      ),
      check('dailyDigest', 'A daily digest of my games'),
      h('button', { type: 'submit' }, 'Save'),
      h(
        'p',
        { class: 'meta', role: 'status' },
        state.note || (state.email && !state.confirmed ? 'Address not confirmed yet.' : ''),
        ` At most ${state.dailyLimit} e-mails a day; every one has an unsubscribe link.`,
      ),
    ),
  );
}
