// The store's ports: one small interface per capability. Each has a DynamoDB adapter
// (dynamo/, the single table of docs/storage.md) and an in-memory twin (memory/), and both pass
// the one contract suite in test/store/contract/. The API is handed a `Store` (one object per
// port) by its composition root (functions/api/http/core.ts); each room uses only the ports it
// needs: the commit loop (functions/api/play/commit.ts) only the GameLog.
// No rules here: a port stores and finds records, with the conditional writes that make every
// step of the commit protocol safe without transactions (docs/storage.md).
import type {
  ChatRecord,
  ChatReport,
  CommitRecord,
  DeliveryRecord,
  GameHead,
  GameRecord,
  NameClaim,
  OidcEntry,
  PlayedRecord,
  PlayerRecord,
  RatedGameMarker,
  RatingHistoryRecord,
  RatingRecord,
  ReminderRecord,
  RequestRecord,
  StatsRecord,
  StoredEvent,
  Subscriber,
  WebhookOwner,
  WebhookRecord,
} from './records.js';

/** What `listDue` finds: games with a deadline, finished logs to archive, deliveries to retry, reminders, outboxes. */
export type DueKind = 'GAME' | 'LOG' | 'DELIVERY' | 'REMIND' | 'OUTBOX';

/** The games' log and snapshots: the commit protocol's whole surface (play/commit.ts uses this port alone). */
export interface GameLog {
  /** Writes a new game's first commit and snapshot; false when the id is taken. */
  insertGame(r: GameRecord, first: CommitRecord): Promise<boolean>;
  /** The snapshot and the commits past it (one read); null: no such game. */
  loadGame<D>(id: string): Promise<GameHead<D> | null>;
  /** Writes commit `c` if no commit has its first seq yet; false: another writer won the race. */
  appendCommit(gameId: string, c: CommitRecord): Promise<boolean>;
  /** Writes the snapshot if it is newer than the stored one; false: a newer one is there. */
  saveSnapshot(r: GameRecord): Promise<boolean>;
  /** Commits with first seq in [from, to], oldest first. */
  listCommits(gameId: string, from?: number, to?: number): Promise<CommitRecord[]>;
  /** The same commits without their events and notices (replays, scenarios). */
  listRecipes(gameId: string, from?: number, to?: number): Promise<CommitRecord[]>;
  /** The commit that applied `request` (`<scope>#<id>`) after seq `afterSeq`, or null. */
  findRequestCommit(gameId: string, afterSeq: number, request: string): Promise<CommitRecord | null>;
  /** Several games' heads (missing ids left out); `consistent` false allows a stale read. */
  getGames<D>(ids: string[], consistent?: boolean): Promise<GameHead<D>[]>;
  /** Listed games of a status, newest first (oldest first on request), paged by `before`. */
  listGamesByStatus(
    status: 'LOBBY' | 'ACTIVE' | 'FINISHED',
    limit: number,
    before?: string | null,
    oldestFirst?: boolean,
  ): Promise<{ ids: string[]; cursor: string | null; createdAt: string[] }>;
  /** Events with seq > after, oldest first, at most `limit`. */
  listEvents(gameId: string, after: number, limit: number): Promise<{ events: StoredEvent[]; hasMore: boolean }>;
  /** An idempotency record, or null. */
  getRequest(gameId: string, scope: string, requestId: string): Promise<RequestRecord | null>;
  /** Claims a request id once; false: claimed before (a retry). */
  claimRequest(gameId: string, scope: string, requestId: string, rec: RequestRecord, now: Date): Promise<boolean>;
  /** A finished game's archived log, or null. */
  getArchive<T>(gameId: string): Promise<T | null>;
}

