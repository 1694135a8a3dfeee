// The local server's e-mail: a real SMTP server (smtp-server) that keeps every message it
// receives, as a `.eml` file in `<data>/mail/` and in memory (the newest MAX_KEPT, listed at
// `GET /local/mail`), and the service's Mailer sending to it over SMTP with nodemailer. So the
// reminders a player would get arrive exactly as sent, headers and all; tests read them here.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { Mailer } from '../api/services.js';

/** Messages kept in memory (the files keep all of them); a message over MAX_BYTES is refused. */
export const MAIL_CATCHER = { maxKept: 200, maxBytes: 1_000_000 };
export const LOCAL_FROM = 'Libertalia reminders <reminders@libertalia.localhost>';

export interface ReceivedMail {
  id: number;
  from: string | null;
  to: string[];
  receivedAt: string;
  /** The message as it arrived (RFC 5322: headers, blank line, body). */
  raw: string;
  /** Where it was written, if a data folder is set. */
  file: string | null;
}

export interface MailCatcher {
  port: number;
  received: ReceivedMail[];
  /** Sends through this SMTP server (nodemailer). */
  mailer: Mailer;
  /** `GET /local/mail`: the kept messages, newest last (true if it took the request). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  close(): Promise<void>;
}

export async function startMailCatcher(opts: { port?: number; dir?: string | null } = {}): Promise<MailCatcher> {
  const received: ReceivedMail[] = [];
  const dir = opts.dir ?? null;
  if (dir) mkdirSync(dir, { recursive: true });
  let next = 1;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAIL_CATCHER.maxBytes,
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (stream.sizeExceeded) return done(Object.assign(new Error('message too big'), { responseCode: 552 }));
        const id = next++;
        const receivedAt = new Date().toISOString();
        const raw = Buffer.concat(chunks).toString('utf8');
        const file = dir ? join(dir, `${receivedAt.replace(/[:.]/g, '-')}-${id}.eml`) : null;
        if (file) writeFileSync(file, raw);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        received.push({ id, from, to: session.envelope.rcptTo.map((r) => r.address), receivedAt, raw, file });
        if (received.length > MAIL_CATCHER.maxKept) received.shift();
        done();
      });
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  const port = (server.server.address() as AddressInfo).port;
  const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  return {
    port,
    received,
    mailer: {
      send: async (m) => {
        await transport.sendMail({ from: LOCAL_FROM, to: m.to, subject: m.subject, text: m.text, headers: m.headers });
      },
    },
    handle(req, res) {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/local/mail') return false;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ smtpPort: port, messages: received }));
      return true;
    },
    close: async () => {
      transport.close();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
