/**
 * The notice queue on AWS: SQS. `send` resolves once SQS has the messages (durable). A commit
 * hands its notices after it is written, beside its snapshot write; when SQS fails they wait in
 * the commit's outbox for the sweep (functions/api/notify/notices.ts), so the client gives up
 * fast rather than hold the move: one retry, short timeouts.
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { MAX_DELAY_SECONDS } from '../api/notify/notices.js';
import type { NoticeMessage, NoticeQueue } from '../api/services.js';

export function sqsNoticeQueue(queueUrl: string, client = new SQSClient({})): NoticeQueue {
  return {
    async send(messages: NoticeMessage[], delaySeconds = 0) {
      const delay = Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil(delaySeconds)));
      for (let i = 0; i < messages.length; i += 10) {
        const batch = messages.slice(i, i + 10);
        const out = await client.send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m), DelaySeconds: delay })),
          }),
        );
        if (out.Failed && out.Failed.length > 0)
          throw new Error(`SQS refused ${out.Failed.length} notice message(s): ${out.Failed[0].Code}`);
      }
    },
  };
}

let envQueue: NoticeQueue | undefined;

/** This container's notice queue (`NOTICE_QUEUE_URL`, SQS); none without it (tests: the in-process worker). */
export function noticeQueueFromEnv(): NoticeQueue | undefined {
  const url = process.env.NOTICE_QUEUE_URL;
  if (!url) return undefined;
  envQueue ??= sqsNoticeQueue(
    url,
    new SQSClient({ maxAttempts: 2, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 } }),
  );
  return envQueue;
}

/** For tests: forget the queue (e.g. after changing the URL). */
export function resetQueueForTests(): void {
  envQueue = undefined;
}
