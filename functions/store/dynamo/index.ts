// The DynamoDB adapter of every port (ports.ts): the single table of docs/storage.md, every
// write one conditional single-item write. Each port is a thin object over this folder's modules.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Chat, Community, GameLog, Members, Notify, OidcStore, Operations, Players, Store } from '../ports.js';
import * as accounts from './accounts.js';
import * as chat from './chat.js';
import type { Db } from './db.js';
import { listEvents } from './events.js';
import * as games from './games.js';
import * as oidc from './oidc.js';
import * as players from './players.js';
import * as profiles from './profiles.js';
import * as ratings from './ratings.js';
import * as reminders from './reminders.js';
import * as requests from './requests.js';
import * as webhooks from './webhooks.js';

export interface DynamoConfig {
  tableName: string;
  client: DynamoDBDocumentClient;
}

function gameLog(db: Db): GameLog {
  return {
    insertGame: (r, first) => games.insertGame(db, r, first),
    loadGame: (id) => games.loadGame(db, id),
    appendCommit: (gameId, c) => games.appendCommit(db, gameId, c),
    saveSnapshot: (r) => games.saveSnapshot(db, r),
    listCommits: (gameId, from, to) => games.listCommits(db, gameId, from, to),
    listRecipes: (gameId, from, to) => games.listCommits(db, gameId, from, to, Infinity, true),
    findRequestCommit: (gameId, afterSeq, request) => games.findRequestCommit(db, gameId, afterSeq, request),
    getGames: (ids, consistent = true) => games.getGames(db, ids, consistent),
    listGamesByStatus: (status, limit, before, oldestFirst = false) =>
      games.listGamesByStatus(db, status, limit, before, oldestFirst),
    listEvents: (gameId, after, limit) => listEvents(db, gameId, after, limit),
    getRequest: (gameId, scope, requestId) => requests.getRequest(db, gameId, scope, requestId),
    claimRequest: (gameId, scope, requestId, rec, now) => requests.claimRequest(db, gameId, scope, requestId, rec, now),
    getArchive: (gameId) => games.getArchive(db, gameId),
  };
}

function operations(db: Db): Operations {
  return {
    listDue: (kind, now, limit) => games.listDue(db, kind, now.toISOString(), limit),
    getCommitId: (gameId, firstSeq) => games.getCommitId(db, gameId, firstSeq),
    getOutbox: (gameId, firstSeq) => games.getOutbox(db, gameId, firstSeq),
    clearOutbox: (gameId, firstSeq, cid) => games.clearOutbox(db, gameId, firstSeq, cid),
    saveArchive: (gameId, value, at) => games.saveArchive(db, gameId, value, at),
    expireCommits: (gameId, firstSeqs, expiresAt) => games.expireCommits(db, gameId, firstSeqs, expiresAt),
    markArchived: (gameId, version) => games.markArchived(db, gameId, version),
    expireChat: (gameId, expiresAt) => chat.expireChat(db, gameId, expiresAt),
    scanNameClaims: (limit, cursor) => accounts.scanNameClaims(db, limit, cursor),
    scanPlayers: (limit, cursor) => players.scanPlayers(db, limit, cursor),
    setNameKey: (playerId, name, from, to) => players.setNameKey(db, playerId, name, from, to),
  };
}

function playerStore(db: Db): Players {
  return {
    insertPlayer: (p) => players.insertPlayer(db, p),
    getPlayer: (id) => players.getPlayer(db, id),
    updatePlayer: (id, set, opts) => players.updatePlayer(db, id, set, opts),
    rotateRefresh: (playerId, version, current, next) => players.rotateRefresh(db, playerId, version, current, next),
    getIdentity: (issuer, subject) => accounts.getIdentity(db, issuer, subject),
    putIdentity: (issuer, subject, playerId, createdAt) =>
      accounts.putIdentity(db, issuer, subject, playerId, createdAt),
    claimName: (nameKey, playerId, claim) => accounts.claimName(db, nameKey, playerId, claim),
    renewName: (nameKey, playerId, expiresAt) => accounts.renewName(db, nameKey, playerId, expiresAt),
    releaseName: (nameKey, playerId) => accounts.releaseName(db, nameKey, playerId),
    getNameClaim: (nameKey) => accounts.getNameClaim(db, nameKey),
    countOnPlayer: (playerId, counter, window, max) => players.countOnPlayer(db, playerId, counter, window, max),
    addToPlayerSet: (playerId, set, member, max) => players.addToPlayerSet(db, playerId, set, member, max),
    removeFromPlayerSet: (playerId, set, member) => players.removeFromPlayerSet(db, playerId, set, member),
    listPlayerSet: (playerId, set) => players.listPlayerSet(db, playerId, set),
  };
}