/** The sweep, retention, the outbox and maintenance scans: work on records other ports write. */
export interface Operations {
  /** Ids of the records of `kind` due at or before `now` (oldest first), at most `limit`. */
  listDue(kind: DueKind, now: Date, limit: number): Promise<string[]>;
  /** The `cid` of the commit at `firstSeq`, or null when there is none. */
  getCommitId(gameId: string, firstSeq: number): Promise<string | null>;
  /** A commit's undelivered notices, or null (no commit, or its outbox is empty). */
  getOutbox<N>(gameId: string, firstSeq: number): Promise<{ cid: string; notices: N[] } | null>;
  /** Empties a commit's outbox if it is still commit `cid`'s. */
  clearOutbox(gameId: string, firstSeq: number, cid: string): Promise<boolean>;
  saveArchive(gameId: string, value: unknown, at: string): Promise<void>;
  /** Marks commits to expire at `expiresAt` (epoch seconds). */
  expireCommits(gameId: string, firstSeqs: number[], expiresAt: number): Promise<void>;
  /** Takes an archived game off the due index (if still at `version`). */
  markArchived(gameId: string, version: number): Promise<boolean>;
  /** Marks a game's chat to expire; answers how many messages. */
  expireChat(gameId: string, expiresAt: number): Promise<number>;
  /** One page of every name claim (maintenance). */
  scanNameClaims(limit: number, cursor: string | null): Promise<{ claims: NameClaim[]; cursor: string | null }>;
  /** One page of every player (maintenance). */
  scanPlayers(limit: number, cursor: string | null): Promise<{ players: PlayerRecord[]; cursor: string | null }>;
  /** Sets a player's name key if the name and the old key are still as read. */
  setNameKey(playerId: string, name: string, from: string | null, to: string): Promise<boolean>;
}

/** Players, their identities at providers, their unique names, counters and small sets. */
export interface Players {
  insertPlayer(p: PlayerRecord): Promise<boolean>;
  getPlayer(id: string): Promise<PlayerRecord | null>;
  updatePlayer(
    id: string,
    set: Partial<Pick<PlayerRecord, 'name' | 'kind' | 'issuer' | 'subject' | 'nameKey' | 'revokedAt'>>,
    opts?: { bumpTokenVersion?: boolean },
  ): Promise<PlayerRecord | null>;
  rotateRefresh(
    playerId: string,
    version: number,
    current: string | null,
    next: string,
  ): Promise<'ok' | 'revoked' | 'reused' | 'unknown'>;
  getIdentity(issuer: string, subject: string): Promise<string | null>;
  putIdentity(issuer: string, subject: string, playerId: string, createdAt: string): Promise<boolean>;
  claimName(nameKey: string, playerId: string, claim: { now: number; expiresAt?: number }): Promise<boolean>;
  renewName(nameKey: string, playerId: string, expiresAt: number): Promise<boolean>;
  releaseName(nameKey: string, playerId: string): Promise<boolean>;
  getNameClaim(nameKey: string): Promise<NameClaim | null>;
  /** Counts one in `counter` for `window`; false when `max` were counted already. */
  countOnPlayer(playerId: string, counter: string, window: string, max: number): Promise<boolean>;
  /** A bounded set on the player: adds `member` unless it has `max` members already (false). */
  addToPlayerSet(playerId: string, set: string, member: string, max?: number): Promise<boolean>;
  removeFromPlayerSet(playerId: string, set: string, member: string): Promise<void>;
  listPlayerSet(playerId: string, set: string): Promise<string[]>;
}

/** Who sits in which game: the player -> games index (written before the seat, deleted after). */
export interface Members {
  putMember(gameId: string, playerId: string, gameCreatedAt: string): Promise<void>;
  deleteMember(gameId: string, playerId: string): Promise<void>;
  /** Newest first. */
  listMemberGameIds(playerId: string, limit: number): Promise<string[]>;
  listMemberGamesPage(
    playerId: string,
    limit: number,
    before?: string | null,
  ): Promise<{ ids: string[]; cursor: string | null }>;
}

/** A game's chat: messages, hiding, reports, silenced players. */
export interface Chat {
  lastChatSeq(gameId: string): Promise<number>;
  /** Writes message `m.seq` if that seq is free; false: taken. */
  putChat(m: ChatRecord): Promise<boolean>;
  listChat(gameId: string, after: number, limit: number): Promise<{ items: ChatRecord[]; hasMore: boolean }>;
  getChat(gameId: string, seq: number): Promise<ChatRecord | null>;
  hideChat(gameId: string, seq: number, by: string): Promise<boolean>;
  reportChat(
    gameId: string,
    seq: number,
    reporterId: string,
    report: ChatReport,
    max: number,
  ): Promise<'ok' | 'already' | 'full' | 'missing'>;
  listSilenced(gameId: string): Promise<string[]>;
  setSilenced(gameId: string, playerId: string, silenced: boolean, max: number): Promise<boolean>;
}

