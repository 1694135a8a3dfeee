// Turn alerts: the tab title and a favicon badge say when it is your turn, and an optional
// sound (off by default, kept in this browser) plays when a turn begins.
const BASE_TITLE = 'Libertalia Online';
const SOUND_KEY = 'libertalia.sound';

const icon = (badge: boolean) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M4 22h24l-4 6H8z" fill="#14324a"/><path d="M15 3v18H6z" fill="#0b5c8a"/><path d="M17 6v15h9z" fill="#56606b"/>${
      badge ? '<circle cx="25" cy="8" r="7" fill="#c0392b" stroke="#fff" stroke-width="2"/>' : ''
    }</svg>`,
  )}`;

let lastOn = false;

function favicon(badge: boolean): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  const href = icon(badge);
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
  link.dataset.badge = badge ? 'on' : 'off';
}

export function soundOn(): boolean {
  return localStorage.getItem(SOUND_KEY) === 'on';
}

export function setSound(on: boolean): void {
  if (on) localStorage.setItem(SOUND_KEY, 'on');
  else localStorage.removeItem(SOUND_KEY);
}

function chime(): void {
  try {
    const Ctx =
      window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ac = new Ctx();
    const o = ac.createOscillator();
    const g = ac.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.15, ac.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + 0.4);
    o.connect(g).connect(ac.destination);
    o.start();
    o.stop(ac.currentTime + 0.4);
    o.onended = () => void ac.close();
  } catch {
    // no sound: the title and the badge still tell
  }
}

/**
 * Sets the page's title and badge. `turns`: how many games wait for you (0: none); `what`:
 * the screen's own title.
 */
export function turnAlert(turns: number, what: string): void {
  const on = turns > 0;
  const title = on
    ? `● ${turns > 1 ? `${turns} games wait for you` : 'Your turn'} · ${what}`
    : `${what} · ${BASE_TITLE}`;
  if (document.title !== title) document.title = title;
  favicon(on);
  if (on && !lastOn && soundOn()) chime();
  lastOn = on;
}

export function clearAlert(what: string): void {
  turnAlert(0, what);
}
