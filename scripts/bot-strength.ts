// npm run bots:strength -- [--games 1000] [--workers 2] [--bot expert] [--vs greedy]
//                          [--editions classic,galecrest] [--players 4,2] [--card 400 --prompt 160 --max-commands 40000]
//                          [--log games.jsonl] | --summarize games.jsonl
// How strong is a bot? One seat of `--bot` against `--vs` bots in every other seat, the bot's
// seat rotated game by game, for each edition and player count. Prints its win rate with a
// 95% confidence interval (Wilson) against the fair share (1 / players), mean scores, and the
// CPU time of its decisions. Games are split over `--workers` child processes (each measures
// its own CPU time); on a shared machine keep --workers small.
import { fork } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  applyInPlace,
  botCommand,
  botRandom,
  createGame,
  type BotKind,
  type EditionId,
} from '../functions/engine/index.js';
import { firstAwaitedSeat } from '../functions/engine/core.js';
import { EXPERT_BUDGET, expertCommand, type SearchBudget } from '../functions/engine/bots/search.js';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '1000' },
    workers: { type: 'string', default: '2' },
    bot: { type: 'string', default: 'expert' },
    vs: { type: 'string', default: 'greedy' },
    editions: { type: 'string', default: 'classic,galecrest' },
    players: { type: 'string', default: '4,2' },
    card: { type: 'string', default: String(EXPERT_BUDGET.cardPlayouts) },
    prompt: { type: 'string', default: String(EXPERT_BUDGET.promptPlayouts) },
    'max-commands': { type: 'string', default: String(EXPERT_BUDGET.maxCommands) },
    shard: { type: 'string' },
    /** Also append every game's result to this file (JSON lines), as it comes. */
    log: { type: 'string' },
    /** Only summarize the games of a --log file (e.g. of a run cut short). */
    summarize: { type: 'string' },
  },
});

