// Engine throughput: complete bot games per second per edition and player count.
// Run through scripts/bench.ts, which bundles this file with esbuild like the Lambda build.
import { apply, applyInPlace, awaitedSeats, botCommand, botRandom, createGame, isEditionId, playBotGame, type BotKind, type EditionId } from '../functions/engine/index.js';

interface Row {
  edition: string;
  players: number;
  bot: BotKind;
  games: number;
  commands: number;
  cpuSeconds: number;
  gamesPerSecond: number;
  commandsPerSecond: number;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function measure(edition: EditionId, board: string | undefined, players: number, bot: BotKind, games: number): Row {
  let commands = 0;
  const t0 = cpu();
  for (let i = 0; i < games; i++) commands += playBotGame({ edition, players, seed: `bench${i}`, board }, [bot], i + 1).commands;
  const s = cpu() - t0;
  return { edition: board ? `${edition}/${board}` : edition, players, bot, games, commands, cpuSeconds: s, gamesPerSecond: games / s, commandsPerSecond: commands / s };
}

/**
 * The pure apply(): one state copy per command, as a caller keeping the old state uses it
 * (the search bot, the greedy bot's look-ahead). `json`: the same with the JSON round trip
 * that was the copy before clone.ts, measured in the same run for the ratio.
 */
function measurePureApply(edition: EditionId, board: string | undefined, games: number, json: boolean): Row {
  let commands = 0;
  const rnd = botRandom(7);
  const t0 = cpu();
  for (let i = 0; i < games; i++) {
    let g = createGame({ edition, players: 4, seed: `pure${i}`, board });
    while (!g.finished) {
      const cmd = botCommand(g, awaitedSeats(g)[0], 'random', rnd);
      if (json) {
        const h = JSON.parse(JSON.stringify(g)) as typeof g;
        applyInPlace(h, cmd, []);
        g = h;
      } else g = apply(g, cmd).state;
      commands++;
    }
  }
  const s = cpu() - t0;
  const name = `${board ? `${edition}/${board}` : edition} apply()${json ? ' JSON copy (before)' : ''}`;
  return { edition: name, players: 4, bot: 'random', games, commands, cpuSeconds: s, gamesPerSecond: games / s, commandsPerSecond: commands / s };
}

const quick = process.argv.includes('--quick');
const scale = quick ? 0.2 : 1;
const rows: Row[] = [];
const editions: [EditionId, string | undefined][] = [['classic', undefined]];
if (isEditionId('galecrest')) editions.push(['galecrest', 'calm']);
// Warm the JIT on every configuration first, so the order of the rows does not matter.
process.stderr.write('engine: warming up...\n');
for (let i = 0; i < 1500; i++) {
  const [edition, board] = editions[i % editions.length];
  playBotGame({ edition, players: 2 + (i % 5), seed: `warm${i}`, board }, ['random'], i + 1);
}
// The same for apply() and its JSON-copy variant: measured cold, apply()'s first few hundred
// games run largely unoptimized (and with a young heap still growing), which understated it
// by 2-4x against a JSON copy that needs no warming.
for (const [edition, board] of editions) {
  measurePureApply(edition, board, 150, false);
  measurePureApply(edition, board, 30, true);
}
for (const [edition, board] of editions) {
  for (const players of [2, 4, 6]) {
    process.stderr.write(`engine: ${edition} ${players}p random...\n`);
    rows.push(measure(edition, board, players, 'random', Math.round(20000 * scale)));
  }
  process.stderr.write(`engine: ${edition} 4p greedy...\n`);
  rows.push(measure(edition, board, 4, 'greedy', Math.round(200 * scale)));
  rows.push(measurePureApply(edition, board, Math.round(1000 * scale), false));
  rows.push(measurePureApply(edition, board, Math.round(300 * scale), true));
}
process.stdout.write(JSON.stringify(rows) + '\n');
