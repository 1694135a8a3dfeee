// The type hub: `Services` (what every room is handed) and the interfaces it names. It imports
// types only, and only from modules that do not import it back (store, auth, keys, rate limits,
// live changes, doc), so no import circle closes through it; the rooms implement these
// interfaces (accounts.ts the player cache, notices.ts the queue, notify/fanout.ts the pusher),
// and the composition root (http/app.ts `buildApp`) puts them together.
import type { PlayerRecord, Store } from '../store/index.js';
import type { Verifier } from './accounts/auth.js';
import type { KeySource } from './accounts/keys.js';
import type { GameRec } from './doc.js';
import type { Limiters } from './http/ratelimit.js';
import type { GameChanges } from './play/changes.js';

/** Who made a change: recorded on every event and webhook body. */
export interface Actor {
  playerId: string | null;
  /** The OAuth client the request came through (the web app, an integrator site); null: a guest token or the service itself. */
  clientId: string | null;
}

export interface AuthConfig {
  issuer: string | null;
  clientId: string | null;
  scope: string;
  guests: boolean;
}

/** Player records seen recently by this instance (accounts/accounts.ts `createPlayerCache`). */
export interface PlayerCache {
  get(services: Services, playerId: string): Promise<PlayerRecord | null>;
  identity(services: Services, issuer: string, subject: string): Promise<string | null>;
  forget(playerId: string): void;
  /** Registers what ends a player's open connections in this process (the local sockets, the local provider's grants). */
  onSessionsEnd(listener: (rec: PlayerRecord) => Promise<void> | void): void;
  /** Runs those listeners (revokeTokens, a reused refresh token). */
  endSessions(rec: PlayerRecord): Promise<void>;
}

export interface WebhookConfig {
  /** How long one attempt may take (the notice worker waits at most this long; moves never wait). */
  timeoutMs: number;
  /** Allow localhost and private addresses (the local server and tests; never on AWS). */
  allowPrivateHosts: boolean;
  /** Resolves a host name to its addresses (default: the system resolver; tests inject one). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** What a notice says (notify/webhooks.ts posts it); the body adds `deliveryId`, `attempt` and `sentAt`. */
export interface Notice {
  playerId: string;
  gameId: string;
  kind: 'yourTurn' | 'gameEnded' | 'seatReplaced';
  /** yourTurn, gameEnded: the recipient's seat; seatReplaced: the seat a bot took over. */
  seat: number;
  version: number;
  /** Who caused the change: the player and OAuth client of the request that committed it (absent: the service). */
  actor?: { playerId: string | null; clientId: string | null };
}

/** A message of the notice queue (notify/notices.ts handles it). */
export type NoticeMessage =
  | {
      type: 'notices';
      gameId: string;
      firstSeq: number;
      cid: string;
      notices: Notice[];
      /** The sender wrote that commit before handing it (play/commit.ts): the worker need not look for it. */
      written?: true;
    }
  | { type: 'retry'; deliveryId: string }
  /** A commit made this version of the game: fan it out to its push subscribers (notify/fanout.ts). */
  | { type: 'push'; gameId: string; version: number }
  /** A chat message was posted or hidden: push it to the game's subscribers (notify/fanout.ts). */
  | { type: 'chat'; gameId: string; seq: number };

export interface NoticeQueue {
  /** Sends messages (delivered after `delaySeconds`, at most 900). Resolves once they are durable (SQS) or queued (local). */
  send(messages: NoticeMessage[], delaySeconds?: number): Promise<void>;
}

/** The push fan-out (notify/fanout.ts). */
export interface Pusher {
  /**
   * A commit made `version` of the game: schedules its fan-out and resolves once it is handed
   * off (in process: at once; the queue: once SQS took it, at most QUEUE_HANDOFF_MS). Never
   * throws, never waits for a subscriber.
   */
  gameChanged(gameId: string, version: number, status: string, rec?: GameRec): Promise<void>;
  /** The notice worker's job for a queued push (AWS): fans out the game's latest version. */
  deliver(gameId: string, version: number): Promise<void>;
  /** Closes every push connection of a player (its session ended), whichever instance holds it. */
  endSessions(playerId: string): Promise<void>;
  /**
   * Chat message `seq` of the game was posted or hidden: pushes it to the game's subscribers
   * who may see it (notify/fanout.ts). Never throws, never waits for a subscriber.
   */
  chatChanged?(gameId: string, seq: number): Promise<void>;
  /** The notice worker's job for a queued chat push (AWS). */
  deliverChat?(gameId: string, seq: number): Promise<void>;
}

/** A commit that was written (play/commit.ts), as its listeners are told. */
export interface Committed {
  /** The game before the commit; null for a new game's first commit. */
  before: GameRec | null;
  after: GameRec;
  /** Resolves once the game's snapshot is written (when this commit writes one; at once otherwise); never rejects. */
  saved: Promise<void>;
}

/** Told about every commit; may return a promise, which the commit awaits (so it must never reject). */
export type CommitListener = (c: Committed) => void | Promise<void>;

/**
 * What the composition root hooks onto every commit: play/commit.ts calls these and imports
 * none of the rooms behind them (the lobby cache, live subscriptions, push, notices).
 */
export interface CommitHooks {
  /** The notices a commit records in its own item (notify/notify.ts `noticesOf`), before it is written. */
  noticesOf(before: GameRec, after: GameRec): Notice[];
  /** Told, in order, once a commit is written (its snapshot may still be on its way: `saved`). */
  listeners: CommitListener[];
}

/** One e-mail as the service writes it (notify/reminders.ts); a Mailer delivers it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers: Record<string, string>;
}

/** Sends e-mail: Amazon SES on AWS (handlers/ses.ts), SMTP to the local server's mail catcher (local/mail.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** E-mail reminders: where links point and, where mail is sent from (the sweep), how. */
export interface MailSetup {
  /** The API's public address: links to /unsubscribe and /reminders/confirm. */
  apiUrl: string;
  /** The web app's address: links to games (`<webUrl>#/game/<id>`). */
  webUrl: string;
  /** The transport; absent where this function sends nothing (the API only stores settings and follows links). */
  mailer?: Mailer;
}

export interface Services {
  store: Store;
  /** The service's own signing keys (guest and site-user sessions). */
  keys: KeySource;
  verifier: Verifier;
  players: PlayerCache;
  now: () => Date;
  webhooks: WebhookConfig;
  changes: GameChanges;
  /** Push fan-out ("game X is at version V") when a push gateway is configured. */
  push?: Pusher;
  /** Where commits hand what they must tell (an in-process worker locally, SQS on AWS). */
  notices: NoticeQueue;
  /** What every commit tells, registered by the composition root (http/app.ts). */
  onCommit: CommitHooks;
  /** What Query.authConfig answers (how the web app signs in). */
  authConfig: AuthConfig;
  /** Set on the per-request copy of the services: who is acting (null for the sweep). */
  actor?: Actor | null;
  /** Per-instance rate limits (ratelimit.ts). */
  limiters: Limiters;
  /**
   * A commit starts from the head this process wrote last for that game (play/commit.ts), not
   * from a read: for a process that is (nearly always) the game's only writer, as the local server.
   */
  rememberHeads?: boolean;
  /** E-mail reminders; absent: this deployment sends no e-mail (setReminders answers MAIL_UNAVAILABLE). */
  mail?: MailSetup;
}
