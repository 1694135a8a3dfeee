// A small hand-written client over the generated typed documents: auth through a pluggable
// token provider, retries that are safe (queries, and moves with a requestId), event paging,
// polling and subscribing. Runtime: global fetch (Node 18+, browsers); graphql-ws only for
// subscribe().
import {
  ActAsDocument,
  AuthConfigDocument,
  CharactersDocument,
  DeleteSiteWebhookDocument,
  DeleteWebhookDocument,
  GameVersionDocument,
  LeaveGameDocument,
  LinkGuestDocument,
  MeDocument,
  MyWebhooksDocument,
  RefreshSessionDocument,
  RegisterDocument,
  RegisterSiteWebhookDocument,
  RegisterWebhookDocument,
  RematchDocument,
  RenameDocument,
  ReplayDocument,
  RevokeTokensDocument,
  ScenarioDocument,
  SignOutDocument,
  SiteWebhooksDocument,
  AnswerPromptDocument,
  BoardsDocument,
  ChatDocument,
  ConcedeDocument,
  HideChatMessageDocument,
  MutePlayerDocument,
  PostChatMessageDocument,
  ReportChatMessageDocument,
  SilenceChatPlayerDocument,
  LeaderboardDocument,
  ProfileDocument,
  RatingDocument,
  RatingHistoryDocument,
  ReminderSettingsDocument,
  type ReminderSettingsInput,
  SetRemindersDocument,
  RemovePlayerDocument,
  CreateGameDocument,
  type CreateGameInput,
  EventsDocument,
  RateLimitDocument,
  type EventsQuery,
  GameDocument,
  type GamePartsFragment,
  GameUpdatedDocument,
  JoinGameDocument,
  MyGamesDocument,
  type MyGamesQuery,
  type GameStatus,
  OpenGamesDocument,
  type OpenGamesQuery,
  PlayCardDocument,
  SignUpDocument,
  StartGameDocument,
  type BotKind,
  type Edition,
  type TypedDocumentString,
} from './generated.js';
import { type Watch, watchGame, type WatchOptions } from './watch.js';

/**
 * The bearer token to send, asked before every request (so it can be refreshed); null: none.
 * A provider with `invalidate` (actingFor, guestSession, clientCredentials) is told when the
 * server refused its token as expired or revoked: the client then asks it again, once.
 */
export type TokenProvider = (() => string | null | undefined | Promise<string | null | undefined>) & {
  invalidate?: () => void;
};

/** What onRetry is told before each retry. */
export interface RetryInfo {
  /** The operation's name (e.g. `PlayCard`). */
  operation: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Why: the ApiRequestError (HTTP 429/5xx) or the network error. */
  error: unknown;
}

export type Game = GamePartsFragment;
export type GameEvent = EventsQuery['eventsPage']['events'][number];
export type OpenGame = OpenGamesQuery['openGamesPage']['games'][number];

export interface ClientOptions {
  /** The API's base URL, e.g. `http://localhost:4000` (GraphQL at `/graphql`). */
  url: string;
  /** A fixed token, or a function asked before each request (OIDC, client credentials...). */
  token?: string | TokenProvider;
  /** Attempts for a retryable failure (network error, HTTP 429/5xx), default 4. */
  attempts?: number;
  /** First retry delay in ms, doubled each time (HTTP 429: the server's Retry-After), default 200. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  /**
   * A WebSocket class for push (watchGame) and subscribe() where there is no global one: Node
   * 20 (Node 22+ and browsers have it). E.g. `(await import('ws')).default`, or `await loadWebSocket()`.
   */
  webSocketImpl?: unknown;
  /** Told before every retry (429, 5xx, network errors): log it, count it, or throw to stop retrying. */
  onRetry?: (info: RetryInfo) => void;
}

