// Golden games (golden.ts): seeded random-bot games per edition, player count and seed derivation, replayed
// and compared hash by hash with the checked-in games.json. A changed hash means a rule (or the
// event log, or the state's shape) changed: if that change is intended, run
// `npm run golden:update` and commit the games.json diff with it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGS, gameKey, GOLDEN_FILE, goldenHash, PLAYERS } from './golden.js';

const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as Record<string, string>;

describe('golden games', () => {
  it('the file holds exactly the games the configuration lists', () => {
    const expected = CONFIGS.flatMap((c) =>
      PLAYERS.flatMap((p) => Array.from({ length: c.games }, (_, i) => gameKey(c.name, p, i))),
    );
    expect(Object.keys(golden)).toEqual(expected);
  });

  describe.each(CONFIGS)('$name', (config) => {
    it.each(PLAYERS)(`%i players: ${config.games} games replay to their recorded hashes`, (players) => {
      const changed: string[] = [];
      for (let i = 0; i < config.games; i++) {
        const key = gameKey(config.name, players, i);
        const hash = goldenHash(config, players, i);
        if (hash !== golden[key]) changed.push(`${key}: ${golden[key]} -> ${hash}`);
      }
      expect(
        changed,
        `${changed.length} golden game(s) changed. A rule change? If intended, run \`npm run golden:update\` and commit test/golden/games.json.`,
      ).toEqual([]);
    });
  });
});