function members(db: Db): Members {
  return {
    putMember: (gameId, playerId, gameCreatedAt) => players.putMember(db, gameId, playerId, gameCreatedAt),
    deleteMember: (gameId, playerId) => players.deleteMember(db, gameId, playerId),
    listMemberGameIds: (playerId, limit) => players.listMemberGameIds(db, playerId, limit),
    listMemberGamesPage: (playerId, limit, before) => players.listMemberGamesPage(db, playerId, limit, before),
  };
}

function chatStore(db: Db): Chat {
  return {
    lastChatSeq: (gameId) => chat.lastChatSeq(db, gameId),
    putChat: (m) => chat.putChat(db, m),
    listChat: (gameId, after, limit) => chat.listChat(db, gameId, after, limit),
    getChat: (gameId, seq) => chat.getChat(db, gameId, seq),
    hideChat: (gameId, seq, by) => chat.hideChat(db, gameId, seq, by),
    reportChat: (gameId, seq, reporterId, report, max) => chat.reportChat(db, gameId, seq, reporterId, report, max),
    listSilenced: (gameId) => chat.listSilenced(db, gameId),
    setSilenced: (gameId, playerId, silenced, max) => chat.setSilenced(db, gameId, playerId, silenced, max),
  };
}

function community(db: Db): Community {
  return {
    getRating: (playerId, edition) => ratings.getRating(db, playerId, edition),
    putRating: (rec, prevV, gameId) => ratings.putRating(db, rec, prevV, gameId),
    claimRatedGame: (m) => ratings.claimRatedGame(db, m),
    putRatingHistory: (playerId, edition, h) => ratings.putRatingHistory(db, playerId, edition, h),
    listRatingHistory: (playerId, edition, limit, before) =>
      ratings.listRatingHistory(db, playerId, edition, limit, before),
    listLeaderboard: (edition, limit, before) => ratings.listLeaderboard(db, edition, limit, before),
    deleteRating: (playerId, edition) => ratings.deleteRating(db, playerId, edition),
    deleteRatedGame: (gameId) => ratings.deleteRatedGame(db, gameId),
    getStats: (playerId, edition) => profiles.getStats(db, playerId, edition),
    putStats: (rec, prevV, gameId) => profiles.putStats(db, rec, prevV, gameId),
    putPlayed: (playerId, p) => profiles.putPlayed(db, playerId, p),
    listPlayed: (playerId, limit, before) => profiles.listPlayed(db, playerId, limit, before),
  };
}

function notify(db: Db): Notify {
  return {
    putWebhook: (w) => webhooks.putWebhook(db, w),
    getWebhook: (owner, hookId) => webhooks.getWebhook(db, owner, hookId),
    listWebhooks: (owner) => webhooks.listWebhooks(db, owner),
    deleteWebhook: (owner, hookId) => webhooks.deleteWebhook(db, owner, hookId),
    putDelivery: (d) => webhooks.putDelivery(db, d),
    getDelivery: (id) => webhooks.getDelivery(db, id),
    claimDelivery: (id, attempts, retryAt) =>
      webhooks.claimDelivery(db, id, attempts, retryAt ? retryAt.toISOString() : null),
    settleDelivery: (id, attempts, status, lastError) => webhooks.settleDelivery(db, id, attempts, status, lastError),
    getReminders: (playerId) => reminders.getReminders(db, playerId),
    putReminders: (rec, ifUpdatedAt) => reminders.putReminders(db, rec, ifUpdatedAt),
    claimMailMark: (playerId, mark, now, ttlDays) => reminders.claimMailMark(db, playerId, mark, now, ttlDays),
    releaseMailMark: (playerId, mark) => reminders.releaseMailMark(db, playerId, mark),
    mailKey: () => reminders.mailKey(db),
  };
}

/** Every port on one DynamoDB table. */
export function createDynamoStore({ tableName, client }: DynamoConfig): Store {
  const db: Db = { doc: client, table: tableName };
  return {
    tableName,
    log: gameLog(db),
    ops: operations(db),
    players: playerStore(db),
    members: members(db),
    chat: chatStore(db),
    community: community(db),
    notify: notify(db),
  };
}

/** The local OpenID Provider's state, in the same table. */
export function createDynamoOidcStore({ tableName, client }: DynamoConfig): OidcStore {
  const db: Db = { doc: client, table: tableName };
  return {
    put: (model, id, payload, expiresIn) => oidc.putOidc(db, model, id, payload, expiresIn),
    get: (model, id) => oidc.getOidc(db, model, id),
    getByUid: (uid) => oidc.getOidcByUid(db, uid),
    consume: (model, id) => oidc.consumeOidc(db, model, id),
    delete: (model, id) => oidc.deleteOidc(db, model, id),
    revokeGrant: (grantId) => oidc.revokeOidcGrant(db, grantId),
    revokeAccount: (accountId) => oidc.revokeOidcAccount(db, accountId),
  };
}
