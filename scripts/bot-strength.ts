// npm run bots:strength -- [--games 1000] [--players 4] [--edition classic|galecrest]
// How strong is the greedy bot? One greedy seat against random seats, rotating the greedy seat;
// prints its win rate against the share a random seat would win (1 / players).
import { parseArgs } from 'node:util';
import { playBotGame, type BotKind, type EditionId } from '../functions/engine/index.js';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '1000' },
    players: { type: 'string', default: '4' },
    edition: { type: 'string', default: 'classic' },
  },
});
const games = Number(values.games);
const players = Number(values.players);
const edition = values.edition as EditionId;
const board = edition === 'galecrest' ? 'calm' : undefined;
let wins = 0;
let greedyScore = 0;
let randomScore = 0;
const t0 = performance.now();
for (let i = 0; i < games; i++) {
  const greedySeat = i % players;
  const bots: BotKind[] = Array.from({ length: players }, (_, s) => (s === greedySeat ? 'greedy' : 'random'));
  const { state } = playBotGame({ edition, players, seed: `strength${i}`, board }, bots, i + 1);
  if (state.ranking[0] === greedySeat) wins++;
  state.seats.forEach((s, seat) => (seat === greedySeat ? (greedyScore += s.score) : (randomScore += s.score / (players - 1))));
  if ((i + 1) % 100 === 0) process.stderr.write(`\r${i + 1}/${games} games`);
}
process.stderr.write('\n');
const out = {
  edition,
  players,
  games,
  greedyWinRate: wins / games,
  randomSeatShare: 1 / players,
  greedyMeanScore: greedyScore / games,
  randomMeanScore: randomScore / games,
  seconds: (performance.now() - t0) / 1000,
};
process.stdout.write(JSON.stringify(out) + '\n');
