/**
 * What every Lambda invocation gets around it: the Powertools logger's Lambda context (request
 * id, cold start), the request scope for the log keys (`requestId`, then `playerId`/`gameId` as
 * the code learns them), and the invocation's metrics flushed as EMF at the end.
 *
 * Traces come from Lambda's own X-Ray active tracing (the function's segment with its Init,
 * Invocation and Overhead subsegments; the AWS SDK passes the trace header on, so the notice
 * worker's invocations join the trace of the move that queued them). No tracer SDK is bundled:
 * the Powertools tracer and the X-Ray SDK weighed about 120 KB in every bundle (docs/performance.md)
 * for a subsegment per AWS SDK call.
 */
import type { Context } from 'aws-lambda';
import { logger, publishMetrics, type RequestScope, withRequest } from '../api/http/telemetry.js';

export async function invocation<T>(context: Context, keys: RequestScope, fn: () => Promise<T>): Promise<T> {
  logger.addContext(context);
  try {
    return await withRequest({ requestId: context.awsRequestId, ...keys }, fn);
  } catch (e) {
    logger.error('invocation failed', { error: e as Error });
    throw e;
  } finally {
    publishMetrics();
  }
}
