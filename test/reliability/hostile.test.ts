// Hostile players: each finding of the "hostile players and clients" review replayed as an
// attack over HTTP against the app wired as the local server wires it. Each case asserts the
// typed answer and that nothing changed that should not have. (Floods: see flood.test.ts.)
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame as engineCreateGame } from '../../functions/engine/index.js';
import { GAME_FIELDS, SIGNING_KEY } from '../setup/app.js';
import { ownToken } from '../setup/tokens.js';
import { sniffOperation } from '../../functions/api/http/app.js';
import { BOUNDS, RATES } from '../../functions/api/http/ratelimit.js';
import { LOBBY_RESERVATION_MS, OPEN_LOBBIES } from '../../functions/api/lobby/lobbies.js';
import { allEvents, playToEnd } from '../setup/play.js';
import { CREATE, type Harness, JOIN, newGame, START, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const GAME = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`;
const codeOf = (r: { errors?: any[] }) => r.errors?.[0]?.extensions?.code;

describe('finding 1: a creator can know the whole game in advance', () => {
  it('without a chosen seed the creator cannot reproduce the deal from anything it sees', async () => {
    const g = await newGame(h, { edition: 'CLASSIC', seats: 2 }, 2, 'Fair');
    const mine = (await h.gql(GAME, { id: g.id }, g.tokens[0])).data.game;
    expect(mine.seed).toBeNull();
    expect(mine.seedChosenBy).toBeNull();
    expect(mine.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
    // Everything the creator saw, tried as the seed (and the old randomUUID habit): no match.
    const events = await allEvents(h.gql, g.id, g.tokens[0]);
    const guesses = [
      g.id,
      mine.createdAt,
      mine.seedCommitment,
      JSON.stringify(events),
      ...events.map((e) => e.at),
      '',
      '0',
      'seed',
    ];
    const other = (await h.gql(GAME, { id: g.id }, g.tokens[1])).data.game.me.hand;
    for (const seed of guesses) {
      const dealt = engineCreateGame({ edition: 'classic', players: 2, seed });
      expect([...dealt.seats[1].hand].sort((a, b) => a - b)).not.toEqual(other);
    }
    // The stored seed: 256 bits from the CSPRNG, different every game, matching the commitment.
    const stored = (await h.game(g.id))!.doc.seed as string;
    expect(stored).toMatch(/^[\w-]{43}$/);
    expect(createHash('sha256').update(`libertalia-seed-v1:${g.id}:${stored}`).digest('hex')).toBe(mine.seedCommitment);
    const again = await newGame(h, { edition: 'CLASSIC', seats: 2, bots: 1 }, 1, 'Fair2');
    expect((await h.game(again.id))!.doc.seed).not.toBe(stored);
  });

  it('the seed is revealed at the end and matches the commitment shown at the start', async () => {
    const p = await h.signUp('Reveal');
    const id = (await h.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1, botKind: 'RANDOM' } }, p.token)).data
      .createGame.id;
    const before = (await h.gql(GAME, { id }, p.token)).data.game;
    await h.gql(START, { g: id }, p.token);
    const { game } = await playToEnd(h.gql, id, [p.token, null], 5);
    expect(game.seed).toMatch(/^[\w-]{43}$/);
    expect(game.seedCommitment).toBe(before.seedCommitment);
    expect(createHash('sha256').update(`libertalia-seed-v1:${id}:${game.seed}`).digest('hex')).toBe(
      before.seedCommitment,
    );
  });

  it('a chosen seed is public at once and marked for every seat, spectator and list', async () => {
    const [a, b] = [await h.signUp('Chooser'), await h.signUp('Joiner')];
    const id = (await h.gql(CREATE, { i: { edition: 'CLASSIC', seats: 3, seed: 'my lucky seed' } }, a.token)).data
      .createGame.id;
    const listed = (await h.gql(`{ openGames { id seed seedChosenBy { playerId name } } }`)).data.openGames.find(
      (x: any) => x.id === id,
    );
    expect(listed).toEqual({ id, seed: 'my lucky seed', seedChosenBy: { playerId: a.playerId, name: 'Chooser' } });
    await h.gql(JOIN, { g: id }, b.token);
    const mine = (await h.gql(`{ myGames { id seedChosenBy { playerId } } }`, {}, b.token)).data.myGames.find(
      (x: any) => x.id === id,
    );
    expect(mine.seedChosenBy.playerId).toBe(a.playerId);
    await h.gql(`mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { id } }`, { g: id }, a.token);
    for (const token of [b.token, undefined]) {
      const seen = (await h.gql(GAME, { id }, token)).data.game;
      expect(seen.seed).toBe('my lucky seed');
      expect(seen.seedChosenBy).toEqual({ playerId: a.playerId, name: 'Chooser' });
    }
    // Anyone can check what the chooser could know: the deal is the seed's.
    const dealt = engineCreateGame({ edition: 'classic', players: 3, seed: 'my lucky seed' });
    const bHand = (await h.gql(GAME, { id }, b.token)).data.game.me.hand;
    expect([...dealt.seats[1].hand].sort((x, y) => x - y)).toEqual(bHand);
    const created = (await allEvents(h.gql, id)).find((e) => e.type === 'gameCreated');
    expect(created.data.seedChosenBy).toBe(a.playerId);
  });
});

describe('finding 6: smaller holes', () => {
  it('a bad percent-encoding in a REST path is a 400, never a 500', async () => {
    for (const path of [
      '/games/%E0%A4%A/events',
      '/games/%E0%A4%A/scenario',
      '/games/%/events',
      '/games/%C0%80/events?after=1',
      '/games/%ED%A0%80/events',
    ]) {
      const r = await h.http(path);
      expect(r.status, path).toBe(400);
      expect(r.json.error.code).toBe('BAD_USER_INPUT');
    }
  });

  it('answering another seat’s prompt is FORBIDDEN and changes nothing', async () => {
    // Seat 0 plays the Parrot (5) on a fixed deal: seat 0 gets a prompt, seat 1 tries to answer it.
    for (let i = 0; i < 40; i++) {
      const g = await newGame(h, { edition: 'CLASSIC', seats: 2, seed: `prompt-${i}` }, 2, `Prompt${i}`);
      const hands = await Promise.all(
        g.tokens.map(async (t) => (await h.gql(GAME, { id: g.id }, t)).data.game.me.hand as number[]),
      );
      // Play the lowest ranks: many classic characters with low ranks ask their owner something.
      await h.gql(
        `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { id } }`,
        { g: g.id, r: hands[0][0] },
        g.tokens[0],
      );
      const after = (
        await h.gql(
          `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { ${GAME_FIELDS} } }`,
          { g: g.id, r: hands[1][0] },
          g.tokens[1],
        )
      ).data.playCard;
      if (!after.pending) continue;
      const owner = after.pending.seat as number;
      const prompt = (await h.gql(GAME, { id: g.id }, g.tokens[owner])).data.game.me.prompts[0];
      const before = await h.game(g.id);
      const r = await h.gql(
        `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }`,
        { g: g.id, p: prompt.id, o: prompt.options[0].id },
        g.tokens[1 - owner],
      );
      expect(codeOf(r)).toBe('FORBIDDEN');
      expect(await h.game(g.id)).toEqual(before);
      return;
    }
    throw new Error('no prompt in 40 games');
  });

  it('registerWebhook on a private game the caller is not in answers like a missing game', async () => {
    const [a, m] = [await h.signUp('Private Owner'), await h.signUp('Mallory')];
    const id = (await h.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, spectators: false } }, a.token)).data
      .createGame.id;
    const REG = `mutation($u: String!, $g: ID) { registerWebhook(url: $u, gameId: $g) { secret } }`;
    const secret = await h.gql(REG, { u: 'https://example.com/h', g: id }, m.token);
    const missing = await h.gql(
      REG,
      { u: 'https://example.com/h', g: '00000000-0000-4000-8000-000000000000' },
      m.token,
    );
    expect(codeOf(secret)).toBe('NOT_FOUND');
    expect(secret.errors![0].message.replace(id, 'X')).toBe(
      missing.errors![0].message.replace('00000000-0000-4000-8000-000000000000', 'X'),
    );
    expect((await h.gql(`{ myWebhooks { id } }`, {}, m.token)).data.myWebhooks).toEqual([]);
  });

  it('names with control, bidi or bot-like characters are refused and sign nobody up', async () => {
    // Round 2 (issue 23): fillers that are letters (U+3164 HANGUL FILLER in place of a space or at the end, U+FFA0, U+2800).
    for (const bad of [
      'Anne\u0000',
      'Be\u0007ll',
      'Mary \u202eReaD',
      'Bot Kidd',
      'B0t Kidd',
      'Anne\u3164Bonny',
      'Anne Bonny\u3164',
      '\uFFA0Mary',
      'Jack\u2800',
    ]) {
      const r = await h.gql(`mutation($n: String!) { signUp(name: $n) { playerId } }`, { n: bad });
      expect(codeOf(r), JSON.stringify(bad)).toBe('BAD_USER_INPUT');
      expect(r.data).toBeNull();
    }
    // NFC: the same name typed decomposed is stored composed.
    const p = (await h.gql(`mutation($n: String!) { signUp(name: $n) { playerId name } }`, { n: 'Ame\u0301lie' })).data
      .signUp;
    expect(p.name).toBe('Am\u00e9lie');
    expect((await h.store.players.getPlayer(p.playerId))!.name).toBe('Am\u00e9lie');
  });

  it('a token without exp, for an unknown player, or revoked acts for nobody and changes nothing', async () => {
    const p = await h.signUp('Token Holder');
    const lobbies = async () => (await h.gql(`{ myGames { id } }`, {}, p.token)).data.myGames.length;
    const before = await lobbies();
    const noExp = await ownToken(SIGNING_KEY, { sub: p.playerId, ver: 0 }, { exp: null });
    const unknown = await ownToken(SIGNING_KEY, { sub: '00000000-0000-4000-8000-00000000beef', ver: 0 });
    const revoked = (await h.gql(`mutation { signUp(name: "Soon Revoked") { token } }`)).data.signUp.token;
    expect((await h.gql(`mutation { revokeTokens }`, {}, revoked)).data.revokeTokens).toBe(true);
    for (const token of [noExp, unknown, revoked]) {
      expect(codeOf(await h.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, token))).toBe('UNAUTHENTICATED');
      expect(codeOf(await h.gql(`{ me { playerId } }`, {}, token))).toBe('UNAUTHENTICATED');
    }
    const forged = await ownToken('not-the-signing-key', { sub: p.playerId, ver: 0 });
    expect(codeOf(await h.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, forged))).toBe('UNAUTHENTICATED');
    expect(await lobbies()).toBe(before);
  });

  it('a rematch never seats a player who did not accept it', async () => {
    const g = await newGame(h, { edition: 'CLASSIC', seats: 2, bots: 0 }, 2, 'Rematch');
    await playToEnd(h.gql, g.id, g.tokens, 9);
    const next = (
      await h.gql(`mutation($g: ID!) { rematch(gameId: $g) { id seats { playerId } } }`, { g: g.id }, g.tokens[0])
    ).data.rematch;
    expect(next.seats.map((s: any) => s.playerId)).toEqual([g.players[0].playerId, null]);
    // The creator cannot start it with the other seat unaccepted (only with an explicit bot).
    expect(codeOf(await h.gql(START, { g: next.id }, g.tokens[0]))).toBe('WRONG_PHASE');
    expect((await h.gql(`{ myGames { id } }`, {}, g.tokens[1])).data.myGames.map((x: any) => x.id)).not.toContain(
      next.id,
    );
  });
});

describe('finding 2 and 5: one account can empty the lobby / starve everyone (service rate limits on)', () => {
  let r: Harness;
  let clock = Date.parse('2031-03-01T10:40:00.000Z');
  let limits: Harness; // the service's per-instance limits, as `npm start` runs
  beforeAll(async () => {
    // The limits kept on items (games per hour, commands per seat per minute, lobbies) with the
    // per-instance read and write limits out of the way, so each case meets the limit it tests.
    const roomy = { perSecond: 1000, burst: 1000 };
    r = await startHarness({ rateLimits: { read: roomy, write: roomy }, now: () => new Date(clock) });
    limits = await startHarness({ rateLimits: {} });
  });
  afterAll(async () => {
    await r.close();
    await limits.close();
  });

  it(`open lobbies per player are capped (LIMIT_EXCEEDED); full and private lobbies are never listed`, async () => {
    const honest = await r.signUp('Honest');
    const honestGame = (await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 3 } }, honest.token)).data.createGame.id;
    const hog = await r.signUp('Lobby Hog');
    const answers = [];
    for (let i = 0; i < 50; i++)
      answers.push(await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: i % 2 } }, hog.token));
    const made = answers.filter((a) => !a.errors).length;
    expect(made).toBe(BOUNDS.openLobbiesPerPlayer);
    const refused = answers.find((a) => a.errors)!;
    expect(codeOf(refused)).toBe('LIMIT_EXCEEDED');
    expect(refused.errors![0].extensions.limit).toEqual({
      name: 'openLobbiesPerPlayer',
      max: BOUNDS.openLobbiesPerPlayer,
    });
    const priv = (await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, spectators: false } }, honest.token)).data
      .createGame.id;
    const listed = (await r.gql(`{ openGamesPage(first: 50) { games { id seatCount seats { isOpen } } } }`)).data
      .openGamesPage.games;
    const ids = listed.map((g: any) => g.id);
    expect(ids).toContain(honestGame);
    expect(ids).not.toContain(priv);
    for (const g of listed) expect(g.seats.some((s: any) => s.isOpen)).toBe(true); // full lobbies are never listed
    expect(listed.length).toBeLessThanOrEqual(BOUNDS.openLobbiesPerPlayer + 1);
  });

  it(`the open-lobby cap is exact under concurrent creations: 20 at once make ${BOUNDS.openLobbiesPerPlayer} lobbies and ${20 - BOUNDS.openLobbiesPerPlayer} LIMIT_EXCEEDED`, async () => {
    const hog = await r.signUp('Racing Hog');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 + (i % 3) } }, hog.token)),
    );
    const made = answers.filter((a) => !a.errors).map((a) => a.data.createGame.id);
    expect(made).toHaveLength(BOUNDS.openLobbiesPerPlayer);
    const refused = answers.filter((a) => a.errors);
    expect(refused).toHaveLength(20 - BOUNDS.openLobbiesPerPlayer);
    for (const a of refused)
      expect(a.errors![0].extensions).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        limit: { name: 'openLobbiesPerPlayer', max: BOUNDS.openLobbiesPerPlayer },
      });
    // The state: exactly the cap's lobbies stored, held on the player item; nothing of the refused.
    const mine = (await r.gql(`{ myGames(status: LOBBY) { id } }`, {}, hog.token)).data.myGames.map((g: any) => g.id);
    expect(mine.sort()).toEqual([...made].sort());
    expect(
      (await r.store.players.listPlayerSet(hog.playerId, OPEN_LOBBIES)).map((m) => m.split('#')[1]).sort(),
    ).toEqual([...made].sort());
    // A lobby that starts or is cancelled gives its place back; a creator who leaves hands it on.
    const started = await r.gql(
      `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true) { status } }`,
      { g: made[0] },
      hog.token,
    );
    expect(started.data.startGame.status).toBe('ACTIVE');
    const heir = await r.signUp('Heir');
    await r.gql(JOIN, { g: made[1] }, heir.token);
    await r.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: made[1] }, hog.token);
    expect((await r.store.players.listPlayerSet(heir.playerId, OPEN_LOBBIES)).map((m) => m.split('#')[1])).toEqual([
      made[1],
    ]);
    const again = await Promise.all(
      Array.from({ length: 6 }, () => r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, hog.token)),
    );
    expect(again.filter((a) => !a.errors)).toHaveLength(2);
    expect(await r.store.players.listPlayerSet(hog.playerId, OPEN_LOBBIES)).toHaveLength(BOUNDS.openLobbiesPerPlayer);
  });

  it('a place left taken by a crash (a creation that died, a release never written) is recovered when the cap is reached', async () => {
    const p = await r.signUp('Crashy');
    const ids = [];
    for (let i = 0; i < BOUNDS.openLobbiesPerPlayer - 2; i++)
      ids.push((await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1 } }, p.token)).data.createGame.id);
    // A creation that died after taking its place, and a game that started without giving it back.
    const old = new Date(clock - 2 * LOBBY_RESERVATION_MS).toISOString();
    await r.store.players.addToPlayerSet(p.playerId, OPEN_LOBBIES, `${old}#00000000-0000-4000-8000-00000000dead`);
    expect((await r.gql(START, { g: ids[0] }, p.token)).data.startGame.status).toBe('ACTIVE');
    const started = await r.game(ids[0]);
    await r.store.players.addToPlayerSet(p.playerId, OPEN_LOBBIES, `${started!.createdAt}#${ids[0]}`);
    // A creation in flight (its game not stored yet) keeps its place.
    const fresh = `${new Date(clock).toISOString()}#00000000-0000-4000-8000-0000000f1167`;
    await r.store.players.addToPlayerSet(p.playerId, OPEN_LOBBIES, fresh);
    expect(await r.store.players.listPlayerSet(p.playerId, OPEN_LOBBIES)).toHaveLength(BOUNDS.openLobbiesPerPlayer);
    const next = await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, p.token);
    expect(next.errors, JSON.stringify(next.errors)).toBeUndefined();
    const held = await r.store.players.listPlayerSet(p.playerId, OPEN_LOBBIES);
    expect(held).toContain(fresh);
    expect(held.map((m) => m.split('#')[1]).sort()).toEqual(
      [ids[1], ids[2], '00000000-0000-4000-8000-0000000f1167', next.data.createGame.id].sort(),
    );
  });

  it('games created per hour are counted on the player item (RATE_LIMITED with a retry hint)', async () => {
    const p = await r.signUp('Creator Churn');
    let last: any;
    for (let i = 0; i < BOUNDS.gamesCreatedPerHour + 1; i++) {
      last = await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, p.token);
      if (last.errors) break;
      await r.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: last.data.createGame.id }, p.token); // stays under the open-lobby cap
    }
    expect(codeOf(last)).toBe('RATE_LIMITED');
    expect(last.errors[0].extensions.retryAfterSeconds).toBeGreaterThan(0);
    const player = await r.store.players.getPlayer(p.playerId);
    expect(player).not.toBeNull();
    clock = Math.ceil(clock / 3600_000) * 3600_000 + 1000; // the next hour (the token, an hour long, still valid)
    const next = await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, p.token);
    expect(next.errors, JSON.stringify(next.errors)).toBeUndefined();
  });

  it(`commands per seat per minute are counted on the game item: RATE_LIMITED, nothing written`, async () => {
    const g = await newGame(r, { edition: 'CLASSIC', seats: 2 }, 2, 'Churner');
    const hand = (await r.gql(GAME, { id: g.id }, g.tokens[0])).data.game.me.hand as number[];
    let refused: any = null;
    for (let i = 0; i < BOUNDS.commandsPerSeatPerMinute + 2 && !refused; i++) {
      const a = await r.gql(
        `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`,
        { g: g.id, r: hand[i % hand.length] },
        g.tokens[0],
      );
      if (a.errors) refused = a;
    }
    // Choice changes meet the store's per-seat per-day limit first (LIMIT_EXCEEDED), otherwise
    // the per-minute command rate (RATE_LIMITED): either way a typed, named limit.
    expect(['RATE_LIMITED', 'LIMIT_EXCEEDED']).toContain(codeOf(refused));
    expect(refused.errors[0].message).toMatch(/per seat per minute|per day|limit/);
    const before = await r.game(g.id);
    expect(
      codeOf(
        await r.gql(
          `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`,
          { g: g.id, r: hand[0] },
          g.tokens[0],
        ),
      ),
    ).toBe(codeOf(refused));
    expect(await r.game(g.id)).toEqual(before);
    // The other seat plays on, and the day runs.
    const other = (await r.gql(GAME, { id: g.id }, g.tokens[1])).data.game.me.hand as number[];
    expect(
      (
        await r.gql(
          `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`,
          { g: g.id, r: other[0] },
          g.tokens[1],
        )
      ).errors,
    ).toBeUndefined();
    clock += 60_000;
  });

  it('reads per player: a flood is answered RATE_LIMITED (HTTP 429, Retry-After) while another player is served', async () => {
    const r = limits;
    const [m, honest] = [await r.signUp('Reader Flood'), await r.signUp('Reader Honest')];
    const answers = await Promise.all(
      Array.from({ length: RATES.read.burst + 20 }, () =>
        r.http('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${m.token}` },
          body: JSON.stringify({ query: '{ __typename }' }),
        }),
      ),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].json.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(limited[0].json.errors[0].message).toMatch(/reads per player/);
    expect((await r.gql(`{ __typename }`, {}, honest.token)).errors).toBeUndefined();
    const flood = await Promise.all(
      Array.from({ length: RATES.read.burst + 20 }, () =>
        r.http(`/games/00000000-0000-4000-8000-000000000000/events`, {
          headers: { authorization: `Bearer ${m.token}` },
        }),
      ),
    );
    const rest = flood.find((a) => a.status === 429)!;
    expect(rest.status).toBe(429);
    expect(rest.json.error.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('the rate limit is charged before parsing: a flood of broken, deep or mutation documents meets RATE_LIMITED, not the parser', async () => {
    const r = limits;
    const post = (token: string | null, body: unknown) =>
      r.http('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const [broken, deep, writer] = [
      await r.signUp('Broken Docs'),
      await r.signUp('Deep Docs'),
      await r.signUp('Write Flood'),
    ];
    // Syntax errors never reach an operation, so only a check before the parse can count them.
    const a = await Promise.all(
      Array.from({ length: RATES.read.burst + 30 }, () => post(broken.token, { query: '{ game(id: "x") { id ' })),
    );
    expect(a.filter((x) => x.status === 400).length).toBeLessThan(RATES.read.burst + 10); // the burst and what refills (5/s) while they run
    expect(a.filter((x) => x.status === 429).length).toBeGreaterThanOrEqual(10);
    const nested = `{ ${'game(id: "x") { seats { '.repeat(5)} seat ${'} } '.repeat(5)} }`;
    const d = await Promise.all(
      Array.from({ length: RATES.read.burst + 30 }, () => post(deep.token, { query: nested })),
    );
    expect(d.filter((x) => x.status === 429).length).toBeGreaterThanOrEqual(10);
    // Mutations: the write bucket, charged once per request (not again after the parse).
    const w = await Promise.all(
      Array.from({ length: RATES.write.burst + 30 }, () =>
        post(writer.token, {
          query: 'mutation Leave($g: ID!) { leaveGame(gameId: $g) { id } }',
          variables: { g: '00000000-0000-4000-8000-000000000000' },
          operationName: 'Leave',
        }),
      ),
    );
    // The burst (plus what refills while they run: 10/s), not half of it as a double charge would give.
    expect(w.filter((x) => x.status !== 429).length).toBeGreaterThanOrEqual(RATES.write.burst);
    expect(w.filter((x) => x.status === 429).length).toBeGreaterThan(0);
    expect(w.filter((x) => x.status !== 429).every((x) => x.json.errors[0].extensions.code === 'NOT_FOUND')).toBe(true);
    const limited = w.find((x) => x.status === 429)!;
    expect(limited.json.errors[0].message).toMatch(/mutations per player/);
    // The writer's reads are another bucket: still served.
    expect((await r.gql(`{ __typename }`, {}, writer.token)).errors).toBeUndefined();
  });

  it('the operation kind is read from the text before parsing, and a wrong guess is charged again after it', () => {
    expect(sniffOperation('{ game(id: "x") { id } }')).toEqual({ kind: 'query', signUp: false });
    expect(sniffOperation('# a comment: mutation\n query Q { __typename }')).toEqual({ kind: 'query', signUp: false });
    expect(sniffOperation('mutation { signUp(name: "x") { token } }')).toEqual({ kind: 'mutation', signUp: true });
    expect(sniffOperation('fragment F on Game { id } mutation M { createGame(input: {}) { ...F } }')).toEqual({
      kind: 'mutation',
      signUp: false,
    });
    expect(sniffOperation('query A { __typename } mutation B { leaveGame(gameId: "x") { id } }', 'B')).toEqual({
      kind: 'mutation',
      signUp: false,
    });
    expect(sniffOperation('subscription S { gameUpdated(gameId: "x") { id } }')).toEqual({
      kind: 'subscription',
      signUp: false,
    });
  });

  it('a signUp flood from one address is refused before parsing; a player with a token plays on', async () => {
    const r = await startHarness({ rateLimits: { signUp: { perSecond: 1 / 3600, burst: 5 } } });
    try {
      const honest = await r.signUp('Before The Flood');
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          r.http('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: `mutation { signUp(name: "Sybil ${i}") { token } }` }),
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 200 && a.json.data?.signUp)).toHaveLength(4); // the burst, less the honest sign-up
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(11);
      expect(refused[0].json.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(refused[0].json.errors[0].message).toMatch(/sign-ups per address/);
      expect(
        (await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2, bots: 1 } }, honest.token)).errors,
      ).toBeUndefined();
    } finally {
      await r.close();
    }
  });

  it(`a lobby nobody touches for ${BOUNDS.lobbyExpiryDays} days is cancelled by the sweep`, async () => {
    const p = await r.signUp('Forgetful');
    const id = (await r.gql(CREATE, { i: { edition: 'CLASSIC', seats: 2 } }, p.token)).data.createGame.id;
    await r.app.sweep(new Date(clock + (BOUNDS.lobbyExpiryDays - 1) * 86_400_000));
    expect((await r.gql(GAME, { id }, p.token)).data.game.status).toBe('LOBBY');
    const res = await r.app.sweep(new Date(clock + (BOUNDS.lobbyExpiryDays + 1) * 86_400_000));
    expect(res.lobbiesExpired).toBeGreaterThanOrEqual(1);
    expect((await r.gql(GAME, { id }, p.token)).data.game.status).toBe('CANCELLED');
    const last = (await allEvents(r.gql, id, p.token)).at(-1);
    expect(last).toMatchObject({ type: 'gameCancelled', data: { reason: 'expired', days: BOUNDS.lobbyExpiryDays } });
  });
});
