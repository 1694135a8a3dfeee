// npm run verify -- --api http://localhost:4000 --game <id> [--token <access token>]
//
// Checks a finished game against the commitment it showed from its creation, from the public
// API only (as anyone may): the revealed seed hashes to `seedCommitment`; the game replayed by
// the rules engine from that seed, with the game's `rngVersion` and its recorded commands,
// produces exactly the game's event log (as a spectator sees it) and its final ranking and
// scores. Prints one line per check and a verdict; exit code 0 verified, 1 mismatch, 2 when the
// game cannot be checked (not finished, not found, not watchable without --token).
import { createHash } from 'node:crypto';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { type Command, playScenario, type Scenario, viewEvent } from '../functions/engine/index.js';

/** Events the service itself logs (seats, lobby, clock, rematch): not the engine's, so not replayed. */
const SERVICE_EVENTS = new Set([
  'gameCreated',
  'playerJoined',
  'playerInvited',
  'playerLeft',
  'creatorChanged',
  'gameCancelled',
  'botSeated',
  'gameStarted',
  'timeout',
  'seatReplaced',
  'rematch',
]);

const GAME = `query($id: ID!) { game(id: $id) { id status seed seedCommitment rngVersion seedChosenBy { name } scenario ranking { seat score } } }`;
const EVENTS = `query($g: ID!, $a: Int) { events(gameId: $g, after: $a, limit: 100) { events { seq type data } hasMore } }`;

export interface VerifyOptions {
  api: string;
  gameId: string;
  token?: string;
  /** The HTTP client (tests pass one that tampers with answers). */
  fetch?: typeof fetch;
}

export interface Verdict {
  verdict: 'verified' | 'mismatch' | 'unverifiable';
  /** One line per check, in order. */
  lines: string[];
}

/** The commitment the game showed at its creation (functions/api/lobby/seeds.ts): hex SHA-256. */
export const commitmentOf = (gameId: string, seed: string): string =>
  createHash('sha256').update(`libertalia-seed-v1:${gameId}:${seed}`).digest('hex');

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

async function gql(o: VerifyOptions, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await (o.fetch ?? fetch)(`${o.api.replace(/\/+$/, '')}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data;
}

async function publicLog(o: VerifyOptions): Promise<{ seq: number; type: string; data: unknown }[]> {
  const out: { seq: number; type: string; data: unknown }[] = [];
  for (let after = 0; ; ) {
    const page = (await gql(o, EVENTS, { g: o.gameId, a: after })).events;
    out.push(...page.events);
    if (!page.hasMore || page.events.length === 0) return out;
    after = out[out.length - 1].seq;
  }
}

/** The first difference between the service's log and the replay's engine events, or null. */
function logDifference(
  log: { seq: number; type: string; data: unknown }[],
  replayed: { type: string; data: unknown }[],
): string | null {
  let i = 0;
  for (const e of log) {
    if (SERVICE_EVENTS.has(e.type)) continue;
    const r = replayed[i++];
    if (!r) return `event ${e.seq} (${e.type}) is not in the replay`;
    if (r.type !== e.type || !isDeepStrictEqual(json(r.data), e.data))
      return `event ${e.seq}: the game logged ${e.type} ${JSON.stringify(e.data)}, the replay ${r.type} ${JSON.stringify(r.data)}`;
  }
  return i < replayed.length
    ? `the replay has ${replayed.length - i} more events than the game (${replayed[i].type} first)`
    : null;
}

export async function verifyGame(o: VerifyOptions): Promise<Verdict> {
  const lines: string[] = [];
  const done = (verdict: Verdict['verdict'], line: string): Verdict => ({ verdict, lines: [...lines, line] });
  let game: any;
  try {
    game = (await gql(o, GAME, { id: o.gameId })).game;
  } catch (e) {
    return done('unverifiable', `cannot read game ${o.gameId}: ${(e as Error).message}`);
  }
  if (!game) return done('unverifiable', `no game ${o.gameId} (or not watchable: pass --token of one of its players)`);
  if (game.status !== 'FINISHED' || game.seed === null || !game.scenario)
    return done('unverifiable', `game ${o.gameId} is ${game.status}: its seed is revealed when it is finished`);
  const seed: string = game.seed;
  if (commitmentOf(game.id, seed) !== game.seedCommitment)
    return done(
      'mismatch',
      `MISMATCH: SHA-256("libertalia-seed-v1:${game.id}:<seed>") is not the seedCommitment ${game.seedCommitment}`,
    );
  lines.push(`ok: the revealed seed matches the commitment ${game.seedCommitment}`);
  if (game.seedChosenBy)
    lines.push(
      `note: the seed was chosen by ${game.seedChosenBy.name} when the game was created (public from the start, so it proves no fairness)`,
    );
  const sc = game.scenario as Scenario;
  const rngVersion = game.rngVersion;
  if (sc.seed !== seed || (sc.rngVersion ?? 1) !== rngVersion)
    return done(
      'mismatch',
      `MISMATCH: the scenario export names seed ${JSON.stringify(sc.seed)} rngVersion ${sc.rngVersion ?? 1}, the game ${JSON.stringify(seed)} rngVersion ${rngVersion}`,
    );
  const result = playScenario({ ...sc, seed, rngVersion, commands: sc.commands as Command[] });
  if ('error' in result)
    return done('mismatch', `MISMATCH: the recorded commands do not replay: ${result.error.message}`);
  if (!result.state.finished) return done('mismatch', 'MISMATCH: the replay stops before the end of the game');
  lines.push(
    `ok: ${sc.commands.length} recorded commands replay from the seed (rngVersion ${rngVersion}) to a finished game`,
  );
  let log;
  try {
    log = await publicLog(o);
  } catch (e) {
    return done('unverifiable', `cannot read the event log: ${(e as Error).message}`);
  }
  const diff = logDifference(
    log,
    result.events.map((e) => viewEvent(e, null)),
  );
  if (diff) return done('mismatch', `MISMATCH: ${diff}`);
  lines.push(
    `ok: the replay's ${log.filter((e) => !SERVICE_EVENTS.has(e.type)).length} game events are the game's log, event for event`,
  );
  const ranking = result.state.ranking.map((seat) => ({ seat, score: result.state.seats[seat].score }));
  if (!isDeepStrictEqual(ranking, game.ranking))
    return done(
      'mismatch',
      `MISMATCH: the game ranks ${JSON.stringify(game.ranking)}, the replay ${JSON.stringify(ranking)}`,
    );
  lines.push(`ok: the final ranking and scores are the replay's`);
  return done('verified', `verified: game ${game.id} was played from the seed it committed to`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { values } = parseArgs({
    options: {
      api: { type: 'string', default: 'http://localhost:4000' },
      game: { type: 'string' },
      token: { type: 'string' },
    },
  });
  if (!values.game) {
    console.error('usage: npm run verify -- --api http://localhost:4000 --game <id> [--token <access token>]');
    process.exit(2);
  }
  const v = await verifyGame({ api: values.api!, gameId: values.game, token: values.token });
  for (const l of v.lines) console.log(l);
  process.exit(v.verdict === 'verified' ? 0 : v.verdict === 'mismatch' ? 1 : 2);
}
