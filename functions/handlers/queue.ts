/**
 * The notice queue on AWS: SQS. `send` resolves once SQS has the messages (durable), which is
 * what a commit waits for before it writes its snapshot (see functions/api/notify/notices.ts).
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { tracer } from './observe.js';
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

/** This container's notice queue (`NOTICE_QUEUE_URL`, SQS, traced); none without it (tests: the in-process worker). */
export function noticeQueueFromEnv(): NoticeQueue | undefined {
  const url = process.env.NOTICE_QUEUE_URL;
  if (!url) return undefined;
  envQueue ??= sqsNoticeQueue(url, tracer.captureAWSv3Client(new SQSClient({})));
  return envQueue;
}

/** For tests: forget the queue (e.g. after changing the URL). */
export function resetQueueForTests(): void {
  envQueue = undefined;
}
