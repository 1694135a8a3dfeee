// The in-memory twin of dynamo/connections.ts: a connection's games (bounded), each game's
// subscribers, each player's connections. As there, a player's connection past its time is not
// answered (a TTL that has not run yet), and nothing else looks at the time.
import type { PushStore } from '../ports.js';
import type { Subscriber } from '../records.js';
import { byKey } from './pages.js';

interface Connection {
  games: Set<string>;
  playerId?: string;
  expiresAt: number;
}

export function createMemoryPushStore(cfg: { maxSubscriptions: number; ttlSeconds: number }): PushStore {
  const connections = new Map<string, Connection>();
  /** gameId -> connectionId -> the subscribed player (null: a spectator). */
  const games = new Map<string, Map<string, string | null>>();
  /** playerId -> connectionId -> when it expires (epoch seconds). */
  const players = new Map<string, Map<string, number>>();
  const ttl = (now: Date) => Math.floor(now.getTime() / 1000) + cfg.ttlSeconds;
  const connection = (id: string, now: Date) => {
    const c = connections.get(id) ?? { games: new Set<string>(), expiresAt: ttl(now) };
    connections.set(id, c);
    return c;
  };
  const forget = async (gameId: string, connectionId: string) => void games.get(gameId)?.delete(connectionId);
  return {
    async connect(connectionId, playerId, now) {
      players.set(playerId, (players.get(playerId) ?? new Map()).set(connectionId, ttl(now)));
      Object.assign(connection(connectionId, now), { playerId, expiresAt: ttl(now) });
    },
    async connectionsOf(playerId) {
      const now = Math.floor(Date.now() / 1000);
      return [...(players.get(playerId) ?? [])]
        .filter(([, expiresAt]) => expiresAt > now)
        .map(([id]) => id)
        .sort(byKey);
    },
    async subscribe(connectionId, gameId, playerId, now) {
      const held = connections.get(connectionId)?.games ?? new Set();
      // The adapter's condition: no games yet (an empty set is no attribute), room, or already there.
      if (held.size > 0 && held.size >= cfg.maxSubscriptions && !held.has(gameId)) return false;
      const conn = connection(connectionId, now);
      conn.games.add(gameId);
      conn.expiresAt = ttl(now);
      games.set(gameId, (games.get(gameId) ?? new Map()).set(connectionId, playerId || null));
      return true;
    },
    async unsubscribe(connectionId, gameId) {
      await forget(gameId, connectionId);
      connections.get(connectionId)?.games.delete(gameId);
    },
    async disconnect(connectionId) {
      const c = connections.get(connectionId);
      if (!c) return;
      for (const g of c.games) await forget(g, connectionId);
      if (c.playerId !== undefined) players.get(c.playerId)?.delete(connectionId);
      connections.delete(connectionId);
    },
    async subscribers(gameId) {
      const subs: Subscriber[] = [...(games.get(gameId) ?? [])].map(([connectionId, playerId]) => ({
        connectionId,
        playerId,
      }));
      return subs.sort((a, b) => byKey(a.connectionId, b.connectionId));
    },
    forget,
  };
}
