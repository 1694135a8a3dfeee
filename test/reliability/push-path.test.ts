// Issue 23: "the commit waits for the fan-out". A move never waits for a subscriber: with a push
// gateway that never answers (a socket that does not read, an API Gateway that hangs), every
// move answers; in process the fan-out runs beside the move, bounded in time; with a notice
// queue (AWS) the move only hands `{ type: 'push' }` to it and the notice worker fans out.
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../functions/api/http/app.js';
import type { NoticeMessage } from '../../functions/api/services.js';
import type { PushGateway, PushMessage } from '../../functions/push/protocol.js';
import { pushStoreOf } from '../../functions/api/http/core.js';
import { SIGNING_KEY } from '../setup/app.js';
import { freshTable } from '../setup/db.js';

type Posted = { connectionId: string; message: PushMessage };

async function appWith(opts: { gateway: PushGateway; queue?: NoticeMessage[] }) {
  const { client, tableName } = await freshTable('pushpath');
  const app = buildApp({
    tableName,
    client,
    signingKey: SIGNING_KEY,
    rateLimits: false,
    pushGateway: opts.gateway,
    ...(opts.queue ? { noticeQueue: { send: async (ms: NoticeMessage[]) => void opts.queue!.push(...ms) } } : {}),
  });
  await app.apollo.start();
  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> => {
    const contextValue = await app.context(token ? { authorization: `Bearer ${token}` } : {});
    const r = await app.apollo.executeOperation({ query, variables }, { contextValue });
    if (r.body.kind !== 'single') throw new Error('incremental');
    if (r.body.singleResult.errors) throw new Error(JSON.stringify(r.body.singleResult.errors));
    return r.body.singleResult.data;
  };
  const token = (await gql(`mutation { signUp(name: "Path Player") { token } }`)).signUp.token as string;
  const id = (await gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, token))
    .createGame.id as string;
  await gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, token);
  await pushStoreOf(client, tableName).subscribe('watcher', id, null, new Date());
  /** One move of the human seat: a card, or the first option of a prompt. */
  const move = async () => {
    const g = (
      await gql(
        `query($id: ID!) { game(id: $id) { version status me { hand prompts { id options { id } } } } }`,
        { id },
        token,
      )
    ).game;
    const p = g.me.prompts[0];
    if (p)
      return (
        await gql(
          `mutation($g: ID!, $p: ID!, $o: ID!) { answerPrompt(gameId: $g, promptId: $p, optionId: $o) { version } }`,
          { g: id, p: p.id, o: p.options[0].id },
          token,
        )
      ).answerPrompt.version as number;
    return (
      await gql(
        `mutation($g: ID!, $r: Int!) { playCard(gameId: $g, rank: $r) { version } }`,
        { g: id, r: g.me.hand[0] },
        token,
      )
    ).playCard.version as number;
  };
  return { app, id, move };
}

const apps: { apollo: { stop(): Promise<void> } }[] = [];
afterAll(async () => {
  for (const a of apps) await a.apollo.stop();
});

describe("the fan-out is off the move's path", () => {
  it('in process: with a gateway that never answers, every move answers, and the posts were made', async () => {
    const posted: Posted[] = [];
    const hanging: PushGateway = {
      post: (connectionId, message) => (posted.push({ connectionId, message }), new Promise(() => {})),
      close: () => new Promise(() => {}),
    };
    const { app, move } = await appWith({ gateway: hanging });
    apps.push(app);
    for (let i = 0; i < 3; i++) await move();
    // The first fan-out is still "posting" (it never ends, until its time budget): later versions
    // wait, coalesced into one; none of it held a move.
    await new Promise((r) => setTimeout(r, 50));
    expect(posted.length).toBeGreaterThanOrEqual(1);
    expect(posted[0]).toMatchObject({ connectionId: 'watcher', message: { type: 'game' } });
  });

  it('with a notice queue (AWS): the move hands one push message to the queue and posts nothing; the worker posts the latest view', async () => {
    const posted: Posted[] = [];
    const queue: NoticeMessage[] = [];
    const gateway: PushGateway = {
      post: async (connectionId, message) => (posted.push({ connectionId, message }), 'ok'),
      close: async () => {},
    };
    const { app, id, move } = await appWith({ gateway, queue });
    apps.push(app);
    queue.length = 0;
    posted.length = 0;
    const version = await move();
    const pushes = queue.filter((m) => m.type === 'push');
    expect(pushes.length).toBeGreaterThanOrEqual(1);
    expect(pushes.at(-1)).toEqual({ type: 'push', gameId: id, version });
    expect(posted).toEqual([]);
    // The worker: several messages for one game, handled together, push the latest version once.
    await Promise.all(pushes.map((m) => app.handleNotice(m)));
    expect(posted.map((p) => [p.connectionId, p.message.type, (p.message as { version?: number }).version])).toEqual([
      ['watcher', 'game', version],
    ]);
    expect((posted[0].message as { game?: { version: number } }).game?.version).toBe(version);
    // A message again (SQS delivers at least once): that version was pushed, nothing more.
    await app.handleNotice(pushes.at(-1)!);
    expect(posted).toHaveLength(1);
  });
});
