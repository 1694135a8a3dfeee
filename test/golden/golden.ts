// Golden games: seeded random-bot games of every edition and player count, each reduced to a
// hash of its final state and its whole event log. `npm test` replays them (golden.test.ts); a
// rule change shows as changed hashes. Regenerate deliberately with `npm run golden:update`
// (scripts/golden-update.ts) and commit the diff of games.json for review.
import { createHash } from 'node:crypto';
import { playBotGame, type GameOptions } from '../../functions/engine/index.js';

/** Games per edition and player count (of the version 1 configurations). */
export const GAMES_PER_CONFIG = 200;

/**
 * The 2,000 games recorded first were made with the seed derivation of that time (rng.ts
 * version 1, the 32-bit fold) and are pinned to it: they show that old games still replay
 * identically. A smaller set pins the current derivation (version 2, SHA-256).
 */
export const CONFIGS: { name: string; games: number; opts: Omit<GameOptions, 'seed' | 'players'> }[] = [
  { name: 'classic', games: GAMES_PER_CONFIG, opts: { edition: 'classic', rngVersion: 1 } },
  { name: 'galecrest', games: GAMES_PER_CONFIG, opts: { edition: 'galecrest', board: 'calm', rngVersion: 1 } },
  { name: 'classic-rng2', games: 20, opts: { edition: 'classic', rngVersion: 2 } },
  { name: 'galecrest-rng2', games: 20, opts: { edition: 'galecrest', board: 'calm', rngVersion: 2 } },
];
export const PLAYERS = [2, 3, 4, 5, 6];

/** The file's key of one game: `<config>/<players>/<index>`. */
export const gameKey = (config: string, players: number, i: number) => `${config}/${players}/${i}`;

/**
 * Plays game `i` of a configuration with random bots (bot seed i + 1, game seed from the key)
 * and returns the first 16 hex digits of SHA-256 over every command's events and the final state.
 */
export function goldenHash(config: (typeof CONFIGS)[number], players: number, i: number): string {
  const h = createHash('sha256');
  const seed = `golden ${gameKey(config.name, players, i)}`;
  const { state } = playBotGame({ ...config.opts, players, seed }, ['random'], i + 1, (_g, cmd, events) => {
    h.update(JSON.stringify(cmd));
    h.update(JSON.stringify(events));
  });
  h.update(JSON.stringify(state));
  return h.digest('hex').slice(0, 16);
}

/** Every golden game's key and hash, in file order. */
export function computeAll(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of CONFIGS) {
    for (const p of PLAYERS) for (let i = 0; i < c.games; i++) out[gameKey(c.name, p, i)] = goldenHash(c, p, i);
  }
  return out;
}

export const GOLDEN_FILE = new URL('./games.json', import.meta.url);
