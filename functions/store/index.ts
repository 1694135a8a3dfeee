// The store: DynamoDB items for games (commit log + snapshot), players, request records,
// webhooks and deliveries, push connections (connections.ts). No game rules: the API folds
// commits into games.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db.js';
import { listEvents } from './events.js';
import {
  appendCommit,
  expireCommits,
  findRequestCommit,
  getArchive,
  getCommitId,
  getOutbox,
  clearOutbox,
  getGames,
  insertGame,
  listCommits,
  listDue,
  listGamesByStatus,
  loadGame,
  markArchived,
  saveArchive,
  saveSnapshot,
} from './games.js';
import {
  claimName,
  getIdentity,
  getNameClaim,
  putIdentity,
  releaseName,
  renewName,
  scanNameClaims,
} from './accounts.js';
import {
  addToPlayerSet,
  countOnPlayer,
  deleteMember,
  getPlayer,
  insertPlayer,
  listMemberGameIds,
  listMemberGamesPage,
  listPlayerSet,
  putMember,
  removeFromPlayerSet,
  rotateRefresh,
  scanPlayers,
  setNameKey,
  updatePlayer,
} from './players.js';
import { claimRequest, getRequest } from './requests.js';
import { consumeOidc, deleteOidc, getOidc, getOidcByUid, putOidc, revokeOidcAccount, revokeOidcGrant } from './oidc.js';
import {
  claimRatedGame,
  deleteRatedGame,
  deleteRating,
  getRating,
  listLeaderboard,
  listRatingHistory,
  putRating,
  putRatingHistory,
} from './ratings.js';
import { getStats, listPlayed, putPlayed, putStats } from './profiles.js';
import {
  expireChat,
  getChat,
  hideChat,
  lastChatSeq,
  listChat,
  listSilenced,
  putChat,
  reportChat,
  setSilenced,
} from './chat.js';
import {
  claimDelivery,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listWebhooks,
  putDelivery,
  putWebhook,
  settleDelivery,
  type WebhookOwner,
} from './webhooks.js';
import { claimMailMark, getReminders, mailKey, putReminders, releaseMailMark } from './reminders.js';

export type { CommitActor, CommitEvent, CommitRecord, GameHead, GameRecord, GameStatus, StoredEvent } from './games.js';
export { HEAD_COMMITS, lastSeqOf, parseOutboxId } from './games.js';
export { eventsOf } from './events.js';
export type { PlayerRecord } from './players.js';
export type { NameClaim } from './accounts.js';
export type { RequestRecord } from './requests.js';
export type { ReminderRecord } from './reminders.js';
export type { DeliveryRecord, WebhookOwner, WebhookRecord } from './webhooks.js';
export type { RatedGameMarker, RatingHistoryRecord, RatingRecord, RatingValue } from './ratings.js';
export { APPLIED_KEPT } from './ratings.js';
export type { ChatRecord, ChatReport } from './chat.js';
export type { PlayedRecord, StatsRecord } from './profiles.js';
export { COUNTED_KEPT } from './profiles.js';
export { createPushStore, type PushStore, type PushStoreConfig, type Subscriber } from './connections.js';
export {
  checkSchema,
  createTable,
  INDEX_SHARDS,
  keys,
  GSI1,
  GSI2,
  GSI3,
  OldSchemaError,
  SCHEMA_VERSION,
  shardOf,
  tableDefinition,
  TTL_ATTRIBUTE,
} from './table.js';

