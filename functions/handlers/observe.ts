/**
 * What every Lambda invocation gets around it: the Powertools logger's Lambda context (request
 * id, cold start), the request scope for the log keys (`requestId`, then `playerId`/`gameId` as
 * the code learns them), an X-Ray subsegment through the Powertools tracer (the function runs
 * with active tracing; the AWS SDK clients are captured in `config.ts`), and the invocation's
 * metrics flushed as EMF at the end.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';
import { logger, publishMetrics, type RequestScope, SERVICE_NAME, withRequest } from '../api/http/telemetry.js';

export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME });

export async function invocation<T>(context: Context, keys: RequestScope, fn: () => Promise<T>): Promise<T> {
  logger.addContext(context);
  const segment = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  const sub = segment?.addNewSubsegment(`## ${process.env._HANDLER ?? 'handler'}`);
  if (sub) {
    tracer.setSegment(sub);
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
  }
  try {
    return await withRequest({ requestId: context.awsRequestId, ...keys }, fn);
  } catch (e) {
    sub?.addError(e as Error);
    logger.error('invocation failed', { error: e as Error });
    throw e;
  } finally {
    sub?.close();
    if (segment) tracer.setSegment(segment);
    publishMetrics();
  }
}
