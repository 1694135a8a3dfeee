// npm run sim -- simulate --edition classic --players 4 --games 100 --seed s [--bot random|greedy|expert]
// npm run sim -- play scenario.json
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BOT_KINDS, playBotGame, playScenario, type BotKind, type EditionId } from '../functions/engine/index.js';

function simulate(args: string[]): number {
  const { values } = parseArgs({
    args,
    options: {
      edition: { type: 'string', default: 'classic' },
      players: { type: 'string', default: '4' },
      games: { type: 'string', default: '100' },
      seed: { type: 'string', default: 'sim' },
      bot: { type: 'string', default: 'random' },
      board: { type: 'string' },
    },
  });
  const bot = values.bot as BotKind;
  if (!BOT_KINDS.includes(bot)) throw new Error(`--bot is one of ${BOT_KINDS.join(', ')}`);
  const players = Number(values.players);
  const games = Number(values.games);
  const scores: number[][] = [];
  let finished = 0;
  let commands = 0;
  const t0 = performance.now();
  for (let i = 0; i < games; i++) {
    const seed = `${values.seed}#${i}`;
    const { state, commands: n } = playBotGame(
      { edition: values.edition as EditionId, players, seed, board: values.board },
      [bot],
      i + 1,
    );
    commands += n;
    if (state.finished) finished++;
    scores.push(state.seats.map((s) => s.score));
  }
  const seconds = (performance.now() - t0) / 1000;
  const out = { games, finished, commands, seconds, gamesPerSecond: games / seconds, scores };
  process.stdout.write(JSON.stringify(out) + '\n');
  return 0;
}

function play(file: string | undefined): number {
  if (!file) throw new Error('usage: npm run sim -- play <scenario.json>');
  const result = playScenario(JSON.parse(readFileSync(file, 'utf8')));
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return 'error' in result ? 1 : 0;
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'simulate') process.exitCode = simulate(rest);
  else if (command === 'play') process.exitCode = play(rest[0]);
  else {
    process.stderr.write('usage: npm run sim -- simulate [options] | play <scenario.json>\n');
    process.exitCode = 2;
  }
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exitCode = 2;
}