/** An answer with errors: `code` is the first error's `extensions.code` (see docs/api.md, "Errors"). */
export class ApiRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly errors: { message: string; extensions?: Record<string, unknown> }[],
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** Options of a move: the retry id (default: a new one, reused by the client's own retries) and the version the move was decided on. */
export interface MoveOptions {
  requestId?: string;
  /** The game's `version` the move was decided on: a move on an older view is refused (STALE), not applied. */
  ifVersion?: number;
}

/** Whether an error is the server's STALE answer to a conditional move (nothing was applied). */
export const isStale = (e: unknown): boolean => e instanceof ApiRequestError && e.code === 'STALE';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newRequestId = () => globalThis.crypto.randomUUID();
const operationName = (doc: unknown) => /(?:query|mutation|subscription)\s+(\w+)/.exec(String(doc))?.[1] ?? 'anonymous';

/** Whether a refusal means the token should be asked for again (expired, or revoked by revokeTokens). */
const tokenRefused = (e: unknown) =>
  e instanceof ApiRequestError &&
  e.code === 'UNAUTHENTICATED' &&
  ['expired', 'revoked'].includes(String(e.errors[0]?.extensions?.reason));

/**
 * The WebSocket class for push and subscriptions: the global one (browsers, Node 22+), else the
 * optional peer dependency `ws` (Node 20), else null (watchGame then polls).
 */
export async function loadWebSocket(): Promise<unknown> {
  const global = (globalThis as { WebSocket?: unknown }).WebSocket;
  if (global) return global;
  try {
    const name = 'ws'; // a variable: bundlers leave the optional peer alone
    return ((await import(name)) as { default: unknown }).default;
  } catch {
    return null;
  }
}

export class LibertaliaClient {
  private readonly endpoint: string;
  private token: TokenProvider;
  private readonly attempts: number;
  private readonly retryDelayMs: number;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.endpoint = `${options.url.replace(/\/+$/, '')}/graphql`;
    this.token = typeof options.token === 'function' ? options.token : () => options.token as string | undefined;
    this.attempts = options.attempts ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Replaces the token provider (signUp sets a fixed token). */
  setToken(token: string | TokenProvider | null): void {
    this.token = typeof token === 'function' ? token : () => token;
  }

  /**
   * Runs one typed operation. Retries network errors and HTTP 429/5xx answers when `retry` is
   * true (queries; mutations only with a requestId, which the server applies once).
   */
  async request<R, V>(document: TypedDocumentString<R, V>, variables: V, { retry = true } = {}): Promise<R> {
    try {
      return await this.send(document, variables, retry);
    } catch (e) {
      // A session ended (revokeTokens) or expired early: a provider that can renew gets one more go.
      if (!tokenRefused(e) || !this.token.invalidate) throw e;
      this.token.invalidate();
      return this.send(document, variables, retry);
    }
  }

  private async send<R, V>(document: TypedDocumentString<R, V>, variables: V, retry: boolean): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      let status = 0;
      let wait = this.retryDelayMs * 2 ** (attempt - 1);
      try {
        const token = await this.token();
        const res = await this.doFetch(this.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query: document.toString(), variables }),
        });
        status = res.status;
        const after = Number(res.headers.get('retry-after'));
        if (after > 0) wait = after * 1000;
        if (status === 429 || status >= 500) {
          const body = (await res.json().catch(() => null)) as { errors?: ApiRequestError['errors'] } | null;
          const errors = body?.errors ?? [{ message: `HTTP ${status}` }];
          throw new ApiRequestError(
            String(errors[0].extensions?.code ?? `HTTP_${status}`),
            errors[0].message,
            errors,
            status,
          );
        }
        const body = (await res.json()) as { data?: R; errors?: ApiRequestError['errors'] };
        if (body.errors?.length) {
          const code = String(body.errors[0].extensions?.code ?? 'UNKNOWN');
          throw new ApiRequestError(code, body.errors[0].message, body.errors, status);
        }
        return body.data as R;
      } catch (e) {
        const retryable = !(e instanceof ApiRequestError) || e.status === 429 || e.status >= 500;
        if (!retry || !retryable || attempt >= this.attempts) throw e;
        this.options.onRetry?.({ operation: operationName(document), attempt, delayMs: wait, error: e });
        await sleep(wait);
      }
    }
  }

  // ---- sessions and accounts (docs/accounts.md) ----

  /** Signs up a player and uses its token from now on (the server issues bearer tokens this way). */
  async signUp(name: string) {
    const { signUp } = await this.request(SignUpDocument, { name }, { retry: false });
    this.setToken(signUp.token);
    return signUp;
  }

  /** A new session for a refresh token (the old refresh token stops working: not retried). */
  async refreshSession(refreshToken: string) {
    return (await this.request(RefreshSessionDocument, { refreshToken }, { retry: false })).refreshSession;
  }

  /**
   * A site (client-credentials token) acts for one of its users: a session of that user's
   * player (see `actingFor` in auth.ts for a token provider that renews it). Safe to retry.
   */
  async actAs(user: string, name?: string | null) {
    return (await this.request(ActAsDocument, { user, name: name ?? null })).actAs;
  }

  /** Who the token speaks for (null without a token). */
  async me() {
    return (await this.request(MeDocument, {})).me;
  }

  /** A signed-in account without a player chooses its display name. */
  async register(name: string) {
    return (await this.request(RegisterDocument, { name }, { retry: false })).register;
  }

  /** A signed-in account takes over a guest player (proven by one of its tokens). */
  async linkGuest(guestToken: string, name?: string | null) {
    return (await this.request(LinkGuestDocument, { guestToken, name: name ?? null }, { retry: false })).linkGuest;
  }

  async rename(name: string) {
    return (await this.request(RenameDocument, { name })).rename;
  }

  /** Ends every session of the caller's player (the provider's `invalidate` gets a new one if it can). */
  async revokeTokens(): Promise<boolean> {
    return (await this.request(RevokeTokensDocument, {})).revokeTokens;
  }

  async signOut(): Promise<boolean> {
    return (await this.request(SignOutDocument, {})).signOut;
  }

  /** How to sign in (the OpenID Provider and the web app's client). */
  async authConfig() {
    return (await this.request(AuthConfigDocument, {})).authConfig;
  }

  // ---- lobby: retried safely (a retry never creates, joins or starts twice) ----

  /**
   * Creates a game; retried with one `requestId` (default: a new one), so a retry after a lost
   * answer returns the game the first attempt created.
   */
  async createGame(input: CreateGameInput): Promise<Game> {
    const withId = { ...input, requestId: input.requestId ?? newRequestId() };
    return (await this.request(CreateGameDocument, { input: withId })).createGame;
  }

  /** Takes a seat; a retry refused because the first attempt seated the caller answers the game. */
  async joinGame(gameId: string): Promise<Game> {
    return this.lobbyChange(
      gameId,
      async () => (await this.request(JoinGameDocument, { gameId }, { retry: false })).joinGame,
      (g) => g.me !== null && g.me !== undefined,
    );
  }

  /** Starts the game; a retry refused because the first attempt started it answers the game. */
  async startGame(gameId: string, opts: { fillWithBots?: boolean; botKind?: BotKind } = {}): Promise<Game> {
    return this.lobbyChange(
      gameId,
      async () => (await this.request(StartGameDocument, { gameId, ...opts }, { retry: false })).startGame,
      (g) => g.status !== 'LOBBY' && g.status !== 'CANCELLED',
    );
  }

  /**
   * A lobby change the server does not deduplicate, retried like a query: when a retry is
   * refused (CONFLICT, WRONG_PHASE) after an attempt whose answer was lost, the game is read
   * again and, if `applied` says the change is there, that is the answer.
   */
  private async lobbyChange(gameId: string, run: () => Promise<Game>, applied: (g: Game) => boolean): Promise<Game> {
    let lost = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (e) {
        const retryable = !(e instanceof ApiRequestError) || e.status === 429 || e.status >= 500;
        if (!retryable) {
          const now = lost ? await this.game(gameId) : null;
          if (now && applied(now)) return now;
          throw e;
        }
        if (attempt >= this.attempts) throw e;
        lost = true;
        const delayMs = this.retryDelayMs * 2 ** (attempt - 1);
        this.options.onRetry?.({ operation: 'lobby', attempt, delayMs, error: e });
        await sleep(delayMs);
      }
    }
  }

  /** Leaves a game before it starts. */
  async leaveGame(gameId: string): Promise<Game> {
    return (await this.request(LeaveGameDocument, { gameId }, { retry: false })).leaveGame;
  }

  /** A new lobby with the same seats after a finished game (asking again answers the same game: safe to retry). */
  async rematch(gameId: string): Promise<Game> {
    return (await this.request(RematchDocument, { gameId })).rematch;
  }

  async game(id: string): Promise<Game | null> {
    return (await this.request(GameDocument, { id })).game;
  }

  /** Every open game (all pages), newest first. */
  async *openGames(pageSize = 50): AsyncGenerator<OpenGame> {
    for (let after: string | null = null; ; ) {
      const page: OpenGamesQuery['openGamesPage'] = (await this.request(OpenGamesDocument, { first: pageSize, after }))
        .openGamesPage;
      yield* page.games;
      if (!page.pageInfo.hasNextPage) return;
      after = page.pageInfo.endCursor;
    }
  }

  /** Every game of the caller (all pages), newest first, optionally in one status. */
  async *myGames(status?: GameStatus, pageSize = 50): AsyncGenerator<Game> {
    for (let after: string | null = null; ; ) {
      const page: MyGamesQuery['myGamesPage'] = (
        await this.request(MyGamesDocument, { status, first: pageSize, after })
      ).myGamesPage;
      yield* page.games;
      if (!page.pageInfo.hasNextPage) return;
      after = page.pageInfo.endCursor;
    }
  }

  /** The creator frees a seated player's seat before the start (not retried: not idempotent). */
  async removePlayer(gameId: string, playerId: string): Promise<Game> {
    return (await this.request(RemovePlayerDocument, { gameId, playerId }, { retry: false })).removePlayer;
  }

  /** The board sides a new game of the edition can be created with. */
  async boards(edition: Edition) {
    return (await this.request(BoardsDocument, { edition })).boards;
  }

  /** The game's version and status only (cheap polling). */
  async gameVersion(id: string) {
    return (await this.request(GameVersionDocument, { id })).game;
  }

  /** The game as it was after event `at` (its `version` and `updatedAt` are those of `at`). */
  async replay(gameId: string, at: number): Promise<Game | null> {
    return (await this.request(ReplayDocument, { gameId, at })).replay;
  }

  /** A finished game's scenario (seed and moves: replays it anywhere). */
  async scenario(id: string) {
    return (await this.request(ScenarioDocument, { id })).game;
  }

  /** An edition's characters by rank, with their rules text. */
  async characters(edition: Edition) {
    return (await this.request(CharactersDocument, { edition })).characters;
  }

  // ---- webhooks (docs/webhooks.md; verify deliveries with verifyWebhook) ----

  /** A player's own webhook (all its games, or one). Registering the URL again answers the same registration. */
  async registerWebhook(url: string, gameId?: string | null) {
    return (await this.request(RegisterWebhookDocument, { url, gameId: gameId ?? null })).registerWebhook;
  }

  async deleteWebhook(id: string): Promise<boolean> {
    return (await this.request(DeleteWebhookDocument, { id })).deleteWebhook;
  }

  async myWebhooks() {
    return (await this.request(MyWebhooksDocument, {})).myWebhooks;
  }

  /** A site's webhook for every user it acts for (client-credentials token). Idempotent by URL. */
  async registerSiteWebhook(url: string) {
    return (await this.request(RegisterSiteWebhookDocument, { url })).registerSiteWebhook;
  }

  async deleteSiteWebhook(id: string): Promise<boolean> {
    return (await this.request(DeleteSiteWebhookDocument, { id })).deleteSiteWebhook;
  }

  async siteWebhooks() {
    return (await this.request(SiteWebhooksDocument, {})).siteWebhooks;
  }

  // ---- ratings (docs/ratings.md) ----

  /** One page of an edition's leaderboard, best first; pass the page's `pageInfo.endCursor` as `after`. */
  async leaderboard(edition: Edition, opts: { first?: number; after?: string | null } = {}) {
    return (await this.request(LeaderboardDocument, { edition, ...opts })).leaderboard;
  }

  /** A player's rating in an edition (null before a rated game). */
  async rating(playerId: string, edition: Edition) {
    return (await this.request(RatingDocument, { playerId, edition })).rating;
  }

  /** One page of a player's rated games, newest first. */
  async ratingHistory(playerId: string, edition: Edition, opts: { first?: number; after?: string | null } = {}) {
    return (await this.request(RatingHistoryDocument, { playerId, edition, ...opts })).ratingHistory;
  }

  // ---- e-mail turn reminders (accounts only; docs/correspondence.md) ----

  /** The caller's reminder settings (ACCOUNT_REQUIRED for guests and site users). */
  async reminderSettings() {
    return (await this.request(ReminderSettingsDocument, {})).reminderSettings;
  }

  /** Sets the caller's reminders; a new address gets a confirmation link before anything else. */
  async setReminders(input: ReminderSettingsInput) {
    return (await this.request(SetRemindersDocument, { input })).setReminders;
  }

  /** A player's profile (null: no such player); page its recent games with `recentGames.pageInfo.endCursor` as `after`. */
  async profile(playerId: string, opts: { first?: number; after?: string | null } = {}) {
    return (await this.request(ProfileDocument, { playerId, ...opts })).profile;
  }

  // ---- game chat (docs/community.md) ----

  /** One page of the game's chat, oldest first; poll (or page) with the page's `pageInfo.endCursor` as `after`. */
  async chat(gameId: string, opts: { first?: number; after?: string | null } = {}) {
    return (await this.request(ChatDocument, { gameId, ...opts })).chat;
  }

  /** Posts a message in the game's chat (retried with one requestId: posted once). */
  async postChatMessage(gameId: string, text: string, requestId = newRequestId()) {
    return (await this.request(PostChatMessageDocument, { gameId, text, requestId })).postChatMessage;
  }

  /** Mutes (or, with `muted` false, unmutes) a player for the caller; answers the muted players. */
  async mutePlayer(playerId: string, muted = true) {
    return (await this.request(MutePlayerDocument, { playerId, muted })).mutePlayer;
  }

  /** Reports a message to the game's moderator (once per message). */
  async reportChatMessage(gameId: string, messageId: string, reason?: string) {
    return (await this.request(ReportChatMessageDocument, { gameId, messageId, reason })).reportChatMessage;
  }

  /** Hides a message for everyone (the game's creator, or its site with a client token). */
  async hideChatMessage(gameId: string, messageId: string) {
    return (await this.request(HideChatMessageDocument, { gameId, messageId })).hideChatMessage;
  }

  /** Silences (or lets speak again) a player in the game's chat (its moderator). */
  async silenceChatPlayer(gameId: string, playerId: string, silenced = true) {
    return (await this.request(SilenceChatPlayerDocument, { gameId, playerId, silenced })).silenceChatPlayer;
  }

  // ---- moves: retried with one requestId, so a retry is applied once ----

  /**
   * Chooses the day's card. `options.ifVersion` (the `version` of the game the choice was made
   * on) makes it conditional: if the game moved on, nothing is applied and it throws an
   * ApiRequestError with code STALE (read the game again). A string is the requestId.
   */
  async playCard(gameId: string, rank: number, options: string | MoveOptions = {}): Promise<Game> {
    const { requestId = newRequestId(), ifVersion } = typeof options === 'string' ? { requestId: options } : options;
    return (await this.request(PlayCardDocument, { gameId, rank, requestId, ifVersion })).playCard;
  }

  /** Answers the caller's prompt; `options` as for playCard (conditional with `ifVersion`). */
  async answerPrompt(
    gameId: string,
    promptId: string,
    optionId: string,
    options: string | MoveOptions = {},
  ): Promise<Game> {
    const { requestId = newRequestId(), ifVersion } = typeof options === 'string' ? { requestId: options } : options;
    return (await this.request(AnswerPromptDocument, { gameId, promptId, optionId, requestId, ifVersion }))
      .answerPrompt;
  }

  /** Gives up the caller's seat: it ranks last and a bot plays it to the end (retried with one requestId). */
  async concede(gameId: string, requestId = newRequestId()): Promise<Game> {
    return (await this.request(ConcedeDocument, { gameId, requestId })).concede;
  }

  // ---- the event log ----

  /** One page of the log after the seq `after`, and the cursor to go on (or poll) with. */
  async eventsPage(gameId: string, after = 0, first = 100) {
    // The server's cursor is the seq as a string (Query.eventsPage); this API keeps it a number.
    const { eventsPage } = await this.request(EventsDocument, {
      gameId,
      after: after > 0 ? String(after) : null,
      first,
    });
    const end = eventsPage.pageInfo.endCursor;
    return {
      events: eventsPage.events,
      hasNextPage: eventsPage.pageInfo.hasNextPage,
      endCursor: end === null ? after : Number(end),
    };
  }

  /** The caller's rate-limit buckets now (the site's too, for a site user), tightest first. */
  async rateLimit() {
    return (await this.request(RateLimitDocument, {})).rateLimit;
  }

  /** Every event after `after`, page by page, until the log's current end. */
  async *events(gameId: string, after = 0): AsyncGenerator<GameEvent> {
    for (let cursor = after; ; ) {
      const page = await this.eventsPage(gameId, cursor);
      yield* page.events;
      cursor = page.endCursor;
      if (!page.hasNextPage) return;
    }
  }

  /**
   * Polls the log and yields new events as they come, forever or until `signal` aborts (the
   * way to follow a game on AWS, which has no WebSocket).
   */
  async *follow(
    gameId: string,
    { after = 0, intervalMs = 1000, signal }: { after?: number; intervalMs?: number; signal?: AbortSignal } = {},
  ): AsyncGenerator<GameEvent> {
    let cursor = after;
    while (!signal?.aborted) {
      const page = await this.eventsPage(gameId, cursor);
      yield* page.events;
      cursor = page.endCursor;
      if (!page.hasNextPage) await sleep(intervalMs);
    }
  }

  /**
   * The game as the caller sees it, now and after each change: by push where the server offers
   * it (AWS: `pushUrl` = the stack's PushUrl output; locally the default, /push on the API's
   * host), polling with back-off otherwise (src/watch.ts: 2 s on your turn or a bot's, 10 s
   * while others play, 60 s in correspondence games, doubling after errors up to 60 s).
   */
  watchGame(gameId: string, onGame: (game: Game) => void, options: WatchOptions = {}): Watch {
    return watchGame(this, this.options.url, async () => this.token(), gameId, onGame, {
      webSocketImpl: this.options.webSocketImpl,
      ...options,
    });
  }

  /**
   * The game as the caller sees it, now and after each change, over WebSocket (graphql-ws on
   * /graphql: the local server only; use watchGame for AWS). Returns a function that stops it.
   */
  async subscribe(
    gameId: string,
    onGame: (game: Game) => void,
    onError: (e: unknown) => void = () => {},
  ): Promise<() => Promise<void>> {
    // The optional peer, by a name bundlers leave alone (install graphql-ws to subscribe).
    const peer = 'graphql-ws';
    const { createClient } = (await import(peer)) as typeof import('graphql-ws');
    const token = await this.token();
    const client = createClient({
      url: this.endpoint.replace(/^http/, 'ws'),
      webSocketImpl: this.options.webSocketImpl ?? (await loadWebSocket()),
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    });
    const stop = client.subscribe<{ gameUpdated: Game }>(
      { query: GameUpdatedDocument.toString(), variables: { gameId } },
      { next: (r) => (r.data ? onGame(r.data.gameUpdated) : onError(r.errors)), error: onError, complete: () => {} },
    );
    return async () => {
      stop();
      await client.dispose();
    };
  }
}