interface Job {
  edition: EditionId;
  players: number;
  game: number;
}
interface GameResult extends Job {
  win: boolean;
  botScore: number;
  othersScore: number;
  decisions: number;
  cpuMs: number;
  maxMs: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const bot = values.bot as BotKind;
const vs = values.vs as BotKind;
const budget: SearchBudget = {
  cardPlayouts: Number(values.card),
  promptPlayouts: Number(values.prompt),
  maxCommands: Number(values['max-commands']),
};

function playOne(job: Job): GameResult {
  const { edition, players, game } = job;
  const seat = game % players;
  const g = createGame({
    edition,
    players,
    seed: `strength-${edition}-${players}-${game}`,
    board: edition === 'galecrest' ? 'calm' : undefined,
  });
  const rnd = botRandom(`strength-bots-${edition}-${players}-${game}`);
  let decisions = 0;
  let spent = 0;
  let maxMs = 0;
  for (let n = 0; !g.finished; n++) {
    if (n > 5000) throw new Error(`game ${game} did not finish`);
    const s = firstAwaitedSeat(g);
    let cmd;
    if (s === seat) {
      const t0 = cpuMs();
      cmd = bot === 'expert' ? expertCommand(g, s, rnd, budget) : botCommand(g, s, bot, rnd);
      const dt = cpuMs() - t0;
      decisions++;
      spent += dt;
      if (dt > maxMs) maxMs = dt;
    } else cmd = botCommand(g, s, vs, rnd);
    applyInPlace(g, cmd, null);
  }
  let others = 0;
  for (let s = 0; s < players; s++) if (s !== seat) others += g.seats[s].score / (players - 1);
  return {
    ...job,
    win: g.ranking[0] === seat,
    botScore: g.seats[seat].score,
    othersScore: others,
    decisions,
    cpuMs: spent,
    maxMs,
  };
}

/** Every game to play, the configurations interleaved (a cut-short run still covers them all). */
function jobs(): Job[] {
  const games = Number(values.games);
  const out: Job[] = [];
  for (let game = 0; game < games; game++) {
    for (const edition of values.editions!.split(',') as EditionId[]) {
      for (const players of values.players!.split(',').map(Number)) out.push({ edition, players, game });
    }
  }
  return out;
}

/** Wilson score interval at 95%. */
function wilson(wins: number, n: number): [number, number] {
  const z = 1.96;
  const p = wins / n;
  const den = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / den;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / den;
  return [mid - half, mid + half];
}

if (values.shard !== undefined) {
  // A worker: play every k-th job of the list, report each game as one JSON line.
  const [k, of] = values.shard.split('/').map(Number);
  const all = jobs();
  // One uncounted game per configuration first: decision times are measured warm (JIT done).
  for (const edition of values.editions!.split(',') as EditionId[])
    playOne({ edition, players: 2, game: 1_000_000 + k });
  for (let i = k; i < all.length; i += of) process.stdout.write(JSON.stringify(playOne(all[i])) + '\n');
} else {
  const workers = Math.max(1, Number(values.workers));
  const all = jobs();
  const results: GameResult[] = [];
  const t0 = Date.now();
  if (values.summarize) {
    for (const line of readFileSync(values.summarize, 'utf8').split('\n'))
      if (line.trim()) results.push(JSON.parse(line) as GameResult);
  } else await playAll(all, results, workers, t0);
  report(results, workers, t0);
}

async function playAll(all: Job[], results: GameResult[], workers: number, t0: number): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const passOn = process.argv.slice(2);
  await Promise.all(
    Array.from({ length: workers }, (_, k) => {
      return new Promise<void>((resolve, reject) => {
        const child = fork(self, [...passOn, '--shard', `${k}/${workers}`], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
        });
        let buf = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          buf += chunk.toString();
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            results.push(JSON.parse(buf.slice(0, i)) as GameResult);
            if (values.log) appendFileSync(values.log, buf.slice(0, i) + '\n');
            buf = buf.slice(i + 1);
            if (results.length % 20 === 0)
              process.stderr.write(
                `\r${results.length}/${all.length} games, ${Math.round((Date.now() - t0) / 1000)} s`,
              );
          }
        });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${k} exited with ${code}`))));
      });
    }),
  );
  process.stderr.write('\n');
}

function report(results: GameResult[], workers: number, t0: number): void {
  const rows = [];
  for (const edition of values.editions!.split(',')) {
    for (const players of values.players!.split(',').map(Number)) {
      const rs = results.filter((r) => r.edition === edition && r.players === players);
      if (rs.length === 0) continue;
      const wins = rs.filter((r) => r.win).length;
      const [lo, hi] = wilson(wins, rs.length);
      const decisions = rs.reduce((n, r) => n + r.decisions, 0);
      const cpu = rs.reduce((n, r) => n + r.cpuMs, 0);
      rows.push({
        edition,
        players,
        games: rs.length,
        bot,
        vs,
        wins,
        winRate: Number((wins / rs.length).toFixed(4)),
        ci95: [Number(lo.toFixed(4)), Number(hi.toFixed(4))],
        fairShare: Number((1 / players).toFixed(4)),
        botMeanScore: Number((rs.reduce((n, r) => n + r.botScore, 0) / rs.length).toFixed(2)),
        othersMeanScore: Number((rs.reduce((n, r) => n + r.othersScore, 0) / rs.length).toFixed(2)),
        decisions,
        decisionsPerSecond: Number(((decisions / cpu) * 1000).toFixed(1)),
        meanDecisionMs: Number((cpu / decisions).toFixed(2)),
        maxDecisionMs: Number(Math.max(...rs.map((r) => r.maxMs)).toFixed(1)),
      });
    }
  }
  const out = {
    budget: bot === 'expert' ? budget : null,
    workers,
    seconds: Math.round((Date.now() - t0) / 1000),
    rows,
  };
  for (const r of rows) {
    process.stderr.write(
      `${r.edition} ${r.players}p: ${r.bot} vs ${r.players - 1} ${r.vs}: won ${r.wins}/${r.games} = ${(100 * r.winRate).toFixed(1)}% ` +
        `(95% CI ${(100 * r.ci95[0]).toFixed(1)}-${(100 * r.ci95[1]).toFixed(1)}%, fair share ${(100 * r.fairShare).toFixed(0)}%), ` +
        `${r.decisionsPerSecond} decisions/s, mean ${r.meanDecisionMs} ms, max ${r.maxDecisionMs} ms CPU\n`,
    );
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
