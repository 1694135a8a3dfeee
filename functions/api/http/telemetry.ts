// Logs and metrics, one module for the Lambda handlers and the local server.
//
// - `logger`: Powertools for AWS Lambda (TypeScript) Logger. On Lambda (or LOG_FORMAT=json) every
//   line is one JSON object; locally it prints one readable line (`12:00:01.123 INFO  message
//   key=value ...`). Every line carries the request's `requestId`, `playerId` and `gameId` when
//   known: they live in an AsyncLocalStorage scope opened per request (`withRequest`), so
//   concurrent requests of the local server never mix their keys.
// - `count`: a custom metric. On Lambda it goes to Powertools Metrics (CloudWatch embedded
//   metric format, namespace `Libertalia`, flushed by the handler after each invocation);
//   everywhere it is also added to in-process counters (`counters()`, for tests and the local
//   server).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const SERVICE_NAME = 'libertalia';
export const METRICS_NAMESPACE = 'Libertalia';

/**
 * The custom metrics (all counts). `Errors` carries a `code` dimension (the GraphQL/REST error
 * code; `INTERNAL_SERVER_ERROR` is the real failure the alarm watches), `Webhooks` an `outcome`.
 */
export const METRIC = {
  moves: 'Moves',
  advances: 'Advances',
  commits: 'Commits',
  commitRetries: 'CommitRetries',
  errors: 'Errors',
  webhooks: 'Webhooks',
  sweepBacklog: 'SweepBacklog',
  sweepFailures: 'SweepFailures',
  pushSent: 'PushSent',
  pushGone: 'PushGone',
  noticeHandOffFailures: 'NoticeHandOffFailures',
  noticesResent: 'NoticesResent',
} as const;

export interface RequestScope {
  requestId?: string;
  /** API Gateway's id of the request (the access log's `requestId`). */
  apiRequestId?: string;
  playerId?: string;
  gameId?: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` in a fresh log scope (one per request or invocation). */
export function withRequest<T>(keys: RequestScope, fn: () => T): T {
  return scope.run({ ...keys }, fn);
}

/** Adds keys (player, game) to the current request's log lines; no-op outside a request. */
export function noteRequest(keys: RequestScope): void {
  const s = scope.getStore();
  if (s) Object.assign(s, keys);
}

export const onLambda = (): boolean => Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

/** Keys Powertools puts on every item that a readable local line does not need. */
const QUIET = new Set(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id']);

type LogItemLike = { prepareForPrint(): void; getAttributes(): Record<string, unknown> };

function readable(attributes: Record<string, unknown>): string {
  const time = String(attributes.timestamp ?? new Date().toISOString()).slice(11, 23);
  const parts = [`${time} ${String(attributes.level ?? 'INFO').padEnd(5)} ${String(attributes.message ?? '')}`];
  let stack = '';
  for (const [k, v] of Object.entries(attributes)) {
    if (QUIET.has(k) || v === undefined) continue;
    if (v && typeof v === 'object' && 'stack' in v && typeof (v as { stack: unknown }).stack === 'string') {
      const err = v as { name?: string; message?: string; stack: string };
      parts.push(`${k}=${JSON.stringify(`${err.name ?? 'Error'}: ${err.message ?? ''}`)}`);
      stack += `\n${err.stack}`;
      continue;
    }
    parts.push(`${k}=${typeof v === 'string' && !/\s|"/.test(v) ? v : JSON.stringify(v)}`);
  }
  return parts.join(' ') + stack;
}

/**
 * Powertools' Logger with the request scope's keys added to every line, and readable lines when
 * not on Lambda (unless LOG_FORMAT=json).
 */
class ServiceLogger extends Logger {
  protected override processLogItem(...args: Parameters<Logger['processLogItem']>): void {
    const [level, input, extra] = args;
    const keys = scope.getStore();
    super.processLogItem(level, input, (keys ? [...extra, { ...keys }] : extra) as typeof extra);
  }

  protected override printLog(logLevel: number, log: LogItemLike): void {
    if (onLambda() || process.env.LOG_FORMAT === 'json') {
      super.printLog(logLevel, log as never);
      return;
    }
    log.prepareForPrint();
    const line = readable(log.getAttributes());
    if (logLevel >= 20 /* WARN and above */) console.error(line);
    else console.log(line);
  }
}

export const logger = new ServiceLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  // Tests keep their output quiet unless asked (LOG_LEVEL / POWERTOOLS_LOG_LEVEL win).
  logLevel: (process.env.LOG_LEVEL ??
    process.env.POWERTOOLS_LOG_LEVEL ??
    (process.env.VITEST ? 'SILENT' : 'INFO')) as never,
});

// ---- metrics ------------------------------------------------------------------------------------

let metrics: Metrics | undefined;
function lambdaMetrics(): Metrics | undefined {
  if (!onLambda()) return undefined;
  metrics ??= new Metrics({
    namespace: METRICS_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  });
  return metrics;
}

const local = new Map<string, number>();

const keyOf = (name: string, dims?: Record<string, string>) =>
  dims
    ? `${name}{${Object.entries(dims)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}}`
    : name;

/** Adds `value` to a count metric (with optional dimensions, e.g. `{ code }`). */
export function count(name: string, value = 1, dims?: Record<string, string>): void {
  const key = keyOf(name, dims);
  local.set(key, (local.get(key) ?? 0) + value);
  const m = lambdaMetrics();
  if (!m) return;
  if (dims) {
    // A metric with its own dimensions goes out in its own EMF record at once.
    const single = m.singleMetric();
    for (const [k, v] of Object.entries(dims)) single.addDimension(k, v);
    single.addMetric(name, MetricUnit.Count, value);
  } else {
    m.addMetric(name, MetricUnit.Count, value);
  }
}

/** The in-process counts so far (`Errors{code=...}` for dimensioned ones). */
export function counters(): Record<string, number> {
  return Object.fromEntries(local);
}

/** Writes the buffered metrics of this invocation (EMF on stdout); no-op off Lambda. */
export function publishMetrics(): void {
  const m = lambdaMetrics();
  if (m?.hasStoredMetrics()) m.publishStoredMetrics();
}
