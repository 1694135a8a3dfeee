// Golden games: seeded random-bot games of every edition and player count, each reduced to a
// hash of its final state and its whole event log. `npm test` replays them (golden.test.ts); a
// rule change shows as changed hashes. Regenerate deliberately with `npm run golden:update`
// (scripts/golden-update.ts) and commit the diff of games.json for review.
import { createHash } from 'node:crypto';
import { playBotGame, type GameOptions } from '../../functions/engine/index.js';

/** Games per edition and player count. */
export const GAMES_PER_CONFIG = 200;

export const CONFIGS: { name: string; opts: Omit<GameOptions, 'seed' | 'players'> }[] = [
  { name: 'classic', opts: { edition: 'classic' } },
  { name: 'galecrest', opts: { edition: 'galecrest', board: 'calm' } },
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
    for (const p of PLAYERS) for (let i = 0; i < GAMES_PER_CONFIG; i++) out[gameKey(c.name, p, i)] = goldenHash(c, p, i);
  }
  return out;
}

export const GOLDEN_FILE = new URL('./games.json', import.meta.url);
