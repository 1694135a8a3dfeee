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
  /** Queries (and REST reads) per player (or address). */
  read: { perSecond: 5, burst: 20 },
  /** Mutations per player (commands are also counted on the game item, see commandRate). */
  write: { perSecond: 10, burst: 30 },
  /** Queries per integrator client: the whole site, every user it acts for together (SITE_RATES below overrides per client). */
  siteRead: { perSecond: 200, burst: 600 },
  /** Mutations per integrator client (the site's users together). */
  siteWrite: { perSecond: 200, burst: 600 },
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

/** One bucket's state, for the rate-limit headers and Query.rateLimit. */
export interface BucketState {
  /** `<limiter>:<kind>`, e.g. `read:player`, `write:client`. */
  bucket: string;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

/** `client:<id>` keys (a site) take their rate from `siteRate`; the others from `rate`. */
const kindOf = (key: string) => key.slice(0, key.indexOf(':'));

export class Limiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly name: string,
    readonly rate: Rate,
    private readonly clock: () => number = () => performance.now(),
    /** The rate of a site's bucket (`client:<id>`): sized for every user of the site together. */
    private readonly siteRate?: (clientId: string) => Rate,
  ) {}

  /** The rate of one key's bucket. */
  rateOf(key: string): Rate {
    return this.siteRate && key.startsWith('client:') ? this.siteRate(key.slice('client:'.length)) : this.rate;
  }

  /** A key's bucket now, without taking anything. */
  state(key: string): BucketState {
    const rate = this.rateOf(key);
    const b = this.buckets.get(key);
    const tokens = !b ? rate.burst : Math.min(rate.burst, b.tokens + ((this.clock() - b.at) / 1000) * rate.perSecond);
    const full = rate.burst === Number.POSITIVE_INFINITY ? 0 : Math.ceil((rate.burst - tokens) / rate.perSecond);
    return {
      bucket: `${this.name}:${kindOf(key)}`,
      limit: rate.burst,
      remaining: Math.floor(tokens),
      resetSeconds: full,
    };
  }

  /** Takes `n` tokens for `key` (all or none): 0 if allowed, else the milliseconds until they are available. */
  take(key: string, n = 1): number {
    const rate = this.rateOf(key);
    if (rate.burst === Number.POSITIVE_INFINITY) return 0;
    const now = this.clock();
    const b = this.buckets.get(key);
    let tokens = rate.burst;
    if (b) {
      tokens = Math.min(rate.burst, b.tokens + ((now - b.at) / 1000) * rate.perSecond);
      this.buckets.delete(key); // re-inserted below: Map order is the LRU order
    } else if (this.buckets.size >= MAX_KEYS) {
      this.buckets.delete(this.buckets.keys().next().value!);
    }
    if (tokens < n) {
      this.buckets.set(key, { tokens, at: now });
      return Math.ceil(((n - tokens) / rate.perSecond) * 1000);
    }
    this.buckets.set(key, { tokens: tokens - n, at: now });
    return 0;
  }

  /** The wait (ms) before `key` has a token again, without taking one (0: it has one now). */
  peek(key: string): number {
    const rate = this.rateOf(key);
    if (rate.burst === Number.POSITIVE_INFINITY) return 0;
    const b = this.buckets.get(key);
    if (!b) return 0;
    const tokens = Math.min(rate.burst, b.tokens + ((this.clock() - b.at) / 1000) * rate.perSecond);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / rate.perSecond) * 1000);
  }

  /**
   * Takes `n` tokens for every key; throws RATE_LIMITED (with a retry hint) if any has too few,
   * LIMIT_EXCEEDED if `n` is more than a whole burst (no wait would ever let it through).
   */
  check(keys: string[], what: string, n = 1, whole = n): void {
    // `whole`: the operation's full count (n may be less: what was taken before parsing).
    const smallest = Math.min(...keys.map((k) => this.rateOf(k).burst));
    if (whole > smallest)
      throw new ApiError(
        'LIMIT_EXCEEDED',
        `${what}: one operation may count at most ${smallest} (it counts ${whole}: each root field, aliases included)`,
      );
    if (n <= 0) return;
    // Every bucket pays (all or none per bucket); the one that ran out longest is named.
    let wait = 0;
    let empty = '';
    for (const k of keys) {
      const w = this.take(k, n);
      if (w > wait) [wait, empty] = [w, k];
    }
    if (wait > 0) {
      const site = empty.startsWith('client:');
      const whose = site
        ? `${what.replace(/ per player$/, '')} per site (client ${empty.slice('client:'.length)}, all its users together)`
        : what;
      throw rateLimited(`${whose}: at most ${formatRate(this.rateOf(empty))}`, wait, `${this.name}:${kindOf(empty)}`);
    }
  }
}

