// Launch limits: the numbers the stack is sized for, and the arithmetic behind them (docs/aws.md,
// "Limits and how to raise them"). Each can be raised with a stack prop or `-c` context value.

/** The target: live 4-player games at once. */
export const TARGET_LIVE_GAMES = 1_000;

/**
 * A 4-player game as measured by `npm run bench -- --cost` (scripts/bench-cost.ts): about 155
 * commits in about 30 minutes; with push, each commit costs the committing request plus one
 * fetch by each of the 4 clients (at most: a client that gets the view in the push skips it).
 */
export const GAME = { commits: 155, seconds: 1_800, requestsPerCommit: 5, writeUnits: 400, readUnits: 1_400 };

/** Mean HTTP requests per second at the target: 1,000 x 155 x 5 / 1,800 = about 431. */
export const TARGET_REQUESTS_PER_SECOND = (TARGET_LIVE_GAMES * GAME.commits * GAME.requestsPerCommit) / GAME.seconds;

/**
 * HTTP API stage throttle (all routes): about 2.3x the mean at the target, a burst of twice that
 * (players' moves bunch up at the end of a day). API Gateway's account default is 10,000/s
 * (burst 5,000) per region, far above.
 */
export const API_THROTTLE = { rateLimit: 1_000, burstLimit: 2_000 };

/**
 * The sweep's reserved concurrency: none by default. Reserving takes from the account's pool and
 * AWS keeps at least 100 unreserved, so an account whose concurrency quota is below 101 (new
 * accounts may have 10) cannot create a stack that reserves any. On an account with the usual
 * 1,000, `-c sweepReservedConcurrency=1` guarantees that a flood of API calls never keeps
 * deadlines and archiving from running, and caps the sweep at one run at a time (overlapping
 * runs are harmless anyway: every sweep step is idempotent).
 */
export const SWEEP_RESERVED_CONCURRENCY = 0;

/**
 * Most notice worker instances at once (the SQS event source's maximum concurrency): a burst of
 * notices (a tournament round ending) is worked off a few at a time instead of taking a small
 * account's concurrency from the API. 5 instances x 10 messages a batch, each batch about a
 * second at worst (webhook timeouts), is 50 notices/s: the target makes about 86 commits/s
 * (1,000 x 155 / 1,800), of which only the ones with a webhook or a subscriber send a message.
 */
export const NOTICE_MAX_CONCURRENCY = 5;

/**
 * API Lambda concurrency at the target: requests/s x duration. About 431 x 0.05 s = 22 at the
 * mean, 100 at the throttle's burst: within the account default of 1,000 (minus the sweep's 1).
 */
export const API_CONCURRENCY_AT_TARGET = Math.ceil(TARGET_REQUESTS_PER_SECOND * 0.05);

/**
 * On-demand throughput caps of the table (units per second): about 10x the target's mean, so
 * that a runaway client or bug is throttled (the TableThrottles alarm fires) rather than billed
 * without bound. Mean at the target: 1,000 x 400 / 1,800 = 222 WRU/s; 1,000 x 1,400 / 1,800 =
 * 778 RRU/s. At the caps, the most a full hour costs is 3,600 x (2,500 x $0.625 + 8,000 x
 * $0.125) per million = $9.2.
 */
export const TABLE_MAX_UNITS = { write: 2_500, read: 8_000 };
