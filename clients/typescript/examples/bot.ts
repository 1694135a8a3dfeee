// An example bot that uses nothing but the SDK: it signs up (the server issues bearer tokens
// at sign-up), creates a game with bot opponents (or, with --join, joins the newest open game
// of the edition and waits for its creator to start it), then plays it to the end: it picks a
// random card of its hand when the game waits for its choice and a random option of its
// prompts, and otherwise follows the event log until the game moves on.
//
//   npx tsx clients/typescript/examples/bot.ts --url http://localhost:4000 --edition GALECREST
import { isStale, LibertaliaClient, type Edition, type Game } from '../src/index.js';

export interface BotOptions {
  url: string;
  edition: Edition;
  name?: string;
  /** Seats of a created game (the others are server bots). */
  seats?: number;
  /** Join the newest open game of the edition instead of creating one. */
  join?: boolean;
  seed?: number;
  log?: (line: string) => void;
}

/** A small seeded random source, so a run can be repeated. */
/** A conditional move: its answer, or null when the game moved on first (STALE: nothing applied). */
async function conditional(move: () => Promise<Game>): Promise<Game | null> {
  try {
    return await move();
  } catch (e) {
    if (isStale(e)) return null;
    throw e;
  }
}

function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

export async function playOneGame(opts: BotOptions): Promise<{ game: Game; moves: number; events: number }> {
  const log = opts.log ?? (() => {});
  const rnd = random(opts.seed ?? Date.now());
  const api = new LibertaliaClient({ url: opts.url });
  const me = await api.signUp(opts.name ?? `SDK bot ${Math.floor(rnd() * 1e6)}`);
  log(`signed up as ${me.name}`);

  let game: Game | null = null;
  if (opts.join) {
    for await (const open of api.openGames()) {
      if (open.edition === opts.edition) {
        game = await api.joinGame(open.id);
        log(`joined ${game.id}`);
        break;
      }
    }
  }
  if (!game) {
    const seats = opts.seats ?? 3;
    game = await api.createGame({ edition: opts.edition, seats, bots: seats - 1, botKind: 'GREEDY' });
    game = await api.startGame(game.id);
    log(`created and started ${game.id} (${opts.edition}, ${seats} seats)`);
  }

  // Follow the log from where we are; each time the game may need us, read it and act.
  let cursor = game.lastSeq;
  let moves = 0;
  let events = 0;
  while (game.status !== 'FINISHED' && game.status !== 'CANCELLED') {
    const mine = game.me;
    const prompt = mine?.prompts[0];
    if (game.status === 'ACTIVE' && mine && prompt) {
      const option = prompt.options[Math.floor(rnd() * prompt.options.length)];
      // Conditional on the view it was decided on: if the game moved on meanwhile, read it again.
      const answered = await conditional(() =>
        api.answerPrompt(game!.id, prompt.id, option.id, { ifVersion: game!.version }),
      );
      if (answered) moves++;
      game = answered ?? (await api.game(game.id)) ?? game;
      continue;
    }
    if (
      game.status === 'ACTIVE' &&
      mine &&
      game.phase === 'CHOOSE' &&
      game.awaiting.includes(mine.seat) &&
      mine.choice === null
    ) {
      const rank = mine.hand[Math.floor(rnd() * mine.hand.length)];
      const played = await conditional(() => api.playCard(game!.id, rank, { ifVersion: game!.version }));
      if (played) moves++;
      game = played ?? (await api.game(game.id)) ?? game;
      continue;
    }
    // Not our turn: wait for the log to grow (polling; subscribe() is the WebSocket way).
    const page = await api.eventsPage(game.id, cursor);
    events += page.events.length;
    if (page.events.length === 0) await new Promise((r) => setTimeout(r, 200));
    cursor = page.endCursor;
    game = (await api.game(game.id)) ?? game;
  }
  // The rest of the log, typed: each event narrows on __typename.
  for await (const e of api.events(game.id, cursor)) {
    events++;
    if (e.__typename === 'GameEndEvent')
      log(`game over: ranking ${e.ranking.join(', ')}, scores ${e.scores.join(', ')}`);
  }
  log(
    `finished: place ${game.ranking.find((r) => r.seat === game!.me?.seat)?.place} of ${game.seatCount}, ${moves} moves`,
  );
  return { game, moves, events };
}

const isMain = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const result = await playOneGame({
    url: arg('url') ?? 'http://localhost:4000',
    edition: (arg('edition') ?? 'CLASSIC') as Edition,
    seats: arg('seats') ? Number(arg('seats')) : undefined,
    join: process.argv.includes('--join'),
    log: (line) => console.log(line),
  });
  console.log(
    JSON.stringify({
      id: result.game.id,
      status: result.game.status,
      ranking: result.game.ranking,
      moves: result.moves,
    }),
  );
}
