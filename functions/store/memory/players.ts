// The in-memory twin of dynamo/players.ts (without the membership index, memory/games.ts's) and,
// through accounts.ts, of dynamo/accounts.ts. A player is one record plus what the DynamoDB
// adapter keeps on the same item: fixed-window counters and small bounded sets.
import type { Operations, Players } from '../ports.js';
import type { PlayerRecord } from '../records.js';
import { memoryAccounts } from './accounts.js';
import { copy, scanPage } from './pages.js';

interface PlayerItem {
  rec: PlayerRecord;
  counters: Map<string, { window: string; n: number }>;
  sets: Map<string, Set<string>>;
}

const OPTIONAL = ['kind', 'tokenVersion', 'revokedAt', 'issuer', 'subject', 'nameKey', 'refreshJti'] as const;

/** The record as the DynamoDB adapter reads it back: its known fields, unset ones left out. */
function toRecord(p: PlayerRecord): PlayerRecord {
  const r: PlayerRecord = { id: p.id, name: p.name, createdAt: p.createdAt };
  for (const k of OPTIONAL) if (p[k] !== undefined) (r as unknown as Record<string, unknown>)[k] = copy(p[k]);
  return r;
}

type PlayerOps = Pick<Operations, 'scanNameClaims' | 'scanPlayers' | 'setNameKey'>;

export function memoryPlayers(): { players: Players; ops: PlayerOps } {
  const items = new Map<string, PlayerItem>();
  const { accounts, ops } = memoryAccounts();
  const records = () => new Map([...items].map(([id, it]) => [id, it.rec]));
  return {
    players: { ...profile(items), ...counters(items), ...playerSets(items), ...accounts },
    ops: {
      ...ops,
      async scanPlayers(limit, cursor) {
        const page = scanPage(records(), limit, cursor);
        return { players: page.items, cursor: page.cursor };
      },
      async setNameKey(playerId, name, from, to) {
        const rec = items.get(playerId)?.rec;
        if (!rec || rec.name !== name || (rec.nameKey ?? null) !== from) return false;
        rec.nameKey = to;
        return true;
      },
    },
  };
}

type Items = Map<string, PlayerItem>;

function profile(items: Items): Pick<Players, 'insertPlayer' | 'getPlayer' | 'updatePlayer' | 'rotateRefresh'> {
  return {
    async insertPlayer(p) {
      if (items.has(p.id)) return false;
      items.set(p.id, { rec: toRecord(p), counters: new Map(), sets: new Map() });
      return true;
    },
    getPlayer: async (id) => {
      const it = items.get(id);
      return it ? toRecord(it.rec) : null;
    },
    async updatePlayer(id, set, opts = {}) {
      const it = items.get(id);
      if (!it) return null;
      const defined = Object.entries(set).filter(([, v]) => v !== undefined);
      it.rec = toRecord({ ...it.rec, ...Object.fromEntries(defined) });
      if (opts.bumpTokenVersion) it.rec.tokenVersion = (it.rec.tokenVersion ?? 0) + 1;
      return toRecord(it.rec);
    },
    async rotateRefresh(playerId, version, current, next) {
      const rec = items.get(playerId)?.rec;
      if (!rec) return 'unknown';
      const versionHolds = (rec.tokenVersion ?? 0) === version;
      if (versionHolds && (rec.refreshJti ?? null) === current) {
        rec.refreshJti = next;
        return 'ok';
      }
      return versionHolds ? 'reused' : 'revoked';
    },
  };
}

function counters(items: Items): Pick<Players, 'countOnPlayer'> {
  return {
    async countOnPlayer(playerId, counter, window, max) {
      const it = items.get(playerId);
      if (!it) return false;
      const c = it.counters.get(counter);
      if (c?.window === window) {
        if (c.n >= max) return false;
        c.n++;
        return true;
      }
      // A new window (or the first count) starts at 1, as the adapter's second update does.
      it.counters.set(counter, { window, n: 1 });
      return max >= 1;
    },
  };
}

function playerSets(items: Items): Pick<Players, 'addToPlayerSet' | 'removeFromPlayerSet' | 'listPlayerSet'> {
  return {
    async addToPlayerSet(playerId, set, member, max) {
      const it = items.get(playerId);
      if (!it) return false;
      const s = it.sets.get(set) ?? new Set<string>();
      if (max !== undefined && it.sets.has(set) && s.size >= max && !s.has(member)) return false;
      it.sets.set(set, s.add(member));
      return true;
    },
    async removeFromPlayerSet(playerId, set, member) {
      const it = items.get(playerId);
      const s = it?.sets.get(set);
      if (!s) return;
      s.delete(member);
      // DynamoDB holds no empty set: the attribute goes with its last member.
      if (s.size === 0) it?.sets.delete(set);
    },
    listPlayerSet: async (playerId, set) => [...(items.get(playerId)?.sets.get(set) ?? [])],
  };
}
