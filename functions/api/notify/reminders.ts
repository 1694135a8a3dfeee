// E-mail turn reminders (opt-in, accounts only): the settings a player reads and sets, and the
// sweep's step that sends what is due. Exactly once: each mail claims a mark first (a turn's
// reminder `TURN#<game>#<seat>#<since>`, a day's digest, an address's confirmation), then one
// unit of the player's daily count (a conditional counter on the player item); if either is
// refused nothing is sent, and a claimed mark whose mail could not go is given back.
import { createHash } from 'node:crypto';
import type { ReminderRecord } from '../../store/index.js';
import { ApiError } from '../errors.js';
import { logger } from '../http/telemetry.js';
import { deadlineOf, seatOf } from '../doc.js';
import { loadGames } from '../play/commit.js';
import type { MailMessage, MailSetup, Services } from '../services.js';
import { confirmMail, digestMail, reminderMail, type Waiting } from './mail-text.js';

/** The limits of e-mail reminders (docs/correspondence.md, "E-mail reminders"). */
export const REMINDERS = {
  /** The delays a player may choose ("remind me when it has been my turn for N hours"). */
  delayHours: [1, 4, 12, 24, 48] as readonly number[],
  defaultDelayHours: 12,
  /** E-mails to one player per UTC day, every kind together (confirmations, reminders, digests). */
  mailsPerDay: 10,
  /** How often the sweep looks at an opted-in player's games (at most). */
  checkMinutes: 15,
  /** A player's newest games looked at per check. */
  gamesChecked: 50,
  /** Players looked at per sweep run (the rest wait for the next run). */
  playersPerRun: 500,
  /** The longest address accepted (RFC 5321's path limit). */
  emailLength: 254,
  /** Days a sent mail's mark is kept (a turn waiting longer gets no second reminder within them). */
  markDays: 30,
};

export interface ReminderSettingsInput {
  email?: string | null;
  enabled: boolean;
  delayHours?: number | null;
  dailyDigest?: boolean | null;
}

const DEFAULTS = (playerId: string, now: Date): ReminderRecord => ({
  playerId,
  email: null,
  confirmed: false,
  enabled: false,
  delayHours: REMINDERS.defaultDelayHours,
  dailyDigest: false,
  updatedAt: now.toISOString(),
  checkAt: null,
});

export const settingsView = (r: ReminderRecord) => ({
  email: r.email,
  confirmed: r.confirmed,
  enabled: r.enabled,
  delayHours: r.delayHours,
  dailyDigest: r.dailyDigest,
  dailyLimit: REMINDERS.mailsPerDay,
});

/** Reminders need an account: guests and site users have no address here (a site mails its own users). */
export function requireAccount(kind: string | undefined): void {
  if (kind !== 'account')
    throw new ApiError(
      'ACCOUNT_REQUIRED',
      'e-mail reminders are for accounts: sign in (guests and site users have none)',
    );
}

export function requireMail(services: Services): MailSetup {
  if (!services.mail) throw new ApiError('MAIL_UNAVAILABLE', 'this deployment sends no e-mail');
  return services.mail;
}

export async function readReminders(services: Services, playerId: string) {
  return settingsView((await services.store.notify.getReminders(playerId)) ?? DEFAULTS(playerId, services.now()));
}

