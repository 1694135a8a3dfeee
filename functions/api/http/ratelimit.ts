// Per-instance rate limits: token buckets in memory, keyed by a principal (a player, an API
// client, or for anonymous calls an address). Cheap (no I/O), so they guard reads and every
// request's first steps; on AWS each Lambda instance keeps its own buckets, which is why the
// limits that must hold across instances are counters on the items the request writes anyway
// (game item: commands; player item: games created) and, per address, AWS WAF at the edge.
import type { Player } from '../accounts/auth.js';
import { ApiError } from '../errors.js';

export interface Rate {
  /** Tokens added per second (the sustained rate). */
  perSecond: number;
  /** Bucket size (the burst). */
  burst: number;
}

/** The per-instance limits (documented in docs/security.md, "Limits"). */
export const RATES = {
  /** Queries (and REST reads) per principal. */
  read: { perSecond: 5, burst: 20 },
  /** Mutations per principal (commands are also counted on the game item, see commandRate). */
  write: { perSecond: 10, burst: 30 },
  /** signUp per address. */
  signUp: { perSecond: 30 / 3600, burst: 30 },
  /** Introspection root fields (`__schema`, `__type`) per principal: each one is a whole schema walk. */
  introspection: { perSecond: 0.5, burst: 10 },
  /** Subscribe messages per WebSocket connection. */
  subscribe: { perSecond: 5, burst: 20 },
  /** WebSocket upgrades per address (local server), before the handshake. */
  upgrade: { perSecond: 5, burst: 20 },
} satisfies Record<string, Rate>;

/**
 * Limits kept on items the request writes anyway (so they hold across Lambda instances) and
 * per-game bounds (documented in docs/security.md, "Limits").
 */
export const BOUNDS = {
  /** LOBBY games a player created and that are still open (createGame: LIMIT_EXCEEDED). */
  openLobbiesPerPlayer: 5,
  /** LOBBY games a player joined (not created) and that have not started (joinGame: LIMIT_EXCEEDED). */
  joinedLobbiesPerPlayer: 10,
  /** Games a player creates per hour, counted on the player item (RATE_LIMITED). */
  gamesCreatedPerHour: 20,
  /** Commands (cards, answers, choice changes) per seat per minute, counted on the game item (RATE_LIMITED). */
  commandsPerSeatPerMinute: 60,
  /** Commands per game, counted on the game item (LIMIT_EXCEEDED): far above any real game. */
  commandsPerGame: 3000,
  /** A LOBBY unchanged this long is cancelled by the sweep. */
  lobbyExpiryDays: 14,
};

/** Buckets kept per limiter; the least recently used go first (memory stays bounded). */
const MAX_KEYS = 50_000;

export class Limiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly name: string,
    readonly rate: Rate,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Takes `n` tokens for `key` (all or none): 0 if allowed, else the milliseconds until they are available. */
  take(key: string, n = 1): number {
    if (this.rate.burst === Number.POSITIVE_INFINITY) return 0;
    const now = this.clock();
    const b = this.buckets.get(key);
    let tokens = this.rate.burst;
    if (b) {
      tokens = Math.min(this.rate.burst, b.tokens + ((now - b.at) / 1000) * this.rate.perSecond);
      this.buckets.delete(key); // re-inserted below: Map order is the LRU order
    } else if (this.buckets.size >= MAX_KEYS) {
      this.buckets.delete(this.buckets.keys().next().value!);
    }
    if (tokens < n) {
      this.buckets.set(key, { tokens, at: now });
      return Math.ceil(((n - tokens) / this.rate.perSecond) * 1000);
    }
    this.buckets.set(key, { tokens: tokens - n, at: now });
    return 0;
  }

  /** The wait (ms) before `key` has a token again, without taking one (0: it has one now). */
  peek(key: string): number {
    if (this.rate.burst === Number.POSITIVE_INFINITY) return 0;
    const b = this.buckets.get(key);
    if (!b) return 0;
    const tokens = Math.min(this.rate.burst, b.tokens + ((this.clock() - b.at) / 1000) * this.rate.perSecond);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / this.rate.perSecond) * 1000);
  }

  /**
   * Takes `n` tokens for every key; throws RATE_LIMITED (with a retry hint) if any has too few,
   * LIMIT_EXCEEDED if `n` is more than a whole burst (no wait would ever let it through).
   */
  check(keys: string[], what: string, n = 1, whole = n): void {
    // `whole`: the operation's full count (n may be less: what was taken before parsing).
    if (whole > this.rate.burst) throw new ApiError('LIMIT_EXCEEDED', `${what}: one operation may count at most ${this.rate.burst} (it counts ${whole}: each root field, aliases included)`);
    if (n <= 0) return;
    let wait = 0;
    for (const k of keys) wait = Math.max(wait, this.take(k, n));
    if (wait > 0) throw rateLimited(`${what}: at most ${formatRate(this.rate)}`, wait);
  }
}

const formatRate = (r: Rate) => (r.perSecond >= 1 ? `${r.perSecond} per second` : `${Math.round(r.perSecond * 3600)} per hour`) + ` (burst ${r.burst})`;

/** The typed answer of every rate limit: code RATE_LIMITED, the limit named, and when to retry. */
export function rateLimited(message: string, retryAfterMs: number): ApiError {
  return new ApiError('RATE_LIMITED', `rate limit: ${message}; retry in ${Math.ceil(retryAfterMs / 1000)} s`, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
}

/** Who a request counts against: the player, the API client acting (if any), else the address. */
export interface Caller {
  player: Player | null;
  /** The integrator client acting for the player (accounts issue), if any. */
  clientId?: string | null;
  address?: string | null;
}

export function principals(c: Caller): string[] {
  const out: string[] = [];
  if (c.player) out.push(`player:${c.player.id}`);
  if (c.clientId) out.push(`client:${c.clientId}`);
  if (out.length === 0) out.push(`address:${c.address ?? 'unknown'}`);
  return out;
}

export interface Limiters {
  read: Limiter;
  write: Limiter;
  signUp: Limiter;
  introspection: Limiter;
  /** WebSocket upgrades per address (local server). */
  upgrade: Limiter;
  /** Whether the rates kept on items (commands per seat, games created per hour) apply. */
  itemRates: boolean;
}

/** Which per-instance limits apply: the defaults, some changed, or none (`false`: tests and benches that drive games at machine speed). */
export type RateConfig = Partial<Pick<typeof RATES, 'read' | 'write' | 'signUp' | 'introspection' | 'upgrade'>> | false;

const UNLIMITED: Rate = { perSecond: Number.POSITIVE_INFINITY, burst: Number.POSITIVE_INFINITY };

export function createLimiters(config: RateConfig = {}, clock?: () => number): Limiters {
  const rate = (k: 'read' | 'write' | 'signUp' | 'introspection' | 'upgrade') => (config === false ? UNLIMITED : (config[k] ?? RATES[k]));
  return {
    read: new Limiter('read', rate('read'), clock),
    write: new Limiter('write', rate('write'), clock),
    signUp: new Limiter('signUp', rate('signUp'), clock),
    introspection: new Limiter('introspection', rate('introspection'), clock),
    upgrade: new Limiter('upgrade', rate('upgrade'), clock),
    itemRates: config !== false,
  };
}
