// The e-mails themselves: plain text, a link to each game, and a one-click unsubscribe (RFC 8058:
// `List-Unsubscribe` with an https link and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`).
// Player-chosen text (names) is never put in a mail: only game ids, editions and times.
import { type EditionId, wordsOf } from '../../engine/index.js';
import type { ReminderRecord } from '../../store/index.js';
import type { MailMessage, MailSetup, Services } from '../services.js';
import { signLink } from './mail-links.js';

/** A turn of the player's that is waiting. */
export interface Waiting {
  gameId: string;
  edition: EditionId;
  seat: number;
  since: string;
  deadline: string | null;
}

const trim = (url: string) => url.replace(/\/+$/, '');
export const gameLink = (mail: MailSetup, gameId: string) =>
  `${trim(mail.webUrl)}/#/game/${encodeURIComponent(gameId)}`;
export const linkUrl = (mail: MailSetup, path: '/unsubscribe' | '/reminders/confirm', token: string) =>
  `${trim(mail.apiUrl)}${path}?token=${token}`;

const hours = (from: string, now: Date) => Math.max(0, Math.floor((now.getTime() - Date.parse(from)) / 3_600_000));
const edition = (e: EditionId) => wordsOf(e).title;

async function withUnsubscribe(
  services: Services,
  mail: MailSetup,
  rec: ReminderRecord,
  m: Omit<MailMessage, 'headers'>,
) {
  const url = linkUrl(
    mail,
    '/unsubscribe',
    await signLink(services, { purpose: 'unsubscribe', playerId: rec.playerId, email: '' }),
  );
  return {
    ...m,
    text: `${m.text}\n\n--\nStop these e-mails (one click): ${url}\nAt most a few a day; change them in the game's settings.\n`,
    headers: {
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'auto-generated',
    },
  };
}

export async function reminderMail(services: Services, mail: MailSetup, rec: ReminderRecord, w: Waiting, now: Date) {
  const due = w.deadline ? `\nYour deadline: ${w.deadline} (then the default move is made for you).` : '';
  return withUnsubscribe(services, mail, rec, {
    to: rec.email!,
    subject: `Libertalia: your turn has waited ${hours(w.since, now)} hours`,
    text: `It has been your turn since ${w.since} in a ${edition(w.edition)} game of Libertalia (seat ${w.seat + 1}).${due}\n\nPlay: ${gameLink(mail, w.gameId)}`,
  });
}

export async function digestMail(
  services: Services,
  mail: MailSetup,
  rec: ReminderRecord,
  waiting: Waiting[],
  now: Date,
) {
  const lines = waiting.map(
    (w) =>
      `- ${edition(w.edition)}, your turn for ${hours(w.since, now)} h${w.deadline ? `, deadline ${w.deadline}` : ''}: ${gameLink(mail, w.gameId)}`,
  );
  return withUnsubscribe(services, mail, rec, {
    to: rec.email!,
    subject: `Libertalia: ${waiting.length} game${waiting.length === 1 ? '' : 's'} waiting for you`,
    text: `Your correspondence games waiting for your move on ${now.toISOString().slice(0, 10)}:\n\n${lines.join('\n')}`,
  });
}

export async function confirmMail(services: Services, mail: MailSetup, rec: ReminderRecord) {
  const token = await signLink(services, { purpose: 'confirm', playerId: rec.playerId, email: rec.email! });
  return withUnsubscribe(services, mail, rec, {
    to: rec.email!,
    subject: 'Libertalia: confirm your address for turn reminders',
    text: `Someone (we hope you) asked for Libertalia turn reminders at this address.\n\nConfirm: ${linkUrl(mail, '/reminders/confirm', token)}\n\nIf it was not you, ignore this e-mail: nothing more will be sent.`,
  });
}