/** Ratings, their history and leaderboards, and profile statistics. */
export interface Community {
  getRating(playerId: string, edition: string): Promise<RatingRecord | null>;
  /** Writes the rating if its version is still `prevV`. */
  putRating(rec: RatingRecord, prevV: number, gameId: string): Promise<boolean>;
  /** Claims the game's rating once; answers the marker that holds. */
  claimRatedGame(m: RatedGameMarker): Promise<RatedGameMarker>;
  putRatingHistory(playerId: string, edition: string, h: RatingHistoryRecord): Promise<void>;
  listRatingHistory(
    playerId: string,
    edition: string,
    limit: number,
    before?: string | null,
  ): Promise<{ items: RatingHistoryRecord[]; cursor: string | null }>;
  listLeaderboard(
    edition: string,
    limit: number,
    before?: string | null,
  ): Promise<{ items: RatingRecord[]; cursor: string | null }>;
  deleteRating(playerId: string, edition: string): Promise<void>;
  deleteRatedGame(gameId: string): Promise<void>;
  getStats(playerId: string, edition: string): Promise<StatsRecord | null>;
  putStats(rec: StatsRecord, prevV: number, gameId: string): Promise<boolean>;
  putPlayed(playerId: string, p: PlayedRecord): Promise<void>;
  listPlayed(
    playerId: string,
    limit: number,
    before?: string | null,
  ): Promise<{ items: PlayedRecord[]; cursor: string | null }>;
}

/** What tells players: webhooks and their deliveries, e-mail reminder settings and marks. */
export interface Notify {
  putWebhook(w: WebhookRecord): Promise<boolean>;
  getWebhook(owner: WebhookOwner, hookId: string): Promise<WebhookRecord | null>;
  listWebhooks(owner: WebhookOwner): Promise<WebhookRecord[]>;
  deleteWebhook(owner: WebhookOwner, hookId: string): Promise<boolean>;
  putDelivery(d: DeliveryRecord): Promise<boolean>;
  getDelivery(id: string): Promise<DeliveryRecord | null>;
  /** Takes attempt `attempts` of a delivery (next one due at `retryAt`); false: taken already. */
  claimDelivery(id: string, attempts: number, retryAt: Date | null): Promise<boolean>;
  settleDelivery(
    id: string,
    attempts: number,
    status: DeliveryRecord['status'],
    lastError: string | null,
  ): Promise<void>;
  getReminders(playerId: string): Promise<ReminderRecord | null>;
  putReminders(rec: ReminderRecord, ifUpdatedAt?: string): Promise<boolean>;
  claimMailMark(playerId: string, mark: string, now: Date, ttlDays: number): Promise<boolean>;
  releaseMailMark(playerId: string, mark: string): Promise<void>;
  /** The key that signs mail links (made once per table). */
  mailKey(): Promise<string>;
}

/** Every port, as the composition root hands them to the API. */
export interface Store {
  /** The table's name (DynamoDB) or a label (in memory), for logs. */
  tableName: string;
  log: GameLog;
  ops: Operations;
  players: Players;
  members: Members;
  chat: Chat;
  community: Community;
  notify: Notify;
}

/** Push connections and subscriptions (the WebSocket fan-out's port). */
export interface PushStore {
  /** Records a signed-in player's connection (found again by `connectionsOf`). */
  connect(connectionId: string, playerId: string, now: Date): Promise<void>;
  /** The open connections of a player (closed at sign-out). */
  connectionsOf(playerId: string): Promise<string[]>;
  /** Records the subscription; false when the connection already has `maxSubscriptions` games. */
  subscribe(connectionId: string, gameId: string, playerId: string | null, now: Date): Promise<boolean>;
  unsubscribe(connectionId: string, gameId: string): Promise<void>;
  /** Forgets the connection and all its subscriptions ($disconnect). */
  disconnect(connectionId: string): Promise<void>;
  /** The connections subscribed to a game, with the player of each (null: a spectator). */
  subscribers(gameId: string): Promise<Subscriber[]>;
  /** Removes one subscription of a connection found gone. */
  forget(gameId: string, connectionId: string): Promise<void>;
}

/** The local OpenID Provider's state (functions/local/oidc.ts's adapter). */
export interface OidcStore {
  put(model: string, id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void>;
  get(model: string, id: string): Promise<OidcEntry | null>;
  getByUid(uid: string): Promise<OidcEntry | null>;
  consume(model: string, id: string): Promise<void>;
  delete(model: string, id: string): Promise<void>;
  revokeGrant(grantId: string): Promise<void>;
  revokeAccount(accountId: string): Promise<void>;
}
