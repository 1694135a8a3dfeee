// The records the store keeps, as every adapter (DynamoDB, in memory) reads and writes them:
// part of the ports' contract (ports.ts), so they live apart from any adapter.

// ---- accounts ----

/** A name claim as stored: its key, its holder and, for a guest's, when it lapses (epoch seconds). */
export interface NameClaim {
  nameKey: string;
  playerId: string;
  expiresAt?: number;
}

// ---- chat ----

export interface ChatReport {
  reason: string;
  at: string;
}

export interface ChatRecord {
  gameId: string;
  seq: number;
  authorId: string;
  /** The author's display name when posting (already normalised by the accounts room). */
  authorName: string;
  body: string;
  at: string;
  /** `<authorId>#<requestId>` of the request that wrote it (a retry finds its message). */
  req?: string;
  hidden?: boolean;
  hiddenBy?: string;
  /** Reports by reporter id (one each), bounded by the API. */
  reports?: Record<string, ChatReport>;
  /** The TTL (epoch seconds) of a message posted once its game was over. */
  expiresAt?: number;
}

// ---- connections ----

export interface Subscriber {
  connectionId: string;
  playerId: string | null;
}

// ---- games ----

export type GameStatus = 'LOBBY' | 'ACTIVE' | 'FINISHED' | 'CANCELLED';

/** The snapshot: the game at `version` (a fold of commits 1..version). Bounded: no history. */
export interface GameRecord<D = unknown> {
  id: string;
  /** The number of commits folded in. */
  version: number;
  status: GameStatus;
  createdAt: string;
  updatedAt: string;
  doc: D;
  /** The seq of the newest event (0: none yet). */
  lastSeq: number;
  /** When the sweep has work on this game (e.g. the next deadline), or null: indexed in GSI3. */
  dueAt?: string | null;
  /** Kept out of the status index (GSI2), e.g. a full or private lobby. */
  unlisted?: boolean;
  /**
   * When the sweep should archive this game's log (the API sets it on games that are over):
   * indexed in GSI3 as due work of kind LOG while `dueAt` is not set. Cleared by `markArchived`.
   */
  archiveAt?: string | null;
}

/** One event of a commit as stored (its seq and time come from the commit). */
export interface CommitEvent {
  type: string;
  data: Record<string, unknown>;
  /** Seen only by `secret.seat`; the API filters it through the engine's viewEvent. */
  secret?: { seat: number; data: Record<string, unknown> };
}

/** Who caused a change: the player and the OAuth client of the request (absent: the service itself). */
export interface CommitActor {
  playerId: string | null;
  clientId: string | null;
}

/** An event with its place in the log (`seq`), its commit time (`at`) and its commit's actor. */
export interface StoredEvent extends CommitEvent {
  seq: number;
  at: string;
  actor?: CommitActor;
}

/** One commit: what it did (`body`, opaque), the events it produced and what must be told. */
export interface CommitRecord<B = unknown, N = unknown> {
  /** The version this commit makes (the previous one + 1). */
  version: number;
  /** The seq of its first event: its key. Every commit has at least one event. */
  firstSeq: number;
  at: string;
  /** The game's status after it. */
  status: GameStatus;
  events: CommitEvent[];
  /** How to replay it (the API's recipe; the store never looks inside). */
  body: B;
  /** Notices to deliver because of it (recorded with the commit: a crash loses none). */
  notices: N[];
  /** `<scope>#<requestId>` of the request it applied, if any. */
  request?: string;
  /** Who made it (every event of the commit names this actor). */
  actor?: CommitActor;
  /** A random id, on commits with notices: the notice worker delivers them only if it finds this commit. */
  cid?: string;
}

export const lastSeqOf = (c: CommitRecord) => c.firstSeq + c.events.length - 1;

/** A game as read: its snapshot (null only if a crash came before the first one) and the commits past it. */
export interface GameHead<D = unknown> {
  game: GameRecord<D> | null;
  /** Commits after the snapshot, oldest first. */
  tail: CommitRecord[];
}

/**
 * Commits read along with the snapshot in one query. Writers never leave a longer tail (the
 * API's SNAPSHOT_EVERY is HEAD_COMMITS + 1), so one query is enough unless a crash left more.
 */
export const HEAD_COMMITS = 3;

// ---- oidc ----

export interface OidcEntry {
  payload: Record<string, unknown>;
  consumed?: number;
}

// ---- players ----

export interface PlayerRecord {
  id: string;
  name: string;
  createdAt: string;
  /** guest (signUp), account (an OpenID Provider's user) or site (an integrator's user); absent on old items: guest. */
  kind?: 'guest' | 'account' | 'site';
  /** Bumped by revokeTokens: a token of ours carrying another version is refused. Absent: 0. */
  tokenVersion?: number;
  /** Epoch seconds of the last revokeTokens: provider tokens issued at or before it are refused. */
  revokedAt?: number;
  /** Accounts and site users: who vouches for the player (issuer, or `site:<clientId>`) and its subject. */
  issuer?: string;
  subject?: string;
  /** The comparison key of the name when the name is reserved (every player since names are unique; guests created before may lack it). */
  nameKey?: string;
  /** The id (`jti`) of the one refresh token of ours that may still be redeemed (rotation). */
  refreshJti?: string;
}

