// Game chat against the real dynalite: posting (players only, normalised, bounded), reading with
// the cursor, the per-player rate and the per-game cap, idempotent retries, muting, silencing,
// reporting and hiding with their typed errors, the push to subscribers (never to one who muted
// the author, never to another game's), the TTL with the log, and no message crossing games.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_LIMITS, postChat } from '../../../functions/api/community/chat.js';
import { pushStoreOf } from '../../../functions/api/http/core.js';
import { createFanout } from '../../../functions/api/notify/fanout.js';
import { archiveLog } from '../../../functions/api/ops/retention.js';
import type { PushMessage } from '../../../functions/push/protocol.js';
import { TTL_ATTRIBUTE, keys } from '../../../functions/store/index.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { codeOf, type DynamoTestApp, testApp } from '../../setup/app.js';

let t: DynamoTestApp;
beforeAll(async () => {
  t = await testApp({ store: 'dynamodb' });
});
afterAll(() => t.close());

const POST = `mutation($g: ID!, $b: String!, $r: ID) { postChatMessage(gameId: $g, text: $b, requestId: $r) { id authorId authorName text hidden reports } }`;
const READ = `query($g: ID!, $f: Int, $a: String) { chat(gameId: $g, first: $f, after: $a) {
  messages { id authorId text hidden reports reportedByMe } pageInfo { hasNextPage endCursor } mutedPlayers silencedPlayers moderator } }`;

type P = { playerId: string; token: string };

/** A lobby of `players` (the first creates it), optionally private. */
async function lobby(players: P[], input: Record<string, unknown> = {}): Promise<string> {
  const r = await t.gql(
    `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`,
    { i: { edition: 'CLASSIC', seats: Math.max(2, players.length), ...input } },
    players[0].token,
  );
  const id = r.data.createGame.id as string;
  for (const p of players.slice(1))
    expect(
      (await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, p.token)).errors,
    ).toBeUndefined();
  return id;
}

const post = (g: string, p: P, b: string, r?: string) => t.gql(POST, { g, b, r }, p.token);
const read = (g: string, p?: P, f?: number, a?: string | null) => t.gql(READ, { g, f, a }, p?.token);

