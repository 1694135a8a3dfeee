// Game data in plain words on the client: character names and rules (from the API's
// `characters` query), edition words, time left. Event sentences, prompt texts and option
// labels come from the server already in words (with players' names): they are shown as given.
import type { Board, Edition, Game, GameSummary } from './api';
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
  if (!Number.isInteger(rank))
    return 'Neutral (2 players): sits between 20 and 21 and takes nothing. At its dusk turn the player who does not own the character directly left of it returns one of today’s loot tokens to the bag, before that character picks.';
  return cardTable(edition)?.[rank]?.[1] ?? '';
}

/** When the card acts: day, dusk, night, end. */
export function cardTimings(edition: Edition, rank: number): string[] {
  return cardTable(edition)?.[rank]?.[2] ?? [];
}

/** Classic: the tie-break mark printed on this seat colour's copy of the card; null otherwise. */
export function tieBreakMark(edition: Edition, rank: number, seat: number): number | null {
  if (edition !== 'CLASSIC' || seat < 0 || !Number.isInteger(rank)) return null;
  return cardTable(edition)?.[rank]?.[3]?.[seat] ?? null;
}

/** Where the day's characters stand, in the server's words (words.ts place): classic the island, Galecrest the sea. */
export const islandWords = (e: Edition) =>
  e === 'GALECREST'
    ? {
        heading: 'At sea',
        empty: 'Nobody is at sea.',
        waiting: 'Characters set out at sunrise, once everyone has chosen.',
      }
    : {
        heading: 'Island',
        empty: 'Nobody is ashore.',
        waiting: 'Characters come ashore at sunrise, once everyone has chosen.',
      };

/** When a character acts, in words: "Day", "Dusk", "Night", "End of campaign" (classic) / "End of voyage". */
export function timingWord(e: Edition, timing: string): string {
  const words: Record<string, string> = {
    day: 'Day',
    dusk: 'Dusk',
    night: 'Night',
    end: `End of ${roundWord(e).toLowerCase()}`,
  };
  return words[timing] ?? timing;
}

export const roundWord = (e: Edition) => (e === 'GALECREST' ? 'Voyage' : 'Campaign');
export const denWord = (e: Edition) => (e === 'GALECREST' ? 'ship' : 'den');

export function when(iso: string | null): string {
  if (!iso) return '';
  const t = new Date(iso);
  return t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "2 d 3 h left", "1 h 05 min left", "4 min left", "due now". */
export function timeLeft(iso: string | null, now = Date.now()): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime() - now;
  if (!(ms > 0)) return 'due now';
  const min = Math.ceil(ms / 60_000);
  // Two days and more in days; below, hours and minutes.
  if (min >= 2880) return `${Math.floor(min / 1440)} d ${Math.floor((min % 1440) / 60)} h left`;
  const [hr, m] = [Math.floor(min / 60), min % 60];
  if (hr > 0) return `${hr} h ${String(m).padStart(2, '0')} min left`;
  return `${m} min left`;
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
  const names = g.awaiting.map((s) => g.seats[s]?.name ?? 'a player');
  return names.length ? `Waiting for ${names.join(', ')}` : 'Running';
}