// ---- profiles ----

/** Game ids a stats item remembers as counted (the exactly-once guard; the newest kept). */
export const COUNTED_KEPT = 50;

export interface StatsRecord {
  playerId: string;
  edition: string;
  played: number;
  won: number;
  /** Games in which the player played each character, by rank (bounded by the edition's cards). */
  characters: Record<string, number>;
  /** The newest games counted, oldest first (at most COUNTED_KEPT). */
  counted: string[];
  v: number;
}

export interface PlayedRecord {
  gameId: string;
  edition: string;
  endedAt: string;
  place: number;
  players: number;
  conceded: boolean;
}

// ---- ratings ----

/** Game ids a rating item remembers as applied (the exactly-once guard; the newest kept). */
export const APPLIED_KEPT = 50;

export interface RatingValue {
  mu: number;
  sigma: number;
}

export interface RatingRecord extends RatingValue {
  playerId: string;
  edition: string;
  /** Rated games played and won (first place) in this edition. */
  games: number;
  wins: number;
  /** The newest rated games applied, oldest first (at most APPLIED_KEPT). */
  applied: string[];
  /** Bumped by every write: the optimistic-concurrency check. */
  v: number;
  updatedAt: string;
  /** The leaderboard's sort value (the ordinal, mu - 3 sigma). */
  ordinal: number;
}

/**
 * The leaderboard's sort key, and so its page cursor (the API checks its shape): a fixed-width,
 * ascending-sortable ordinal (ordinals stay within +-1000), so descending is best first; the
 * player id breaks ties and makes the key unique.
 */
export function leaderboardSortKey(ordinal: number, playerId: string): string {
  const scaled = Math.round((ordinal + 1000) * 1e6);
  return `${String(Math.max(0, Math.min(scaled, 9_999_999_999))).padStart(10, '0')}#${playerId}`;
}

export interface RatedGameMarker {
  gameId: string;
  edition: string;
  /** Player ids by seat and the final ranking (seats, best first). */
  players: string[];
  ranking: number[];
  /** Each seat's rating before the game (as read when the marker was claimed). */
  before: RatingValue[];
  endedAt: string;
}

export interface RatingHistoryRecord extends RatingValue {
  gameId: string;
  endedAt: string;
  place: number;
  players: number;
  ordinal: number;
}

// ---- reminders ----

export interface ReminderRecord {
  playerId: string;
  /** The address reminders go to; null: none set. */
  email: string | null;
  /** The address was confirmed by the link sent to it (only then does anything else go to it). */
  confirmed: boolean;
  /** Reminders on (an unsubscribe link turns them off). */
  enabled: boolean;
  /** Hours a turn waits before its reminder. */
  delayHours: number;
  dailyDigest: boolean;
  updatedAt: string;
  /** When the sweep should look at this player next; null: nothing to do (not in the index). */
  checkAt: string | null;
}

// ---- requests ----

export interface RequestRecord {
  /** The command itself: the same id with another command is refused. */
  fingerprint: string;
  /** The game's lastSeq when the request was first computed: its commit comes after it. */
  after: number;
}

// ---- webhooks ----

export interface WebhookRecord {
  id: string;
  /** The player whose notices it receives; null for a site-wide registration. */
  playerId: string | null;
  /** A site-wide registration: the integrator's OAuth client, whose users' notices it receives. */
  clientId?: string | null;
  url: string;
  /** Only this game's notices; null: every game of the player. */
  gameId: string | null;
  /** The HMAC key (returned to the player once, at registration). */
  secret: string;
  createdAt: string;
}

export interface DeliveryRecord {
  id: string;
  hookId: string;
  /** The player the notice is for (the recipient). */
  playerId: string;
  /** Set when the registration is a site's (its client); absent: the player's own. */
  clientId?: string;
  /** The exact JSON body to POST (signed at send time). */
  body: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  /** When the next attempt is due (pending only). */
  nextAt: string | null;
  lastError: string | null;
  createdAt: string;
}

/** Whose partition holds a registration: a player's, or (site-wide) an integrator client's. */
export type WebhookOwner = { playerId: string } | { clientId: string };

// ---- helpers every adapter shares ----

/** The events of commits, with their seqs and times. */
export function eventsOf(commits: CommitRecord[]): StoredEvent[] {
  return commits.flatMap((c) =>
    c.events.map((e, i) => ({ seq: c.firstSeq + i, at: c.at, ...e, ...(c.actor ? { actor: c.actor } : {}) })),
  );
}

export const outboxId = (gameId: string, firstSeq: number): string => `${gameId}#${firstSeq}`;

/** The game id and first seq of an outbox id. */
export function parseOutboxId(id: string): { gameId: string; firstSeq: number } {
  const at = id.lastIndexOf('#');
  return { gameId: id.slice(0, at), firstSeq: Number(id.slice(at + 1)) };
}
