/**
 * The sweep's Mailer on AWS: Amazon SES (API v2 SendEmail, a simple message with our headers:
 * List-Unsubscribe and List-Unsubscribe-Post). Only the sweep imports it, so only its bundle
 * carries the SES client and only its role may send (test/infra/bundles.test.ts).
 */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../api/services.js';

export function sesMailer(from: string): Mailer {
  const client = new SESv2Client({});
  const utf8 = (Data: string) => ({ Data, Charset: 'UTF-8' });
  return {
    send: async (m) => {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [m.to] },
          Content: {
            Simple: {
              Subject: utf8(m.subject),
              Body: { Text: utf8(m.text) },
              Headers: Object.entries(m.headers).map(([Name, Value]) => ({ Name, Value })),
            },
          },
        }),
      );
    },
  };
}
