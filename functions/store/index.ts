// The store: DynamoDB items for games, events, players and request records. No game rules.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.js';
import { listEvents } from './events.js';
import { commitGame, flushOutbox, getGameRaw, getGames, insertGame, listGameIdsByStatus, loadGame } from './games.js';
import { deleteMember, getPlayer, insertPlayer, listMemberGameIds, putMember } from './players.js';
import { getRequest, putRequest } from './requests.js';

export type { StoredEvent } from './events.js';
export type { GameRecord, GameStatus } from './games.js';
export { RECENT_REQUESTS } from './games.js';
export type { PlayerRecord } from './players.js';
export type { RequestRecord } from './requests.js';
export { createTable, tableDefinition, keys, GSI1, GSI2 } from './table.js';

export function createStore({ tableName, client }: { tableName: string; client: DynamoDBDocumentClient }) {
  const db: Db = { doc: client, table: tableName };
  return {
    tableName,
    insertGame: (r: Parameters<typeof insertGame>[1]) => insertGame(db, r),
    loadGame: <D>(id: string) => loadGame<D>(db, id),
    getGameRaw: <D>(id: string) => getGameRaw<D>(db, id),
    commitGame: (r: Parameters<typeof commitGame>[1]) => commitGame(db, r),
    flushOutbox: (r: Parameters<typeof flushOutbox>[1]) => flushOutbox(db, r),
    getGames: <D>(ids: string[]) => getGames<D>(db, ids),
    listGameIdsByStatus: (status: 'LOBBY' | 'ACTIVE', limit: number) => listGameIdsByStatus(db, status, limit),
    listEvents: (gameId: string, after: number, limit: number) => listEvents(db, gameId, after, limit),
    insertPlayer: (p: Parameters<typeof insertPlayer>[1]) => insertPlayer(db, p),
    getPlayer: (id: string) => getPlayer(db, id),
    putMember: (gameId: string, playerId: string, gameCreatedAt: string) => putMember(db, gameId, playerId, gameCreatedAt),
    deleteMember: (gameId: string, playerId: string) => deleteMember(db, gameId, playerId),
    listMemberGameIds: (playerId: string, limit: number) => listMemberGameIds(db, playerId, limit),
    getRequest: <A>(gameId: string, scope: string, requestId: string) => getRequest<A>(db, gameId, scope, requestId),
    putRequest: (gameId: string, scope: string, requestId: string, rec: Parameters<typeof putRequest>[4], now: Date) =>
      putRequest(db, gameId, scope, requestId, rec, now),
  };
}

export type Store = ReturnType<typeof createStore>;
