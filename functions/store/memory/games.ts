// The games in memory: the GameLog, the Members index and the game side of Operations, over one
// set of partitions (memory/index.ts composes them with the other ports).
import type { GameLog, Members } from '../ports.js';
import type { GameTables } from './game-items.js';
import { memoryGameLog } from './game-log.js';
import { type GameOps, memoryGameOps } from './game-ops.js';
import { dueIds } from './indexes.js';
import { memoryMembers } from './members.js';

export interface MemoryGames {
  log: GameLog;
  members: Members;
  ops: GameOps;
  /** The due-work index of the records these ports write (Operations.listDue of these kinds). */
  due(kind: 'GAME' | 'LOG' | 'OUTBOX', now: Date, limit: number): Promise<string[]>;
}

export function memoryGames(): MemoryGames {
  const tables: GameTables = { games: new Map(), outboxes: new Map() };
  return {
    log: memoryGameLog(tables),
    members: memoryMembers(),
    ops: memoryGameOps(tables),
    due: async (kind, now, limit) => dueIds(tables, kind, now, limit),
  };
}
