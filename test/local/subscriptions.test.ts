// gameUpdated over WebSocket (graphql-ws) on the real local server: the subscriber's own view
// now and after each change; private games refuse strangers.
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../setup/http.js';
import { expectNoLeak, GAME_QUERY, PLAY } from '../setup/play.js';

let s: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const SUB = `subscription($g: ID!) { gameUpdated(gameId: $g) { id version status awaiting me { seat hand choice } seats { seat hasChosen } } }`;

function subscribe(gameId: string, token?: string) {
  const client = createClient({
    url: `${s.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  const seen: any[] = [];
  const errors: any[] = [];
  let wake: (() => void) | null = null;
  const stop = client.subscribe(
    { query: SUB, variables: { g: gameId } },
    {
      next: (r) => {
        if (r.errors) errors.push(...r.errors);
        else seen.push((r.data as any).gameUpdated);
        wake?.();
      },
      error: (e) => {
        errors.push(e);
        wake?.();
      },
      complete: () => wake?.(),
    },
  );
  /** Waits until `pred` holds for what arrived (no clock: each arrival re-checks). */
  const until = async (pred: () => boolean) => {
    while (!pred()) await new Promise<void>((r) => (wake = r));
  };
  return { seen, errors, until, close: async () => (stop(), await client.dispose()) };
}

describe('gameUpdated subscription', () => {
  it('sends the subscriber’s own view at once and after each move', async () => {
    const [a, b] = await Promise.all([s.signUp('Live Anne'), s.signUp('Live Mary')]);
    const id = (
      await s.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, seed: "live" }) { id } }`, {}, a.token)
    ).data.createGame.id;
    await s.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: id }, b.token);
    const anne = subscribe(id, a.token);
    const watcher = subscribe(id);
    try {
      await anne.until(() => anne.seen.length >= 1);
      expect(anne.seen[0]).toMatchObject({ id, status: 'LOBBY' });
      await s.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g: id }, a.token);
      await anne.until(() => anne.seen.some((g) => g.status === 'ACTIVE'));
      const hand = (await s.gql(GAME_QUERY, { id }, b.token)).data.game.me.hand;
      const played = (await s.gql(PLAY, { g: id, r: hand[0] }, b.token)).data.playCard;
      await anne.until(() => anne.seen.some((g) => g.version === played.version));
      const last = anne.seen.find((g) => g.version === played.version);
      expect(last.me.seat).toBe(0);
      expect(last.seats[1].hasChosen).toBe(true);
      expect(last.me.choice).toBeNull(); // Anne's own (empty) choice; Mary's card stays hers
      await watcher.until(() => watcher.seen.some((g) => g.version === played.version));
      for (const g of watcher.seen) expect(g.me).toBeNull();
      expect(anne.errors).toEqual([]);
    } finally {
      await anne.close();
      await watcher.close();
    }
  });

  it('refuses strangers on a private game', async () => {
    const a = await s.signUp('Private');
    const id = (
      await s.gql(
        `mutation { createGame(input: { edition: CLASSIC, seats: 2, spectators: false }) { id } }`,
        {},
        a.token,
      )
    ).data.createGame.id;
    const stranger = subscribe(id);
    try {
      await stranger.until(() => stranger.errors.length > 0);
      expect(stranger.seen).toEqual([]);
      expect(JSON.stringify(stranger.errors)).toContain('FORBIDDEN');
    } finally {
      await stranger.close();
    }
    expectNoLeak((await s.gql(GAME_QUERY, { id }, a.token)).data.game, 0);
  });
});