describe('game chat', () => {
  it('posts normalised text, reads it with the cursor, refuses bad text and non-players', async () => {
    const [anne, mary, jack] = await Promise.all(['Chat Anne', 'Chat Mary', 'Chat Jack'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary]);
    const first = await post(g, anne, '  Ahoy,   mates!  ');
    expect(first.errors).toBeUndefined();
    expect(first.data.postChatMessage).toMatchObject({
      id: '1',
      authorId: anne.playerId,
      authorName: 'Chat Anne',
      text: 'Ahoy, mates!',
    });
    expect((await post(g, mary, 'Yo ho')).data.postChatMessage.id).toBe('2');

    for (const b of ['', '   ', 'a\u0007b', 'two\nlines', 'evil\u202Eright', 'x'.repeat(CHAT_LIMITS.bodyMax + 1)]) {
      const r = await post(g, anne, b);
      expect(codeOf(r), JSON.stringify(b)).toBe('BAD_USER_INPUT');
    }
    expect((await post(g, anne, '👩‍👩‍👧 ' + 'x'.repeat(CHAT_LIMITS.bodyMax - 2))).errors).toBeUndefined();
    // A spectator reads a public game's chat but does not post.
    expect(codeOf(await post(g, jack, 'let me in'))).toBe('FORBIDDEN');
    const p1 = (await read(g, jack, 2)).data.chat;
    expect(p1.messages.map((m: { text: string }) => m.text)).toEqual(['Ahoy, mates!', 'Yo ho']);
    expect(p1.pageInfo).toEqual({ hasNextPage: true, endCursor: '2' });
    expect(p1.moderator).toBe(false);
    const p2 = (await read(g, undefined, 2, p1.pageInfo.endCursor)).data.chat;
    expect(p2.messages.map((m: { id: string }) => m.id)).toEqual(['3']);
    expect(p2.pageInfo).toEqual({ hasNextPage: false, endCursor: '3' });
    // An empty page keeps the cursor where it was (poll with it).
    expect((await read(g, anne, 10, '3')).data.chat.pageInfo).toEqual({ hasNextPage: false, endCursor: '3' });
    expect(codeOf(await read(g, anne, 0))).toBe('BAD_USER_INPUT');
    expect(codeOf(await read(g, anne, 10, 'abc'))).toBe('BAD_USER_INPUT');
    // A private game's chat is its players' only.
    const secret = await lobby([anne, mary], { spectators: false });
    await post(secret, mary, 'just us');
    expect(codeOf(await read(secret, jack))).toBe('FORBIDDEN');
    expect(codeOf(await read(secret))).toBe('FORBIDDEN');
  });

  it('answers a retry with the same message (posted once); another text under the id is CONFLICT', async () => {
    const [anne, mary] = await Promise.all(['Retry Anne', 'Retry Mary'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary]);
    const tries = await Promise.all([1, 2, 3].map(() => post(g, anne, 'once only', 'req-1')));
    const ids = new Set(tries.map((r) => r.data?.postChatMessage?.id));
    expect(tries.every((r) => r.errors === undefined)).toBe(true);
    expect([...ids]).toEqual(['1']);
    expect(codeOf(await post(g, anne, 'another text', 'req-1'))).toBe('CONFLICT');
    expect((await read(g, anne)).data.chat.messages).toHaveLength(1);
  });

  it('rate-limits a player (RATE_LIMITED with the limit) and caps a game (LIMIT_EXCEEDED), writing nothing', async () => {
    const [anne, mary] = await Promise.all(['Rate Anne', 'Rate Mary'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary]);
    const minute = new Date('2026-12-02T10:00:10.000Z');
    const services = {
      ...t.app.services,
      now: () => minute,
      limiters: { ...t.app.services.limiters, itemRates: true },
    };
    const me = { id: anne.playerId, name: 'Rate Anne' };
    for (let i = 0; i < CHAT_LIMITS.perMinute; i++) await postChat(services, me, g, `m${i}`);
    const limited = await postChat(services, me, g, 'one too many').catch((e) => e);
    expect(limited.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: 50,
      bucket: 'chat:player',
      limit: { name: 'chatMessagesPerMinute', max: CHAT_LIMITS.perMinute },
    });
    // The next minute is a new window.
    const later = { ...services, now: () => new Date('2026-12-02T10:01:00.000Z') };
    expect((await postChat(later, me, g, 'again')).id).toBe(String(CHAT_LIMITS.perMinute + 1));

    // The cap: the game's chat is full at messagesPerGame.
    await t.app.services.store.chat.putChat({
      gameId: g,
      seq: CHAT_LIMITS.messagesPerGame,
      authorId: mary.playerId,
      authorName: 'Rate Mary',
      body: 'the last one',
      at: minute.toISOString(),
    });
    const full = await post(g, mary, 'no room');
    expect(codeOf(full)).toBe('LIMIT_EXCEEDED');
    expect(full.errors![0].extensions!.limit).toEqual({
      name: 'chatMessagesPerGame',
      max: CHAT_LIMITS.messagesPerGame,
    });
    expect(await t.app.services.store.chat.lastChatSeq(g)).toBe(CHAT_LIMITS.messagesPerGame);
  });

  it('mutes an author for the muter only, in every game; bounded; never oneself', async () => {
    const [anne, mary, jack] = await Promise.all(['Mute Anne', 'Mute Mary', 'Mute Jack'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary, jack]);
    await post(g, mary, 'annoying');
    await post(g, jack, 'fine');
    const muted = await t.gql(`mutation($p: ID!) { mutePlayer(playerId: $p) }`, { p: mary.playerId }, anne.token);
    expect(muted.data.mutePlayer).toEqual([mary.playerId]);
    const forAnne = (await read(g, anne)).data.chat;
    expect(forAnne.messages.map((m: { authorId: string }) => m.authorId)).toEqual([jack.playerId]);
    expect(forAnne.pageInfo.endCursor).toBe('2');
    expect(forAnne.mutedPlayers).toEqual([mary.playerId]);
    expect((await read(g, jack)).data.chat.messages).toHaveLength(2);
    expect(
      codeOf(await t.gql(`mutation($p: ID!) { mutePlayer(playerId: $p) }`, { p: anne.playerId }, anne.token)),
    ).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(`mutation($p: ID!) { mutePlayer(playerId: $p) }`, { p: 'nobody' }, anne.token))).toBe(
      'NOT_FOUND',
    );
    const unmuted = await t.gql(
      `mutation($p: ID!) { mutePlayer(playerId: $p, muted: false) }`,
      { p: mary.playerId },
      anne.token,
    );
    expect(unmuted.data.mutePlayer).toEqual([]);
    expect((await read(g, anne)).data.chat.messages).toHaveLength(2);
    // The bound: a full set answers LIMIT_EXCEEDED.
    for (let i = 0; i < CHAT_LIMITS.mutedPerPlayer; i++)
      await t.app.services.store.players.addToPlayerSet(
        jack.playerId,
        'mutedPlayers',
        `p${i}`,
        CHAT_LIMITS.mutedPerPlayer,
      );
    const over = await t.gql(`mutation($p: ID!) { mutePlayer(playerId: $p) }`, { p: mary.playerId }, jack.token);
    expect(codeOf(over)).toBe('LIMIT_EXCEEDED');
    expect(over.errors![0].extensions!.limit).toEqual({ name: 'mutedPlayers', max: CHAT_LIMITS.mutedPerPlayer });
  });

  it('lets the creator silence a player (CHAT_SILENCED), hide a message for everyone and see reports; nobody else', async () => {
    const [anne, mary, jack] = await Promise.all(['Mod Anne', 'Mod Mary', 'Mod Jack'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary, jack]);
    await post(g, mary, 'rude words');
    const SILENCE = `mutation($g: ID!, $p: ID!, $s: Boolean) { silenceChatPlayer(gameId: $g, playerId: $p, silenced: $s) }`;
    expect(codeOf(await t.gql(SILENCE, { g, p: anne.playerId }, mary.token))).toBe('FORBIDDEN');
    expect((await t.gql(SILENCE, { g, p: mary.playerId }, anne.token)).data.silenceChatPlayer).toEqual([mary.playerId]);
    expect(codeOf(await post(g, mary, 'more rude words'))).toBe('CHAT_SILENCED');
    expect((await read(g, jack)).data.chat.silencedPlayers).toEqual([mary.playerId]);
    expect((await t.gql(SILENCE, { g, p: mary.playerId, s: false }, anne.token)).data.silenceChatPlayer).toEqual([]);
    expect((await post(g, mary, 'sorry')).errors).toBeUndefined();

    const REPORT = `mutation($g: ID!, $m: ID!, $r: String) { reportChatMessage(gameId: $g, messageId: $m, reason: $r) { id reports reportedByMe } }`;
    const rep = await t.gql(REPORT, { g, m: '1', r: 'insults' }, jack.token);
    expect(rep.data.reportChatMessage).toEqual({ id: '1', reports: null, reportedByMe: true });
    // Once per reporter: a second report changes nothing.
    expect((await t.gql(REPORT, { g, m: '1', r: 'again' }, jack.token)).errors).toBeUndefined();
    const stored = await t.app.services.store.chat.getChat(g, 1);
    expect(Object.keys(stored!.reports!)).toEqual([jack.playerId]);
    expect(stored!.reports![jack.playerId].reason).toBe('insults');
    expect(codeOf(await t.gql(REPORT, { g, m: '99' }, jack.token))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(REPORT, { g, m: '1', r: 'x'.repeat(CHAT_LIMITS.reasonMax + 1) }, jack.token))).toBe(
      'BAD_USER_INPUT',
    );
    const forCreator = (await read(g, anne)).data.chat;
    expect(forCreator.moderator).toBe(true);
    expect(forCreator.messages[0].reports).toBe(1);
    // The report bound.
    for (let i = 0; i < CHAT_LIMITS.reportsPerMessage - 1; i++)
      expect(
        await t.app.services.store.chat.reportChat(
          g,
          1,
          `r${i}`,
          { reason: '', at: '' },
          CHAT_LIMITS.reportsPerMessage,
        ),
      ).toBe('ok');
    expect(codeOf(await t.gql(REPORT, { g, m: '1' }, mary.token))).toBe('LIMIT_EXCEEDED');

    const HIDE = `mutation($g: ID!, $m: ID!) { hideChatMessage(gameId: $g, messageId: $m) { id text hidden } }`;
    expect(codeOf(await t.gql(HIDE, { g, m: '1' }, jack.token))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(HIDE, { g, m: '1' }))).toBe('UNAUTHENTICATED');
    const hid = await t.gql(HIDE, { g, m: '1' }, anne.token);
    expect(hid.errors).toBeUndefined();
    expect(hid.data.hideChatMessage).toEqual({ id: '1', text: null, hidden: true });
    for (const who of [anne, mary, jack]) {
      const m = (await read(g, who)).data.chat.messages[0];
      expect(m).toMatchObject({ id: '1', text: null, hidden: true });
    }
    // Kept in the store, marked hidden.
    expect(await t.app.services.store.chat.getChat(g, 1)).toMatchObject({
      body: 'rude words',
      hidden: true,
      hiddenBy: anne.playerId,
    });
  });

  it('pushes a message to the subscribers who may see it, not to one who muted its author', async () => {
    const [anne, mary, jack] = await Promise.all(['Push Anne', 'Push Mary', 'Push Jack'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary]);
    const other = await lobby([jack, mary]);
    const pushStore = pushStoreOf(t.client, t.tableName);
    const now = new Date();
    await pushStore.subscribe('c-anne', g, anne.playerId, now);
    await pushStore.subscribe('c-jack', g, jack.playerId, now);
    await pushStore.subscribe('c-watcher', g, null, now);
    await pushStore.subscribe('c-other', other, mary.playerId, now);
    const posted: { id: string; m: PushMessage }[] = [];
    const fanout = createFanout(t.app.services, pushStore, {
      post: async (id, m) => {
        posted.push({ id, m });
        return 'ok';
      },
      close: async () => {},
    });
    await t.gql(`mutation($p: ID!) { mutePlayer(playerId: $p) }`, { p: mary.playerId }, jack.token);
    await post(g, mary, 'hello table');
    await fanout.deliverChat!(g, 1);
    expect(posted.map((p) => p.id).sort()).toEqual(['c-anne', 'c-watcher']);
    for (const p of posted)
      expect(p.m).toEqual({
        type: 'chat',
        gameId: g,
        message: expect.objectContaining({ id: '1', authorId: mary.playerId, text: 'hello table' }),
      });
    // Nothing but the message: no game state rides along.
    expect(Object.keys((posted[0].m as { message: object }).message).sort()).toEqual(
      ['at', 'authorId', 'authorName', 'hidden', 'id', 'reportedByMe', 'reports', 'text'].sort(),
    );
  });

  it('never shows a message in another game (property: random posts into two games)', async () => {
    const [anne, mary] = await Promise.all(['Leak Anne', 'Leak Mary'].map((n) => t.signUp(n)));
    const games = [await lobby([anne, mary]), await lobby([mary, anne])];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.stringMatching(/^[a-z]{1,12}$/)), {
          minLength: 1,
          maxLength: 8,
        }),
        async (posts) => {
          const from = await Promise.all(games.map((g) => t.app.services.store.chat.lastChatSeq(g)));
          const sent: string[][] = [[], []];
          for (const [second, byMary, word] of posts) {
            const i = second ? 1 : 0;
            const r = await post(games[i], byMary ? mary : anne, `${i}:${word}`);
            expect(r.errors).toBeUndefined();
            sent[i].push(`${i}:${word}`);
          }
          for (const i of [0, 1]) {
            const page = (await read(games[i], anne, 100, from[i] ? String(from[i]) : null)).data.chat;
            const got = page.messages.map((m: { text: string }) => m.text);
            expect(got).toEqual(sent[i]);
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('expires with the game log: the archive step gives every message the log’s TTL', async () => {
    const [anne, mary] = await Promise.all(['Ttl Anne', 'Ttl Mary'].map((n) => t.signUp(n)));
    const g = await lobby([anne, mary]);
    await post(g, anne, 'before the end');
    await post(g, mary, 'bye');
    expect(
      (await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g }, mary.token)).errors,
    ).toBeUndefined();
    expect(
      (await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { status } }`, { g }, anne.token)).data.leaveGame.status,
    ).toBe('CANCELLED');
    expect(await archiveLog(t.app.services, g)).toBe(true);
    const ttl = async (sk: { PK: string; SK: string }) => (
      await t.app.services.store.chat.listChat(g, 0, 10),
      (await t.client.send(new GetCommand({ TableName: t.tableName, Key: sk }))).Item?.[TTL_ATTRIBUTE]
    );
    const commitTtl = await ttl(keys.commit(g, 1));
    expect(commitTtl).toBeGreaterThan(0);
    expect(await ttl(keys.chat(g, 1))).toBe(commitTtl);
    expect(await ttl(keys.chat(g, 2))).toBe(commitTtl);
  });
});
