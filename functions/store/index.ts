// The store: DynamoDB items for games, events, players and request records. No game rules.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.js';
import { listEvents } from './events.js';
import { commitGame, flushOutbox, getGameRaw, getGames, insertGame, listDue, listGameIdsByStatus, loadGame } from './games.js';
import { claimName, getIdentity, nameHolder, putIdentity, releaseName } from './accounts.js';
import { countOnPlayer, deleteMember, getPlayer, insertPlayer, listMemberGameIds, listMemberGamesPage, putMember, updatePlayer } from './players.js';
import { getRequest, putRequest } from './requests.js';
import { claimDelivery, deleteWebhook, getDelivery, getWebhook, listWebhooks, putDelivery, putWebhook, settleDelivery } from './webhooks.js';

export type { StoredEvent } from './events.js';
export type { GameRecord, GameStatus } from './games.js';
export { RECENT_REQUESTS } from './games.js';
export type { PlayerRecord } from './players.js';
export type { RequestRecord } from './requests.js';
export type { DeliveryRecord, WebhookRecord } from './webhooks.js';
export { createTable, tableDefinition, keys, GSI1, GSI2, GSI3 } from './table.js';

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
    listGameIdsByStatus: (status: 'LOBBY' | 'ACTIVE', limit: number, oldestFirst = false) => listGameIdsByStatus(db, status, limit, oldestFirst),
    listDue: (kind: 'GAME' | 'DELIVERY', now: Date, limit: number) => listDue(db, kind, now.toISOString(), limit),
    listEvents: (gameId: string, after: number, limit: number) => listEvents(db, gameId, after, limit),
    insertPlayer: (p: Parameters<typeof insertPlayer>[1]) => insertPlayer(db, p),
    getPlayer: (id: string) => getPlayer(db, id),
    updatePlayer: (id: string, set: Parameters<typeof updatePlayer>[2], opts?: Parameters<typeof updatePlayer>[3]) => updatePlayer(db, id, set, opts),
    getIdentity: (issuer: string, subject: string) => getIdentity(db, issuer, subject),
    putIdentity: (issuer: string, subject: string, playerId: string, createdAt: string) => putIdentity(db, issuer, subject, playerId, createdAt),
    nameHolder: (nameKey: string) => nameHolder(db, nameKey),
    claimName: (nameKey: string, playerId: string) => claimName(db, nameKey, playerId),
    releaseName: (nameKey: string, playerId: string) => releaseName(db, nameKey, playerId),
    countOnPlayer: (playerId: string, counter: string, window: string, max: number) => countOnPlayer(db, playerId, counter, window, max),
    putMember: (gameId: string, playerId: string, gameCreatedAt: string) => putMember(db, gameId, playerId, gameCreatedAt),
    deleteMember: (gameId: string, playerId: string) => deleteMember(db, gameId, playerId),
    listMemberGameIds: (playerId: string, limit: number) => listMemberGameIds(db, playerId, limit),
    listMemberGamesPage: (playerId: string, limit: number, before?: string | null) => listMemberGamesPage(db, playerId, limit, before),
    getRequest: <A>(gameId: string, scope: string, requestId: string) => getRequest<A>(db, gameId, scope, requestId),
    putRequest: (gameId: string, scope: string, requestId: string, rec: Parameters<typeof putRequest>[4], now: Date) =>
      putRequest(db, gameId, scope, requestId, rec, now),
    putWebhook: (w: Parameters<typeof putWebhook>[1]) => putWebhook(db, w),
    getWebhook: (playerId: string, hookId: string) => getWebhook(db, playerId, hookId),
    listWebhooks: (playerId: string) => listWebhooks(db, playerId),
    deleteWebhook: (playerId: string, hookId: string) => deleteWebhook(db, playerId, hookId),
    putDelivery: (d: Parameters<typeof putDelivery>[1]) => putDelivery(db, d),
    getDelivery: (id: string) => getDelivery(db, id),
    claimDelivery: (id: string, attempts: number, retryAt: Date | null) => claimDelivery(db, id, attempts, retryAt ? retryAt.toISOString() : null),
    settleDelivery: (id: string, attempts: number, status: 'pending' | 'delivered' | 'failed', lastError: string | null) =>
      settleDelivery(db, id, attempts, status, lastError),
  };
}

export type Store = ReturnType<typeof createStore>;
