// Drives a game through the API only (what any client could do), for API and e2e tests.
// Every answer a seat receives is checked for other seats' hidden information.
import { expect } from 'vitest';
import { botRandom } from '../../functions/engine/index.js';
import { editionOf } from '../../functions/engine/editions/index.js';
import { GAME_FIELDS, type GqlResult } from './app.js';

export type Gql = <T = any>(
  query: string,
  variables?: Record<string, unknown>,
  token?: string,
) => Promise<GqlResult<T>>;

export const GAME_QUERY = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`;
export const PLAY = `mutation($g: ID!, $r: Int!, $q: ID) { playCard(gameId: $g, rank: $r, requestId: $q) { ${GAME_FIELDS} } }`;
export const ANSWER = `mutation($g: ID!, $p: ID!, $o: ID!, $q: ID) { answerPrompt(gameId: $g, promptId: $p, optionId: $o, requestId: $q) { ${GAME_FIELDS} } }`;
export const EVENTS = `query($g: ID!, $a: Int, $l: Int) { events(gameId: $g, after: $a, limit: $l) { events { seq type at data } hasMore } }`;

/** Checks a game answer given to `seat` (null: spectator) holds nothing hidden from it. */
export function expectNoLeak(game: any, seat: number | null): void {
  const hiddenLoot = editionOf(game.edition.toLowerCase()).hiddenLoot;
  if (seat === null) expect(game.me).toBeNull();
  else expect(game.me.seat).toBe(seat);
  for (const s of game.seats) {
    expect(s).not.toHaveProperty('hand');
    expect(s).not.toHaveProperty('choice');
    if (s.seat !== seat && hiddenLoot && game.status !== 'FINISHED') expect(s.loot).toBeNull();
  }
  if (game.pending && game.pending.seat !== seat) expect(game.me?.prompts ?? []).toEqual([]);
  // A server seed stays secret until the end; a chosen seed is public and says who chose it.
  if (game.status !== 'FINISHED' && !game.seedChosenBy) expect(game.seed).toBeNull();
  if (game.seedChosenBy) expect(game.seed).not.toBeNull();
}

/** Checks events seen by `seat` reveal secret parts (chosen ranks, answers) of its own seat only. */
export function expectEventsRedacted(events: any[], seat: number | null): void {
  for (const e of events) {
    if (e.type === 'cardChosen' || e.type === 'answered') {
      const own = e.data.seat === seat;
      expect('rank' in e.data || 'answer' in e.data).toBe(own);
    }
  }
}

export async function allEvents(gql: Gql, gameId: string, token?: string): Promise<any[]> {
  const out: any[] = [];
  for (let after = 0; ; ) {
    const r = await gql(EVENTS, { g: gameId, a: after, l: 100 }, token);
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    out.push(...r.data.events.events);
    if (!r.data.events.hasMore) return out;
    after = out[out.length - 1].seq;
  }
}

/** A seeded random source for the test clients (tests must replay): the engine's bot source. */
export const rand = botRandom;

/**
 * Plays the game to the end with random legal moves for the human seats (`tokens[seat]`),
 * checking each answer for leaks. Returns the final game as seat 0 sees it and the count of moves.
 */
export async function playToEnd(gql: Gql, gameId: string, tokens: (string | null)[], seed = 1, maxMoves = 2000) {
  const rnd = rand(seed);
  const look = async (seat: number) => {
    const r = await gql(GAME_QUERY, { id: gameId }, tokens[seat]!);
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    expectNoLeak(r.data.game, seat);
    return r.data.game;
  };
  // The latest answer and whose view it is: public fields (awaiting...) are the same for all.
  let seen = { seat: 0, game: await look(0) };
  for (let moves = 0; moves < maxMoves; moves++) {
    if (seen.game.status === 'FINISHED') return { game: seen.seat === 0 ? seen.game : await look(0), moves };
    const humans = seen.game.awaiting.filter((s: number) => tokens[s]);
    expect(humans.length).toBeGreaterThan(0); // bots never leave the game waiting on them
    const seat = humans[Math.floor(rnd() * humans.length)];
    const mine = seat === seen.seat ? seen.game : await look(seat);
    const prompt = mine.me.prompts[0];
    const r = prompt
      ? await gql(
          ANSWER,
          { g: gameId, p: prompt.id, o: prompt.options[Math.floor(rnd() * prompt.options.length)].id },
          tokens[seat]!,
        )
      : await gql(PLAY, { g: gameId, r: mine.me.hand[Math.floor(rnd() * mine.me.hand.length)] }, tokens[seat]!);
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    const game = r.data.playCard ?? r.data.answerPrompt;
    expectNoLeak(game, seat);
    seen = { seat, game };
  }
  throw new Error(`game ${gameId} did not finish in ${maxMoves} moves`);
}