/** A plain address (no display name, no comments, no spaces), the domain in lower case; BAD_USER_INPUT otherwise. */
export function normalEmail(raw: string): string {
  const email = raw.trim();
  const m = /^([^\s@<>()[\]\\,;:"\p{C}]+)@([^\s@<>()[\]\\,;:"\p{C}]+\.[^\s@<>()[\]\\,;:"\p{C}]+)$/u.exec(email);
  if (!m || email.length > REMINDERS.emailLength)
    throw new ApiError(
      'BAD_USER_INPUT',
      `email must be a plain address of at most ${REMINDERS.emailLength} characters`,
    );
  return `${m[1]}@${m[2].toLowerCase()}`;
}

export async function setReminders(services: Services, playerId: string, input: ReminderSettingsInput) {
  requireMail(services);
  const now = services.now();
  const old = (await services.store.notify.getReminders(playerId)) ?? DEFAULTS(playerId, now);
  const delayHours = input.delayHours ?? old.delayHours;
  if (!REMINDERS.delayHours.includes(delayHours))
    throw new ApiError('BAD_USER_INPUT', `delayHours must be one of ${REMINDERS.delayHours.join(', ')}`);
  const email = input.email === undefined ? old.email : input.email === null ? null : normalEmail(input.email);
  if (input.enabled && email === null) throw new ApiError('BAD_USER_INPUT', 'reminders need an email address');
  const rec: ReminderRecord = {
    playerId,
    email,
    // A new address must be confirmed again (the sweep sends it the link).
    confirmed: email !== null && email === old.email && old.confirmed,
    enabled: input.enabled && email !== null,
    delayHours,
    dailyDigest: input.dailyDigest ?? old.dailyDigest,
    updatedAt: now.toISOString(),
    checkAt: input.enabled && email !== null ? now.toISOString() : null,
  };
  await services.store.notify.putReminders(rec);
  return settingsView(rec);
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** Sends `message` once for `mark`, within the day's limit: 'sent', 'done' (sent before) or 'limit'. */
async function sendOnce(services: Services, playerId: string, mark: string, message: () => Promise<MailMessage>) {
  const { store } = services;
  const now = services.now();
  if (!(await store.notify.claimMailMark(playerId, mark, now, REMINDERS.markDays))) return 'done';
  if (!(await store.players.countOnPlayer(playerId, 'mail', dayOf(now), REMINDERS.mailsPerDay))) {
    await store.notify.releaseMailMark(playerId, mark);
    return 'limit';
  }
  try {
    await services.mail!.mailer!.send(await message());
  } catch (e) {
    // Not sent: the next check tries again (the day's count keeps the attempt).
    await store.notify.releaseMailMark(playerId, mark);
    throw e;
  }
  return 'sent';
}

/** The player's active games, and their waiting turns (seat awaited, not handed to a bot). */
async function gamesOf(services: Services, playerId: string) {
  const ids = await services.store.members.listMemberGameIds(playerId, REMINDERS.gamesChecked);
  const games = (await loadGames(services, ids, false)).filter((g) => g.status === 'ACTIVE');
  const waiting: Waiting[] = [];
  for (const g of games) {
    const seat = seatOf(g.doc, playerId);
    const holder = seat === null ? undefined : g.doc.seats[seat];
    const pending = seat === null ? undefined : g.doc.pending[seat];
    if (seat === null || !holder || holder.bot !== null || holder.replaced || !pending) continue;
    waiting.push({
      gameId: g.id,
      edition: g.doc.edition,
      seat,
      since: pending.since,
      deadline: deadlineOf(g.doc, seat),
    });
  }
  return { games, waiting };
}

const markOf = (email: string) => `CONFIRM#${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;

/** One player's due work; returns the mails sent. */
async function remindPlayer(services: Services, playerId: string): Promise<number> {
  const { store } = services;
  const now = services.now();
  const rec = await store.notify.getReminders(playerId);
  if (!rec || rec.checkAt === null || rec.checkAt > now.toISOString()) return 0; // changed since it was listed
  const reschedule = (checkAt: string | null) => store.notify.putReminders({ ...rec, checkAt }, rec.updatedAt);
  if (!rec.enabled || rec.email === null) return reschedule(null).then(() => 0);
  const email = rec.email;
  const mail = services.mail!;
  if (!rec.confirmed) {
    // Nothing goes to an unconfirmed address but its one confirmation; the confirm link brings it back here.
    const r = await sendOnce(services, playerId, markOf(email), () => confirmMail(services, mail, rec));
    await reschedule(r === 'limit' ? new Date(now.getTime() + REMINDERS.checkMinutes * 60_000).toISOString() : null);
    return r === 'sent' ? 1 : 0;
  }
  let sent = 0;
  let next = now.getTime() + REMINDERS.checkMinutes * 60_000;
  const { waiting } = await gamesOf(services, playerId);
  for (const w of waiting) {
    const due = Date.parse(w.since) + rec.delayHours * 3_600_000;
    if (due > now.getTime()) {
      next = Math.min(next, due);
      continue;
    }
    const mark = `TURN#${w.gameId}#${w.seat}#${w.since}`;
    if ((await sendOnce(services, playerId, mark, () => reminderMail(services, mail, rec, w, now))) === 'sent') sent++;
  }
  if (rec.dailyDigest && waiting.length > 0) {
    const r = await sendOnce(services, playerId, `DIGEST#${dayOf(now)}`, () =>
      digestMail(services, mail, rec, waiting, now),
    );
    if (r === 'sent') sent++;
  }
  await reschedule(new Date(next).toISOString());
  return sent;
}

/** The sweep's step: every opted-in player whose check is due. Returns the mails sent and the failures. */
export async function remindDue(services: Services): Promise<{ mailed: number; failures: number }> {
  if (!services.mail?.mailer) return { mailed: 0, failures: 0 };
  const ids = await services.store.ops.listDue('REMIND', services.now(), REMINDERS.playersPerRun);
  let mailed = 0;
  let failures = 0;
  for (const id of ids) {
    try {
      mailed += await remindPlayer(services, id);
    } catch (e) {
      failures++;
      logger.error('sweep step failed for a reminder', { playerId: id, error: e as Error });
    }
  }
  return { mailed, failures };
}

/** Follows a verified link: unsubscribe turns reminders off; confirm confirms the address it was sent to. */
export async function followLink(
  services: Services,
  claims: { purpose: 'unsubscribe' | 'confirm'; playerId: string; email: string },
): Promise<'done' | 'stale'> {
  const rec = await services.store.notify.getReminders(claims.playerId);
  if (!rec) return 'stale';
  const updatedAt = services.now().toISOString();
  if (claims.purpose === 'unsubscribe') {
    await services.store.notify.putReminders({ ...rec, enabled: false, checkAt: null, updatedAt });
    return 'done';
  }
  if (rec.email !== claims.email) return 'stale'; // the address changed since the link was sent
  await services.store.notify.putReminders({
    ...rec,
    confirmed: true,
    checkAt: rec.enabled ? updatedAt : null,
    updatedAt,
  });
  return 'done';
}
