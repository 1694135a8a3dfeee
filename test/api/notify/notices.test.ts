// Notices off the move's path: a webhook receiver that hangs adds nothing to a move's latency
// (measured as a ratio against the same moves without it), and a process that dies right after
// a commit loses no notice (the notice waits in the commit's outbox; the sweep hands it on).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../functions/api/http/app.js';
import { outboxAgeMs } from '../../../functions/api/notify/notices.js';

const OUTBOX_AGE_MS = outboxAgeMs();
import type { NoticeMessage } from '../../../functions/api/services.js';
import { codeOf, SIGNING_KEY, type DynamoTestApp, testApp } from '../../setup/app.js';
import { GAME_QUERY, PLAY } from '../../setup/play.js';

/** A receiver that never answers (`hang`) or answers 204; records the bodies it got. */
async function receiver(hang: boolean) {
  const got: string[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push(raw);
      if (!hang) res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

const HANG_MS = 3000;
let t: DynamoTestApp;
beforeAll(async () => {
  t = await testApp({ store: 'dynamodb', webhooks: { allowPrivateHosts: true, timeoutMs: HANG_MS } });
});
afterAll(() => t.close());

const REGISTER = `mutation($u: String!, $g: ID) { registerWebhook(url: $u, gameId: $g) { secret } }`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A started 2-seat game of two fresh players; `hook`: Mary's webhook for it. */
async function twoSeats(name: string, hook?: string, seed?: string) {
  const [a, b] = await Promise.all([t.signUp(`${name} Anne`), t.signUp(`${name} Mary`)]);
  const id = (
    await t.gql(
      `mutation($s: String) { createGame(input: { edition: CLASSIC, seats: 2, seed: $s }) { id } }`,
      { s: seed },
      a.token,
    )
  ).data.createGame.id;
  await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
  if (hook) expect((await t.gql(REGISTER, { u: hook, g: id }, b.token)).errors).toBeUndefined();
  await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
  return { id, tokens: [a.token, b.token] };
}

/**
 * A second process on the same table (another Lambda instance) whose notice queue is `send`;
 * `gql` runs an operation through it.
 */
async function secondProcess(send: (ms: NoticeMessage[]) => Promise<void>) {
  const app = buildApp({
    tableName: t.tableName,
    client: t.client,
    signingKey: SIGNING_KEY,
    webhooks: { allowPrivateHosts: true },
    noticeQueue: { send },
  });
  await app.apollo.start();
  const gql = async (query: string, variables: Record<string, unknown>, token: string) => {
    const contextValue = await app.context({ authorization: `Bearer ${token}` });
    const r = await app.apollo.executeOperation({ query, variables }, { contextValue });
    return JSON.parse(JSON.stringify((r.body as { singleResult: unknown }).singleResult));
  };
  return { app, gql };
}

/** Times Mary's card choices that end the day (each makes a yourTurn notice for both seats) over `days` days. */
async function timedAdvances(id: string, tokens: string[], days: number): Promise<number[]> {
  const times: number[] = [];
  for (let d = 0; d < days; d++) {
    const g = (await t.gql(GAME_QUERY, { id }, tokens[0])).data.game;
    if (g.phase !== 'CHOOSE' || !g.awaiting.includes(0)) break;
    expect((await t.gql(PLAY, { g: id, r: g.me.hand[0] }, tokens[0])).errors).toBeUndefined();
    const hand = (await t.gql(GAME_QUERY, { id }, tokens[1])).data.game.me.hand;
    const t0 = performance.now();
    const r = await t.gql(PLAY, { g: id, r: hand[0] }, tokens[1]);
    times.push(performance.now() - t0);
    expect(r.errors).toBeUndefined();
    // Answer any prompts (first option) until the next choosing day.
    for (let i = 0; i < 20; i++) {
      const cur = (await t.gql(GAME_QUERY, { id }, tokens[0])).data.game;
      if (cur.status !== 'ACTIVE' || cur.phase === 'CHOOSE') break;
      const seat = cur.pending?.seat ?? cur.awaiting[0];
      const mine = (await t.gql(GAME_QUERY, { id }, tokens[seat])).data.game;
      const p = mine.me.prompts[0];
      if (!p) break;
      await t.gql(
        `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { id } }`,
        { g: id, p: p.id, o: p.options[0].id },
        tokens[seat],
      );
    }
  }
  return times;
}

describe('notices off the move’s path', () => {
  it('a hanging webhook receiver adds nothing to move latency (ratio of medians against the same moves without it)', async () => {
    const hanging = await receiver(true);
    try {
      const plain = await twoSeats('Plain');
      const hooked = await twoSeats('Hooked', hanging.url);
      const without = await timedAdvances(plain.id, plain.tokens, 5);
      const withHook = await timedAdvances(hooked.id, hooked.tokens, 5);
      await t.app.notices!.drain();
      expect(hanging.got.length).toBeGreaterThanOrEqual(withHook.length); // the receiver was called, and hung
      const ratio = median(withHook) / median(without);
      console.log(
        `advancing playCard median: ${median(without).toFixed(1)} ms without, ${median(withHook).toFixed(1)} ms with a hanging receiver (x${ratio.toFixed(2)})`,
      );
      expect(ratio).toBeLessThan(2);
      expect(Math.max(...withHook)).toBeLessThan(HANG_MS);
    } finally {
      await hanging.close();
    }
  }, 120_000);

  it('no notice is lost when the process dies right after a commit: the next process delivers it', async () => {
    const good = await receiver(false);
    try {
      // A chosen seed: the day Mary ends must leave her awaited, so that the commit has a notice for her.
      const { id, tokens } = await twoSeats('Dies', good.url, 'notices-dies-1');
      await t.app.notices!.drain();
      const before = good.got.length;
      // A second process on the same table whose queue hands messages on to the first process's
      // queue (the durable queue outlives it) and which "dies" right after writing a commit
      // item: nothing after the commit (snapshot, answer) happens.
      let handed = 0;
      const { app: dying, gql } = await secondProcess(async (ms) => {
        handed += ms.length;
        await t.app.services.notices.send(ms); // the durable queue (SQS on AWS) outlives the process
      });
      const append = dying.services.store.log.appendCommit;
      dying.services.store.log.appendCommit = async (...args) => {
        await append(...args);
        throw new Error('process killed right after its commit');
      };
      // Both choose; Mary's choice ends the day: a commit with notices, then the "crash".
      const g0 = (await t.gql(GAME_QUERY, { id }, tokens[0])).data.game;
      await t.gql(PLAY, { g: id, r: g0.me.hand[0] }, tokens[0]);
      const chosen = (await t.gql(GAME_QUERY, { id }, tokens[1])).data.game.version;
      const hand = (await t.gql(GAME_QUERY, { id }, tokens[1])).data.game.me.hand;
      const died = await gql(PLAY, { g: id, r: hand[0] }, tokens[1]);
      expect(codeOf(died)).toBe('INTERNAL_SERVER_ERROR');
      expect(handed).toBe(0); // it died before the hand-off
      await dying.apollo.stop();
      // The commit happened (readers fold it); its notice is in its outbox, not yet delivered.
      const after = (await t.gql(GAME_QUERY, { id }, tokens[1])).data.game;
      expect(after.version).toBeGreaterThan(chosen);
      expect(after.awaiting.includes(1) || after.pending?.seat === 1).toBe(true);
      await t.app.notices!.drain();
      const mine = (b: { gameId: string; version: number }) => b.gameId === id && b.version === after.version;
      expect(
        good.got
          .slice(before)
          .map((b) => JSON.parse(b))
          .some(mine),
      ).toBe(false);
      // A sweep before the outbox's age leaves it (and brings the snapshot up to the log); the
      // one after hands it on.
      const first = await t.app.sweep();
      expect(first.noticesResent).toBe(0);
      expect(first.repaired).toBeGreaterThanOrEqual(1);
      const later = await t.app.sweep(new Date(Date.now() + OUTBOX_AGE_MS + 1000));
      expect(later.noticesResent).toBeGreaterThanOrEqual(1);
      await t.app.notices!.drain();
      const bodies = good.got.slice(before).map((b) => JSON.parse(b));
      expect(bodies.filter(mine)).toHaveLength(1);
      // The worker emptied the outbox: a later sweep hands nothing again; nothing is sent twice.
      expect((await t.app.sweep(new Date(Date.now() + OUTBOX_AGE_MS + 2000))).noticesResent).toBe(0);
      await t.app.notices!.drain();
      expect(good.got.slice(before).map((b) => JSON.parse(b).deliveryId)).toEqual([
        ...new Set(good.got.slice(before).map((b) => JSON.parse(b).deliveryId)),
      ]);
    } finally {
      await good.close();
    }
  }, 60_000);

  it('the worker looks for a commit only if its sender did not write it: the move’s own hand-off is delivered without a read, a lost race’s notice is dropped', async () => {
    const good = await receiver(false);
    try {
      const { id, tokens } = await twoSeats('Handed', good.url, 'notices-dies-1');
      await t.app.notices!.drain();
      const before = good.got.length;
      const handed: NoticeMessage[] = [];
      const { app: second, gql } = await secondProcess(async (ms) => void handed.push(...ms));
      let looked = 0;
      const getCommitId = second.services.store.ops.getCommitId;
      second.services.store.ops.getCommitId = (...args) => {
        looked++;
        return getCommitId(...args);
      };
      // Anne chooses, then Mary's choice ends the day through the second process: a commit with notices.
      const g0 = (await t.gql(GAME_QUERY, { id }, tokens[0])).data.game;
      await t.gql(PLAY, { g: id, r: g0.me.hand[0] }, tokens[0]);
      const hand = (await t.gql(GAME_QUERY, { id }, tokens[1])).data.game.me.hand;
      expect((await gql(PLAY, { g: id, r: hand[0] }, tokens[1])).errors).toBeUndefined();
      const notices = handed.filter((m): m is Extract<NoticeMessage, { type: 'notices' }> => m.type === 'notices');
      expect(notices).toHaveLength(1);
      const m = notices[0];
      expect(m.written).toBe(true); // handed after the commit's put won
      // Another writer's commit at that place (a hand-off from a writer that lost the race): dropped.
      await second.handleNotice({ ...m, cid: 'another-writer', written: undefined });
      expect(looked).toBe(1);
      expect(good.got.length).toBe(before);
      // The move's own hand-off: delivered, without looking for the commit.
      await second.handleNotice(m);
      expect(looked).toBe(1);
      const mine = good.got.slice(before).map((b) => JSON.parse(b));
      expect(mine.length).toBeGreaterThanOrEqual(1);
      expect(mine.every((b) => b.gameId === id && b.version === m.notices[0].version)).toBe(true);
      await second.apollo.stop();
    } finally {
      await good.close();
    }
  }, 60_000);

  it('a queue that refuses during a move fails no move: the notices wait in the outbox and the sweep delivers them once the queue is back', async () => {
    const good = await receiver(false);
    try {
      const { id, tokens } = await twoSeats('Outage', good.url, 'notices-dies-1');
      await t.app.notices!.drain();
      const before = good.got.length;
      // A second process whose queue is down (every send throws) until `down` is cleared; then
      // it hands on to the first process's queue (the durable queue).
      let down = true;
      let refused = 0;
      const { app: cut, gql } = await secondProcess(async (ms) => {
        if (down) {
          refused += ms.length;
          throw new Error('SQS is down');
        }
        await t.app.services.notices.send(ms);
      });
      const g0 = (await gql(GAME_QUERY, { id }, tokens[0])).data.game;
      expect((await gql(PLAY, { g: id, r: g0.me.hand[0] }, tokens[0])).errors).toBeUndefined();
      const hand = (await gql(GAME_QUERY, { id }, tokens[1])).data.game.me.hand;
      const moved = await gql(PLAY, { g: id, r: hand[0] }, tokens[1]);
      expect(moved.errors).toBeUndefined(); // the move succeeded with the queue down
      expect(refused).toBeGreaterThan(0);
      const version = (await gql(GAME_QUERY, { id }, tokens[1])).data.game.version;
      const mine = (b: { gameId: string; version: number }) => b.gameId === id && b.version === version;
      await t.app.notices!.drain();
      expect(
        good.got
          .slice(before)
          .map((b) => JSON.parse(b))
          .some(mine),
      ).toBe(false);
      // Still down at the sweep: the step fails (logged, counted), the notices stay.
      const late = new Date(Date.now() + OUTBOX_AGE_MS + 1000);
      expect((await cut.sweep(late)).failures).toBeGreaterThanOrEqual(1);
      down = false;
      expect((await cut.sweep(late)).noticesResent).toBeGreaterThanOrEqual(1);
      await t.app.notices!.drain();
      expect(
        good.got
          .slice(before)
          .map((b) => JSON.parse(b))
          .filter(mine),
      ).toHaveLength(1);
      expect((await cut.sweep(late)).noticesResent).toBe(0);
      await cut.apollo.stop();
    } finally {
      await good.close();
    }
  }, 60_000);
});
