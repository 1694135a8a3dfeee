// Remembered heads (Services.rememberHeads, play/commit.ts): a commit starts from the head its
// process wrote last instead of reading it. Two apps on one table stand for two processes: a
// head one of them remembers goes stale when the other commits, and moves must still be applied
// on the game as stored (a lost race, then the read), refusals answered only on what is stored,
// and retried requests applied once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../functions/api/http/app.js';
import { freshTable } from '../../setup/db.js';
import { codeOf, type GqlResult, SIGNING_KEY } from '../../setup/app.js';
import { counters, METRIC } from '../../../functions/api/http/telemetry.js';

type App = ReturnType<typeof buildApp>;
let one: App;
let two: App;

beforeAll(async () => {
  const { client, tableName } = await freshTable('heads');
  const config = { tableName, client, signingKey: SIGNING_KEY, rateLimits: false as const, rememberHeads: true };
  one = buildApp(config);
  two = buildApp(config);
  await one.apollo.start();
  await two.apollo.start();
});
afterAll(async () => {
  await one.apollo.stop();
  await two.apollo.stop();
});

async function gql(app: App, query: string, variables: Record<string, unknown>, token?: string): Promise<GqlResult> {
  const contextValue = await app.context(token === undefined ? {} : { authorization: `Bearer ${token}` });
  const r = await app.apollo.executeOperation({ query, variables }, { contextValue });
  if (r.body.kind !== 'single') throw new Error('incremental answer');
  return JSON.parse(JSON.stringify(r.body.singleResult)) as GqlResult;
}

const VIEW = `query($g: ID!) { game(gameId: $g) { version lastSeq phase awaiting me { seat hand choice prompts { id options { id } } } } }`;
const PLAY = `mutation($g: ID!, $r: Int!, $v: Int, $q: ID) { playCard(gameId: $g, rank: $r, ifVersion: $v, requestId: $q) { version lastSeq me { choice } } }`;
const ANSWER = `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { version lastSeq } }`;

let n = 0;
async function started() {
  const tokens: string[] = [];
  for (const name of ['Anne', 'Mary']) {
    const r = await gql(one, `mutation($n: String!) { signUp(name: $n) { token } }`, { n: `${name} ${++n}` });
    tokens.push(r.data.signUp.token);
  }
  const [a, b] = tokens;
  const id = (await gql(one, `mutation { createGame(input: { edition: CLASSIC, seats: 2 }) { id } }`, {}, a)).data
    .createGame.id as string;
  await gql(one, `mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b);
  await gql(one, `mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a);
  const view = async (app: App, token: string) => (await gql(app, VIEW, { g: id }, token)).data.game;
  return { a, b, id, view };
}

/** One move of whoever is awaited, through `app`: a prompt answered or a card played. */
async function move(app: App, g: { id: string; view: (app: App, t: string) => Promise<any> }, tokens: string[]) {
  for (const t of tokens) {
    const v = await g.view(app, t);
    if (!v.awaiting.includes(v.me.seat)) continue;
    if (v.me.prompts.length) {
      const p = v.me.prompts[0];
      const r = await gql(app, ANSWER, { g: g.id, p: p.id, o: p.options[0].id }, t);
      expect(r.errors).toBeUndefined();
      return r.data.answerPrompt;
    }
    if (v.phase === 'CHOOSE' && v.me.choice === null) {
      const r = await gql(app, PLAY, { g: g.id, r: v.me.hand[0] }, t);
      expect(r.errors).toBeUndefined();
      return r.data.playCard;
    }
  }
  return null;
}

describe('remembered heads', () => {
  it('moves alternating between two processes are all applied, one version after the other', async () => {
    const g = await started();
    const retries = counters()[METRIC.commitRetries] ?? 0;
    let last = (await g.view(one, g.a)).version as number;
    for (let i = 0; i < 24; i++) {
      const r = await move(i % 3 === 0 ? two : one, g, [g.a, g.b]);
      if (!r) break;
      expect(r.version).toBe(last + 1);
      last = r.version;
    }
    expect(last).toBeGreaterThan(10);
    // The stale heads were lost races (reloaded and applied), not errors.
    expect((counters()[METRIC.commitRetries] ?? 0) - retries).toBeGreaterThan(0);
    // Both processes read the same game.
    expect(await g.view(two, g.a)).toEqual(await g.view(one, g.a));
  });

  it('a move refused on a stale head is tried on the stored game: not STALE for a view that is current', async () => {
    const g = await started();
    // `one` remembers the head after Anne's choice; she changes it through `two`.
    const anne = await g.view(one, g.a);
    expect((await gql(one, PLAY, { g: g.id, r: anne.me.hand[0] }, g.a)).errors).toBeUndefined();
    const changed = await gql(two, PLAY, { g: g.id, r: anne.me.hand[1] }, g.a);
    expect(changed.errors).toBeUndefined();
    // Mary chooses on the current version through `one`, whose head is one version behind.
    const mary = await g.view(two, g.b);
    expect(mary.version).toBe(changed.data.playCard.version);
    const r = await gql(one, PLAY, { g: g.id, r: mary.me.hand[0], v: mary.version }, g.b);
    expect(codeOf(r)).toBeUndefined();
    expect(r.data.playCard.version).toBe(mary.version + 1);
    // And a view that is really stale is still refused.
    const stale = await gql(one, PLAY, { g: g.id, r: mary.me.hand[1], v: mary.version }, g.b);
    expect(codeOf(stale)).toBe('STALE');
  });

  it('a retried request (same requestId) through the process that remembers the head is applied once', async () => {
    const g = await started();
    const v = await g.view(one, g.a);
    const first = await gql(one, PLAY, { g: g.id, r: v.me.hand[0], q: 'heads-retry' }, g.a);
    expect(first.errors).toBeUndefined();
    const again = await gql(one, PLAY, { g: g.id, r: v.me.hand[0], q: 'heads-retry' }, g.a);
    expect(again.errors).toBeUndefined();
    expect(again.data.playCard.version).toBe(first.data.playCard.version);
    expect((await g.view(two, g.a)).version).toBe(first.data.playCard.version);
  });
});
