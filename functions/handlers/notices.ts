/**
 * The notice worker Lambda (SQS event source on the notice queue). Entry point only: each
 * message is handled by `app.handleNotice` (functions/api/notify/notices.ts): record the deliveries of
 * a commit's notices and attempt them, make a due retry, or fan a game version out to its push
 * subscribers (`push` messages: the commit's fan-out, off the move's path). A message whose handling throws (the
 * store failed) is reported as a batch item failure: SQS delivers it again, and after a few
 * receives moves it to the dead-letter queue (which has an alarm).
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { NoticeMessage } from '../api/services.js';
import { logger } from '../api/http/telemetry.js';
import { getApp } from './config.js';
import { pushGatewayFromEnv } from './push-gateway.js';
import { noticeQueueFromEnv } from './queue.js';
import { invocation } from './observe.js';

export async function handler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse> {
  return invocation(context ?? ({ awsRequestId: 'local' } as Context), {}, () => handle(event));
}

async function handle(event: SQSEvent): Promise<SQSBatchResponse> {
  const app = await getApp({ pushGateway: pushGatewayFromEnv(), noticeQueue: noticeQueueFromEnv() });
  const failed: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (r) => {
      try {
        await app.handleNotice(JSON.parse(r.body) as NoticeMessage);
      } catch (e) {
        logger.error('notice message failed', { messageId: r.messageId, error: e as Error });
        failed.push({ itemIdentifier: r.messageId });
      }
    }),
  );
  return { batchItemFailures: failed };
}
