// Game data in plain words: character names, places, and one sentence per event.
import type { Board, Edition, Game, GameEvent, GameSummary } from './api';
import { cardTable } from './cards';

export interface Names {
  edition: Edition;
  /** Seat names; the viewer's own seat reads "You". */
  seat: (seat: number) => string;
}

export const MIDSHIPMAN_SEAT = -1;

export function cardName(edition: Edition, rank: number): string {
  if (!Number.isInteger(rank)) return `Midshipman (${Math.floor(rank)}½)`;
  const c = cardTable(edition)?.[rank];
  return c ? `${c[0]} (${rank})` : `Character ${rank}`;
}

export function cardText(edition: Edition, rank: number): string {
  if (!Number.isInteger(rank)) return 'Neutral: takes the loot tokens nobody else takes.';
  return cardTable(edition)?.[rank]?.[1] ?? '';
}

export const roundWord = (e: Edition) => (e === 'GALECREST' ? 'Voyage' : 'Campaign');
export const denWord = (e: Edition) => (e === 'GALECREST' ? 'ship' : 'den');

function place(e: Edition, p: unknown): string {
  switch (p) {
    case 'island':
      return 'the island';
    case 'den':
      return `the ${denWord(e)}`;
    case 'hand':
      return 'the hand';
    case 'graveyard':
      return 'the graveyard';
    default:
      return String(p);
  }
}

const PHASES: Record<string, string> = {
  choose: 'Everyone chooses a card.',
  day: 'Day: abilities from left to right.',
  dusk: 'Dusk: loot is taken from right to left.',
  night: 'Night: abilities in the dens.',
  anchor: 'Anchor: the voyage is scored.',
};

const n = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : '');
const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
/** "takes" after a name, "take" after "You". */
const verb = (subject: string, s3: string) => (subject !== 'You' ? s3 : /(ss|sh|ch|x)es$/.test(s3) ? s3.slice(0, -2) : s3.slice(0, -1));
const poss = (subject: string) => (subject === 'You' ? 'Your' : `${subject}'s`);
const signed = (k: number) => (k >= 0 ? `+${k}` : `${k}`);

/** "2:14" or {seat, rank} -> "Anne's Brute (14)" */
function seatCard(names: Names, seat: number, rank: number): string {
  if (seat === MIDSHIPMAN_SEAT) return cardName(names.edition, rank);
  return `${names.seat(seat)}: ${cardName(names.edition, rank)}`;
}

function islandList(names: Names, v: unknown): string {
  if (!Array.isArray(v)) return '';
  return v
    .map((c) => {
      if (typeof c === 'string') {
        const [s, r] = c.split(':');
        return seatCard(names, n(s), n(r));
      }
      const o = c as { seat: number; rank: number };
      return seatCard(names, o.seat, o.rank);
    })
    .join(', ');
}

function answerWords(e: Edition, kind: string, answer: string): string {
  if ((kind === 'hand' || kind === 'graveyard') && /^\d+$/.test(answer)) return cardName(e, Number(answer));
  const m = /^(-?\d+):(\d+)$/.exec(answer);
  if (kind === 'character' && m) return cardName(e, Number(m[2]));
  return answer;
}

