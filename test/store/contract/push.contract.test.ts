// The push connections' store on both adapters: a player's connections (not answered past their
// time), a connection's subscriptions bounded (racing subscribes too), each game's subscribers
// with their player, and what unsubscribe, forget and disconnect leave behind.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PushStore } from '../../../functions/store/index.js';
import { PUSH_ADAPTERS } from './adapters.js';
import { uid } from './ids.js';

const MAX = 3;
const TTL = 3600;

describe.each(PUSH_ADAPTERS)('push connections on $name', (adapter) => {
  let store: PushStore;
  beforeAll(async () => {
    store = await adapter.make({ maxSubscriptions: MAX, ttlSeconds: TTL });
  });
  const now = () => new Date();

  it("finds a player's open connections; one past its time is not answered", async () => {
    const anne = uid('anne');
    const [c1, c2, old] = ['c1', 'c2', 'old'].map(uid);
    await store.connect(c1, anne, now());
    await store.connect(c2, anne, now());
    await store.connect(old, anne, new Date(Date.now() - (TTL + 5) * 1000));
    expect((await store.connectionsOf(anne)).sort()).toEqual([c1, c2].sort());
    expect(await store.connectionsOf(uid('nobody'))).toEqual([]);
    await store.connect(old, anne, now()); // open again: a fresh time
    expect(await store.connectionsOf(anne)).toHaveLength(3);
  });

  it('subscribes a connection to at most max games (racing subscribes too); again to one it has is fine', async () => {
    const c = uid('c');
    await store.connect(c, 'mary', now());
    const games = Array.from({ length: 6 }, (_, i) => uid(`g${i}`));
    const ok = await Promise.all(games.map((g) => store.subscribe(c, g, 'mary', now())));
    expect(ok.filter(Boolean)).toHaveLength(MAX);
    const held = games.filter((_, i) => ok[i]);
    const out = games.filter((_, i) => !ok[i]);
    for (const g of held) expect(await store.subscribers(g)).toEqual([{ connectionId: c, playerId: 'mary' }]);
    for (const g of out) expect(await store.subscribers(g)).toEqual([]);
    expect(await store.subscribe(c, held[0], 'mary', now())).toBe(true);
    expect(await store.subscribe(c, out[0], 'mary', now())).toBe(false);
    await store.unsubscribe(c, held[0]);
    expect(await store.subscribers(held[0])).toEqual([]);
    expect(await store.subscribe(c, out[0], 'mary', now())).toBe(true);
    expect(await store.subscribers(out[0])).toEqual([{ connectionId: c, playerId: 'mary' }]);
  });

  it("lists a game's subscribers with their player (null: a spectator, even on a connection never opened here)", async () => {
    const g = uid('g');
    const [a, b, s] = ['a', 'b', 's'].map(uid);
    await store.connect(a, 'anne', now());
    await store.connect(b, 'jack', now());
    expect(await store.subscribe(a, g, 'anne', now())).toBe(true);
    expect(await store.subscribe(b, g, 'jack', now())).toBe(true);
    expect(await store.subscribe(s, g, null, now())).toBe(true);
    const subs = await store.subscribers(g);
    expect(subs.sort((x, y) => x.connectionId.localeCompare(y.connectionId))).toEqual(
      [
        { connectionId: a, playerId: 'anne' },
        { connectionId: b, playerId: 'jack' },
        { connectionId: s, playerId: null },
      ].sort((x, y) => x.connectionId.localeCompare(y.connectionId)),
    );
    await store.forget(g, b); // found gone by a post
    expect((await store.subscribers(g)).map((x) => x.connectionId).sort()).toEqual([a, s].sort());
    await store.unsubscribe(uid('never'), g); // nothing there: no error
  });

  it('forgetting a subscription does not free its place on the connection; disconnect forgets everything', async () => {
    const c = uid('c');
    const player = uid('p');
    await store.connect(c, player, now());
    const games = Array.from({ length: MAX }, (_, i) => uid(`g${i}`));
    for (const g of games) await store.subscribe(c, g, player, now());
    await store.forget(games[0], c);
    expect(await store.subscribe(c, uid('more'), player, now())).toBe(false); // still counted on the connection
    await store.disconnect(c);
    for (const g of games) expect(await store.subscribers(g)).toEqual([]);
    expect(await store.connectionsOf(player)).toEqual([]);
    expect(await store.subscribe(c, uid('fresh'), player, now())).toBe(true); // a new connection of that id
    await store.disconnect(uid('never')); // nothing there: no error
  });
});