const formatRate = (r: Rate) =>
  (r.perSecond >= 1 ? `${r.perSecond} per second` : `${Math.round(r.perSecond * 3600)} per hour`) +
  ` (burst ${r.burst})`;

/** The typed answer of every rate limit: code RATE_LIMITED, the limit named, and when to retry. */
export function rateLimited(message: string, retryAfterMs: number, bucket?: string): ApiError {
  return new ApiError('RATE_LIMITED', `rate limit: ${message}; retry in ${Math.ceil(retryAfterMs / 1000)} s`, {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    ...(bucket ? { bucket } : {}),
  });
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
export type RateConfig =
  | (Partial<
      Pick<typeof RATES, 'read' | 'write' | 'signUp' | 'introspection' | 'upgrade' | 'siteRead' | 'siteWrite'>
    > & { sites?: SiteRates })
  | false;

/** Per-client overrides of the site buckets: client id -> its read and write rates (AWS: SITE_RATE_LIMITS). */
export type SiteRates = Record<string, { read?: Rate; write?: Rate }>;

/** SITE_RATE_LIMITS: JSON `{ "<clientId>": { "read": { "perSecond", "burst" }, "write": {...} } }`; unset: none. */
export function siteRatesFromEnv(env: Record<string, string | undefined> = process.env): SiteRates | undefined {
  if (!env.SITE_RATE_LIMITS) return undefined;
  const parsed = JSON.parse(env.SITE_RATE_LIMITS) as SiteRates;
  for (const [client, r] of Object.entries(parsed)) {
    for (const rate of [r.read, r.write]) {
      if (rate && !(rate.perSecond > 0 && rate.burst >= 1))
        throw new Error(`SITE_RATE_LIMITS: ${client} needs { perSecond > 0, burst >= 1 }`);
    }
  }
  return parsed;
}

const UNLIMITED: Rate = { perSecond: Number.POSITIVE_INFINITY, burst: Number.POSITIVE_INFINITY };

export function createLimiters(config: RateConfig = {}, clock?: () => number): Limiters {
  const rate = (k: 'read' | 'write' | 'signUp' | 'introspection' | 'upgrade' | 'siteRead' | 'siteWrite') =>
    config === false ? UNLIMITED : (config[k] ?? RATES[k]);
  const sites = config === false ? {} : (config.sites ?? {});
  const site = (k: 'read' | 'write') => (clientId: string) =>
    config === false ? UNLIMITED : (sites[clientId]?.[k] ?? rate(k === 'read' ? 'siteRead' : 'siteWrite'));
  return {
    read: new Limiter('read', rate('read'), clock, site('read')),
    write: new Limiter('write', rate('write'), clock, site('write')),
    signUp: new Limiter('signUp', rate('signUp'), clock),
    introspection: new Limiter('introspection', rate('introspection'), clock),
    upgrade: new Limiter('upgrade', rate('upgrade'), clock),
    itemRates: config !== false,
  };
}

/** The caller's buckets of one kind (reads or mutations), tightest first: what the headers and Query.rateLimit show. */
export function bucketStates(limiters: Limiters, c: Caller, kind: 'read' | 'write'): BucketState[] {
  return principals(c)
    .map((k) => limiters[kind].state(k))
    .filter((b) => b.limit !== Number.POSITIVE_INFINITY)
    .sort((a, b) => a.remaining / a.limit - b.remaining / b.limit);
}

/**
 * GitHub's rate-limit headers (the ones most HTTP clients already read) for the tightest bucket
 * of the kind the request used: `x-ratelimit-limit` (the burst), `-remaining`, `-reset` (epoch
 * seconds when it is full again) and `-resource` (the bucket, e.g. `read:client`). None when
 * the limits are off.
 */
export function rateHeaders(
  limiters: Limiters,
  c: Caller,
  kind: 'read' | 'write',
  nowMs = Date.now(),
): Record<string, string> {
  const b = bucketStates(limiters, c, kind)[0];
  if (!b) return {};
  return {
    'x-ratelimit-limit': String(b.limit),
    'x-ratelimit-remaining': String(b.remaining),
    'x-ratelimit-reset': String(Math.ceil(nowMs / 1000) + b.resetSeconds),
    'x-ratelimit-resource': b.bucket,
  };
}