/** One event as a sentence. Unknown types still show, as their type and data. */
export function describe(ev: GameEvent, names: Names): string {
  const d = ev.data as Record<string, unknown>;
  const e = names.edition;
  const who = (k = 'seat') => names.seat(n(d[k]));
  const why = (k = 'reason') => (d[k] !== undefined && d[k] !== 'day' ? ` (${String(d[k])})` : '');
  switch (ev.type) {
    case 'gameCreated':
      return `Game created: ${String(d.edition)}${d.board ? ` (${String(d.board)} board)` : ''}, ${plural(n(d.seats), 'seat')}, ${plural(n(d.bots ?? 0), 'bot')}.`;
    case 'playerJoined':
      return `${String(d.name ?? 'A player')} takes seat ${n(d.seat) + 1}.`;
    case 'playerLeft':
      return `${String(d.name ?? 'A player')} leaves seat ${n(d.seat) + 1}.`;
    case 'gameStarted':
      return `The game starts with ${list(d.names)}. Day 1 loot: ${list(d.loot)}.`;
    case 'roundStart':
      return `${roundWord(e)} ${n(d.round)} begins (${plural(n(d.days), 'day')}). Dealt: ${Array.isArray(d.dealt) ? d.dealt.map((r) => cardName(e, n(r))).join(', ') : ''}.`;
    case 'dayStart':
      return `Day ${n(d.day)} begins. Loot: ${list(d.loot)}.`;
    case 'cardChosen': {
      const card = d.rank !== undefined ? ` ${cardName(e, n(d.rank))}` : ' a card';
      return `${who()} ${d.changed ? `${verb(who(), 'changes')} ${who() === 'You' ? 'your' : 'their'} choice to` : verb(who(), 'chooses')}${card}.`;
    }
    case 'sunrise':
      return `Sunrise: ${islandList(names, d.island)}.`;
    case 'phase':
      return PHASES[String(d.phase)] ?? `Phase: ${String(d.phase)}.`;
    case 'prompt':
      return `${who()} must decide (${String(d.kind)}).`;
    case 'answered':
      return `${who()} ${verb(who(), 'decides')}${d.answer !== undefined ? `: ${answerWords(e, String(d.kind), String(d.answer))}` : ''}.`;
    case 'character': {
      const card = d.rank !== undefined ? cardName(e, n(d.rank)) : 'a character';
      return `${poss(who())} ${card} moves from ${place(e, d.from)} to ${place(e, d.to)}${why()}.`;
    }
    case 'doubloons': {
      const k = n(d.delta);
      return `${who()} ${verb(who(), k >= 0 ? 'gains' : 'loses')} ${plural(Math.abs(k), 'doubloon')}${why()}.`;
    }
    case 'reputation':
      return `${poss(who())} reputation ${n(d.to) >= n(d.from) ? 'rises' : 'falls'} from ${n(d.from)} to ${n(d.to)}${n(d.overflow) ? ` (${n(d.overflow)} over the top)` : ''}${why()}.`;
    case 'lootGained':
      return `${who()} ${verb(who(), 'takes')} ${n(d.n) === 1 ? 'a' : n(d.n)} ${d.kind ? String(d.kind) : 'face-down token'}${n(d.n) > 1 ? 's' : ''}${why('why')}.`;
    case 'lootReturned':
      return `${who()} ${verb(who(), 'returns')} ${n(d.n)} ${d.kind ? String(d.kind) : 'face-down token'}${why('why')}.`;
    case 'lootRemoved':
      return `A ${String(d.kind)} goes back to the bag${d.seat !== undefined ? `, chosen by ${who()}` : ''}${why()}.`;
    case 'lootPassed':
      return `${names.seat(n(d.from))} ${verb(names.seat(n(d.from)), 'passes')} ${n(d.n)} ${String(d.kind)} to ${names.seat(n(d.to))}${why()}.`;
    case 'lootSwapped':
      return `${who()} ${verb(who(), 'swaps')} today's ${String(d.today)} with tomorrow's ${String(d.tomorrow)}${why()}.`;
    case 'lootLeftover':
      return `Loot left on day ${n(d.day)}: ${list(d.kinds)}.`;
    case 'kept':
      return `${who()} ${verb(who(), 'keeps')} ${cardName(e, n(d.rank))} aboard.`;
    case 'copied':
      return `${poss(who())} ${cardName(e, n(d.rank))} copies ${cardName(e, n(d.copied))}.`;
    case 'dayEnd':
      return `End of day ${n(d.day)}.`;
    case 'campaignScored':
      return `${who()} ${verb(who(), 'sells')} the booty for ${signed(n(d.value))} and ${verb(who(), 'banks')} ${plural(n(d.banked), 'doubloon')}: score ${n(d.score)}.`;
    case 'anchorAbility':
      return `Anchor: ${poss(who())} ${cardName(e, n(d.rank))} is worth ${signed(n(d.value))}.`;
    case 'anchorLoot':
      return `Anchor: ${poss(who())} ${n(d.count)} ${String(d.kind)} ${n(d.count) === 1 ? 'is' : 'are'} worth ${signed(n(d.value))}.`;
    case 'voyageBanked':
      return `${who()} ${verb(who(), 'banks')} ${plural(n(d.banked), 'doubloon')}: score ${n(d.score)}.`;
    case 'gameEnd': {
      const ranking = Array.isArray(d.ranking) ? d.ranking.map((s) => names.seat(n(s))) : [];
      return `Game over. ${ranking.length ? `${ranking[0]} ${verb(ranking[0], 'wins')}. Ranking: ${ranking.join(', ')}.` : ''}`;
    }
    default:
      return `${ev.type}: ${JSON.stringify(d)}`;
  }
}

export function when(iso: string | null): string {
  if (!iso) return '';
  const t = new Date(iso);
  return t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function editionName(e: Edition, board: Board | null): string {
  return e === 'GALECREST' ? `Winds of Galecrest${board ? ` (${board.toLowerCase()} board)` : ''}` : 'Classic';
}

export function turnText(g: GameSummary | Game, mySeat: number | null): string {
  if (g.status === 'LOBBY') {
    const open = g.seats.filter((s) => s.isOpen).length;
    return open ? `Waiting for ${open} more player${open === 1 ? '' : 's'}` : 'Ready to start';
  }
  if (g.status === 'FINISHED') return 'Finished';
  if (mySeat !== null && g.awaiting.includes(mySeat)) return 'Your turn';
  const names = g.awaiting.map((s) => g.seats[s]?.name ?? `Seat ${s + 1}`);
  return names.length ? `Waiting for ${names.join(', ')}` : 'Running';
}

