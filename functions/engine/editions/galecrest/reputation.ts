// The reputation track: six spaces, always holding all six tokens (unused colours included).
// Moving a token slides the tokens it passes one space the other way; steps past either end
// become doubloons (+1 per step above the top, -1 per step below the bottom).
import { gain, pay } from '../../actions.js';
import type { Ctx } from '../../edition.js';
import { fail } from '../../errors.js';
import { shuffle } from '../../rng.js';
import type { GameOptions, GameState } from '../../types.js';
import { ext } from './state.js';

export const TRACK_SPACES = 6;
/** Doubloons printed under each space, lowest reputation first (rules reference, source Z). */
export const REPUTATION_DOUBLOONS: readonly number[] = [12, 11, 10, 9, 8, 7];

/**
 * Each seat's space on the last track read (`posTrack`): the island's tie-break asks for every
 * card placed, the voyage's payout and every move for one seat, so the positions are worked
 * out once per track and kept up to date by changeReputation, the only code that edits a track
 * in place (set-up, copies and JSON make new lists, which a different identity catches).
 * Kept beside the state, not in it, so the state and its JSON stay as they are.
 */
let posTrack: readonly (number | null)[] | null = null;
const POS = new Int8Array(8);

function fillPositions(track: readonly (number | null)[]): void {
  POS.fill(-1);
  for (let i = 0; i < track.length; i++) {
    const t = track[i];
    if (typeof t === 'number' && t >= 0 && t < POS.length) POS[t] = i;
  }
  posTrack = track;
}

export function reputationOf(g: GameState, seat: number): number {
  const track = ext(g).track;
  if (seat >= 0 && seat < POS.length) {
    if (track !== posTrack) fillPositions(track);
    return POS[seat];
  }
  // A loop, not indexOf: the track mixes seats and nulls, which the built-in searches generically.
  for (let i = 0; i < track.length; i++) if (track[i] === seat) return i;
  return -1;
}

/**
 * Moves a seat's token by delta spaces. Returns the overflow (signed doubloons); it is paid
 * at once unless `settle` is false (anchor: the caller adds it to the seat's ledger).
 */
export function changeReputation(x: Ctx, seat: number, delta: number, reason: string, settle = true): number {
  if (delta === 0) return 0;
  const track = ext(x.g).track;
  const from = reputationOf(x.g, seat);
  const raw = from + delta;
  const to = raw < 0 ? 0 : raw >= TRACK_SPACES ? TRACK_SPACES - 1 : raw;
  // The tokens between slide one space towards `from` (what removing and re-inserting would
  // do, without the two splices).
  const dir = to > from ? 1 : -1;
  for (let i = from; i !== to; i += dir) track[i] = track[i + dir];
  track[to] = seat;
  if (track === posTrack) {
    // The seats that slid, and this one.
    for (let i = from; i !== to; i += dir) {
      const t = track[i];
      if (typeof t === 'number' && t >= 0 && t < POS.length) POS[t] = i;
    }
    if (seat >= 0 && seat < POS.length) POS[seat] = to;
  }
  const overflow = raw - to;
  x.log.reputation(track, seat, from, to, overflow, reason);
  if (settle) {
    if (overflow > 0) gain(x, seat, overflow, 'reputation overflow');
    else if (overflow < 0) pay(x, seat, -overflow, 'reputation overflow');
  }
  return overflow;
}

/** Moves a token straight to a space (Bandit, Captain); returns the spaces moved. */
export function moveReputationTo(x: Ctx, seat: number, to: number, reason: string): number {
  const from = reputationOf(x.g, seat);
  changeReputation(x, seat, to - from, reason);
  return Math.abs(to - from);
}

/** Set-up: the scenario's track, or random (2 players: the two players on the 3rd and 4th spaces). */
export function setupTrack(g: GameState, opts: GameOptions): void {
  if (opts.reputation !== undefined) {
    ext(g).track = checkTrack(opts.reputation, g.players);
    return;
  }
  const seats: (number | null)[] = [];
  for (let s = 0; s < g.players; s++) seats.push(s);
  if (g.players === 2) {
    shuffle(g, seats);
    ext(g).track = [null, null, seats[0], seats[1], null, null];
    return;
  }
  while (seats.length < TRACK_SPACES) seats.push(null);
  ext(g).track = shuffle(g, seats);
}

function checkTrack(track: unknown, players: number): (number | null)[] {
  if (!Array.isArray(track) || track.length !== TRACK_SPACES) {
    fail('BAD_USER_INPUT', `reputation lists the ${TRACK_SPACES} track spaces, lowest first (seat numbers or null)`);
  }
  const seen = new Set<number>();
  for (const t of track) {
    if (t === null) continue;
    if (!Number.isInteger(t) || t < 0 || t >= players)
      fail('BAD_USER_INPUT', `reputation: no seat ${JSON.stringify(t)}`);
    if (seen.has(t)) fail('BAD_USER_INPUT', `reputation: seat ${t} is on the track twice`);
    seen.add(t);
  }
  if (seen.size !== players)
    fail('BAD_USER_INPUT', `reputation: every seat (0-${players - 1}) needs a token on the track`);
  return [...track];
}

/** Start of every voyage: each player gains the doubloons printed under their space. */
export function payReputation(x: Ctx): void {
  for (let s = 0; s < x.g.players; s++) gain(x, s, REPUTATION_DOUBLOONS[reputationOf(x.g, s)], 'reputation');
}
