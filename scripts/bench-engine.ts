// Engine throughput: complete bot games per second per edition and player count, and apply().
// Run through scripts/bench.ts, which bundles this file with esbuild like the Lambda build and
// starts it once per row (`--row classic:4:random`: that configuration alone, warmed on its own
// games, in a fresh process) and once more for every row in one process (no `--row`). `--list`
// prints the row names.
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
/**
 * CPU seconds of warm-up before a row is measured, on the row's own workload. Measured after a
 * fixed few hundred games, rows were understated and unsteady: the JIT and the young heap keep
 * settling for about a second (4-player classic after 1,500 warm games 21,411 games/s, after
 * 6,000 22,520, after 20,000 22,864; apply() after 150 games 611,177 commands/s, after 2,000
 * 1,116,599).
 */
const WARM_SECONDS = quick ? 0.5 : 2;
const editions: [EditionId, string | undefined][] = [['classic', undefined]];
if (isEditionId('galecrest')) editions.push(['galecrest', 'calm']);

/** One measured configuration: its name (`classic:4:random`, `classic:apply`...), a warm-up batch and the run. */
interface Config {
  name: string;
  warmBatch(round: number): void;
  run(): Row;
}

function configs(): Config[] {
  const out: Config[] = [];
  for (const [edition, board] of editions) {
    const play = (players: number, bot: BotKind, batch: number, games: number): Config => ({
      name: `${edition}:${players}:${bot}`,
      warmBatch: (round) => {
        for (let i = round * batch; i < (round + 1) * batch; i++) playBotGame({ edition, players, seed: `warm${i}`, board }, [bot], i + 1);
      },
      run: () => measure(edition, board, players, bot, games),
    });
    for (const players of [2, 4, 6]) out.push(play(players, 'random', 200, Math.round(20000 * scale)));
    out.push(play(4, 'greedy', 5, Math.round(200 * scale)));
    const pure = (json: boolean, batch: number, games: number): Config => ({
      name: `${edition}:${json ? 'apply-json' : 'apply'}`,
      warmBatch: () => void measurePureApply(edition, board, batch, json),
      run: () => measurePureApply(edition, board, games, json),
    });
    out.push(pure(false, 50, Math.round(1000 * scale)));
    out.push(pure(true, 10, Math.round(300 * scale)));
  }
  return out;
}

/** Runs warm-up batches of the row until WARM_SECONDS of CPU time have passed. */
function warm(c: Config): void {
  const t0 = cpu();
  for (let round = 0; cpu() - t0 < WARM_SECONDS; round++) c.warmBatch(round);
}

const argAt = process.argv.indexOf('--row');
const all = configs();
if (process.argv.includes('--list')) {
  process.stdout.write(JSON.stringify(all.map((c) => c.name)) + '\n');
} else if (argAt > 0) {
  // One configuration in this process (scripts/bench.ts starts one process per row): warmed
  // and measured on its own games only, so no other row's code paths or garbage weigh on it.
  const c = all.find((x) => x.name === process.argv[argAt + 1]);
  if (!c) throw new Error(`no row ${process.argv[argAt + 1]}; rows: ${all.map((x) => x.name).join(', ')}`);
  warm(c);
  process.stdout.write(JSON.stringify([c.run()]) + '\n');
} else {
  // Every row in ONE process, as the engine runs in a Lambda serving both editions: both
  // editions at every player count are played first, then each row is warmed and measured in
  // turn. Code that has seen both editions' objects runs slower than code that has seen one.
  process.stderr.write('engine: one process, playing both editions first...\n');
  for (let i = 0; i < 1500; i++) {
    const [edition, board] = editions[i % editions.length];
    playBotGame({ edition, players: 2 + (i % 5), seed: `warm${i}`, board }, ['random'], i + 1);
  }
  const rows: Row[] = [];
  for (const c of all) {
    process.stderr.write(`engine: ${c.name}...\n`);
    warm(c);
    rows.push(c.run());
  }
  process.stdout.write(JSON.stringify(rows) + '\n');
}