export function createStore({ tableName, client }: { tableName: string; client: DynamoDBDocumentClient }) {
  const db: Db = { doc: client, table: tableName };
  return {
    tableName,
    insertGame: (r: Parameters<typeof insertGame>[1], first: Parameters<typeof insertGame>[2]) =>
      insertGame(db, r, first),
    loadGame: <D>(id: string) => loadGame<D>(db, id),
    appendCommit: (gameId: string, c: Parameters<typeof appendCommit>[2]) => appendCommit(db, gameId, c),
    saveSnapshot: (r: Parameters<typeof saveSnapshot>[1]) => saveSnapshot(db, r),
    listCommits: (gameId: string, from?: number, to?: number) => listCommits(db, gameId, from, to),
    /** Commits without their events and notices (replays, scenarios). */
    listRecipes: (gameId: string, from?: number, to?: number) => listCommits(db, gameId, from, to, Infinity, true),
    findRequestCommit: (gameId: string, afterSeq: number, request: string) =>
      findRequestCommit(db, gameId, afterSeq, request),
    getCommitId: (gameId: string, firstSeq: number) => getCommitId(db, gameId, firstSeq),
    getOutbox: <N>(gameId: string, firstSeq: number) => getOutbox<N>(db, gameId, firstSeq),
    clearOutbox: (gameId: string, firstSeq: number, cid: string) => clearOutbox(db, gameId, firstSeq, cid),
    getGames: <D>(ids: string[], consistent = true) => getGames<D>(db, ids, consistent),
    saveArchive: (gameId: string, value: unknown, at: string) => saveArchive(db, gameId, value, at),
    getArchive: <T>(gameId: string) => getArchive<T>(db, gameId),
    expireCommits: (gameId: string, firstSeqs: number[], expiresAt: number) =>
      expireCommits(db, gameId, firstSeqs, expiresAt),
    markArchived: (gameId: string, version: number) => markArchived(db, gameId, version),
    listGamesByStatus: (
      status: 'LOBBY' | 'ACTIVE' | 'FINISHED',
      limit: number,
      before?: string | null,
      oldestFirst = false,
    ) => listGamesByStatus(db, status, limit, before, oldestFirst),
    listDue: (kind: 'GAME' | 'LOG' | 'DELIVERY' | 'REMIND' | 'OUTBOX', now: Date, limit: number) =>
      listDue(db, kind, now.toISOString(), limit),
    listEvents: (gameId: string, after: number, limit: number) => listEvents(db, gameId, after, limit),
    insertPlayer: (p: Parameters<typeof insertPlayer>[1]) => insertPlayer(db, p),
    getPlayer: (id: string) => getPlayer(db, id),
    updatePlayer: (id: string, set: Parameters<typeof updatePlayer>[2], opts?: Parameters<typeof updatePlayer>[3]) =>
      updatePlayer(db, id, set, opts),
    rotateRefresh: (playerId: string, version: number, current: string | null, next: string) =>
      rotateRefresh(db, playerId, version, current, next),
    getIdentity: (issuer: string, subject: string) => getIdentity(db, issuer, subject),
    putIdentity: (issuer: string, subject: string, playerId: string, createdAt: string) =>
      putIdentity(db, issuer, subject, playerId, createdAt),
    claimName: (nameKey: string, playerId: string, claim: { now: number; expiresAt?: number }) =>
      claimName(db, nameKey, playerId, claim),
    renewName: (nameKey: string, playerId: string, expiresAt: number) => renewName(db, nameKey, playerId, expiresAt),
    releaseName: (nameKey: string, playerId: string) => releaseName(db, nameKey, playerId),
    getNameClaim: (nameKey: string) => getNameClaim(db, nameKey),
    /** Maintenance scans (the name claims migration): one page each, `cursor` null at the end. */
    scanNameClaims: (limit: number, cursor: string | null) => scanNameClaims(db, limit, cursor),
    scanPlayers: (limit: number, cursor: string | null) => scanPlayers(db, limit, cursor),
    setNameKey: (playerId: string, name: string, from: string | null, to: string) =>
      setNameKey(db, playerId, name, from, to),
    countOnPlayer: (playerId: string, counter: string, window: string, max: number) =>
      countOnPlayer(db, playerId, counter, window, max),
    /** A bounded set on the player item: adds `member` unless it has `max` members already (false). */
    addToPlayerSet: (playerId: string, set: string, member: string, max?: number) =>
      addToPlayerSet(db, playerId, set, member, max),
    removeFromPlayerSet: (playerId: string, set: string, member: string) =>
      removeFromPlayerSet(db, playerId, set, member),
    listPlayerSet: (playerId: string, set: string) => listPlayerSet(db, playerId, set),
    putMember: (gameId: string, playerId: string, gameCreatedAt: string) =>
      putMember(db, gameId, playerId, gameCreatedAt),
    deleteMember: (gameId: string, playerId: string) => deleteMember(db, gameId, playerId),
    listMemberGameIds: (playerId: string, limit: number) => listMemberGameIds(db, playerId, limit),
    listMemberGamesPage: (playerId: string, limit: number, before?: string | null) =>
      listMemberGamesPage(db, playerId, limit, before),
    getRequest: (gameId: string, scope: string, requestId: string) => getRequest(db, gameId, scope, requestId),
    claimRequest: (
      gameId: string,
      scope: string,
      requestId: string,
      rec: Parameters<typeof claimRequest>[4],
      now: Date,
    ) => claimRequest(db, gameId, scope, requestId, rec, now),
    getRating: (playerId: string, edition: string) => getRating(db, playerId, edition),
    getReminders: (playerId: string) => getReminders(db, playerId),
    putReminders: (rec: Parameters<typeof putReminders>[1], ifUpdatedAt?: string) => putReminders(db, rec, ifUpdatedAt),
    claimMailMark: (playerId: string, mark: string, now: Date, ttlDays: number) =>
      claimMailMark(db, playerId, mark, now, ttlDays),
    releaseMailMark: (playerId: string, mark: string) => releaseMailMark(db, playerId, mark),
    mailKey: () => mailKey(db),
    putRating: (rec: Parameters<typeof putRating>[1], prevV: number, gameId: string) =>
      putRating(db, rec, prevV, gameId),
    claimRatedGame: (m: Parameters<typeof claimRatedGame>[1]) => claimRatedGame(db, m),
    putRatingHistory: (playerId: string, edition: string, h: Parameters<typeof putRatingHistory>[3]) =>
      putRatingHistory(db, playerId, edition, h),
    listRatingHistory: (playerId: string, edition: string, limit: number, before?: string | null) =>
      listRatingHistory(db, playerId, edition, limit, before),
    listLeaderboard: (edition: string, limit: number, before?: string | null) =>
      listLeaderboard(db, edition, limit, before),
    deleteRating: (playerId: string, edition: string) => deleteRating(db, playerId, edition),
    deleteRatedGame: (gameId: string) => deleteRatedGame(db, gameId),
    getStats: (playerId: string, edition: string) => getStats(db, playerId, edition),
    putStats: (rec: Parameters<typeof putStats>[1], prevV: number, gameId: string) => putStats(db, rec, prevV, gameId),
    putPlayed: (playerId: string, p: Parameters<typeof putPlayed>[2]) => putPlayed(db, playerId, p),
    listPlayed: (playerId: string, limit: number, before?: string | null) => listPlayed(db, playerId, limit, before),
    lastChatSeq: (gameId: string) => lastChatSeq(db, gameId),
    putChat: (m: Parameters<typeof putChat>[1]) => putChat(db, m),
    listChat: (gameId: string, after: number, limit: number) => listChat(db, gameId, after, limit),
    getChat: (gameId: string, seq: number) => getChat(db, gameId, seq),
    hideChat: (gameId: string, seq: number, by: string) => hideChat(db, gameId, seq, by),
    reportChat: (
      gameId: string,
      seq: number,
      reporterId: string,
      report: Parameters<typeof reportChat>[4],
      max: number,
    ) => reportChat(db, gameId, seq, reporterId, report, max),
    listSilenced: (gameId: string) => listSilenced(db, gameId),
    setSilenced: (gameId: string, playerId: string, silenced: boolean, max: number) =>
      setSilenced(db, gameId, playerId, silenced, max),
    expireChat: (gameId: string, expiresAt: number) => expireChat(db, gameId, expiresAt),
    putWebhook: (w: Parameters<typeof putWebhook>[1]) => putWebhook(db, w),
    getWebhook: (owner: WebhookOwner, hookId: string) => getWebhook(db, owner, hookId),
    listWebhooks: (owner: WebhookOwner) => listWebhooks(db, owner),
    deleteWebhook: (owner: WebhookOwner, hookId: string) => deleteWebhook(db, owner, hookId),
    putDelivery: (d: Parameters<typeof putDelivery>[1]) => putDelivery(db, d),
    getDelivery: (id: string) => getDelivery(db, id),
    claimDelivery: (id: string, attempts: number, retryAt: Date | null) =>
      claimDelivery(db, id, attempts, retryAt ? retryAt.toISOString() : null),
    settleDelivery: (
      id: string,
      attempts: number,
      status: 'pending' | 'delivered' | 'failed',
      lastError: string | null,
    ) => settleDelivery(db, id, attempts, status, lastError),
  };
}

export type Store = ReturnType<typeof createStore>;

/** The local OpenID Provider's state (functions/local/oidc.ts's adapter), in the same table. */
export function createOidcStore({ tableName, client }: { tableName: string; client: DynamoDBDocumentClient }) {
  const db: Db = { doc: client, table: tableName };
  return {
    put: (model: string, id: string, payload: Record<string, unknown>, expiresIn: number) =>
      putOidc(db, model, id, payload, expiresIn),
    get: (model: string, id: string) => getOidc(db, model, id),
    getByUid: (uid: string) => getOidcByUid(db, uid),
    consume: (model: string, id: string) => consumeOidc(db, model, id),
    delete: (model: string, id: string) => deleteOidc(db, model, id),
    revokeGrant: (grantId: string) => revokeOidcGrant(db, grantId),
    revokeAccount: (accountId: string) => revokeOidcAccount(db, accountId),
  };
}

export type OidcStore = ReturnType<typeof createOidcStore>;
