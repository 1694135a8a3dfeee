// E-mail turn reminders end to end (injected clock, dynalite, the local server's real SMTP
// server): the mails are read as they arrived over SMTP, headers and all.
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailCatcher, startMailCatcher } from '../../../functions/local/mail.js';
import { REMINDERS } from '../../../functions/api/notify/reminders.js';
import { codeOf, testApp } from '../../setup/app.js';
import { testIssuer } from '../../setup/tokens.js';

const HOUR = 3_600_000;
const T0 = new Date('2031-03-01T08:00:00.000Z');
let clock = T0;
const at = (ms: number) => new Date(T0.getTime() + ms);
const API = 'https://api.example.test';
const WEB = 'https://play.example.test/';
const ANNE = 'anne@example.test';

let t: Awaited<ReturnType<typeof testApp>>;
let catcher: MailCatcher;
let anne: string;
let guest: { playerId: string; token: string };

const SET = `mutation($i: ReminderSettingsInput!) { setReminders(input: $i) { email confirmed enabled delayHours dailyDigest dailyLimit } }`;
const READ = `{ reminderSettings { email confirmed enabled delayHours dailyDigest } }`;

beforeAll(async () => {
  catcher = await startMailCatcher();
  const idp = await testIssuer();
  t = await testApp({
    now: () => clock,
    issuers: [idp.config],
    mail: { apiUrl: API, webUrl: WEB, mailer: catcher.mailer },
  });
  anne = await idp.token({ sub: 'anne' }, { now: T0, lifetime: 30 * 24 * 3600 });
  expect((await t.gql(`mutation { register(name: "Anne Bonny") { playerId } }`, {}, anne)).errors).toBeUndefined();
  guest = await t.signUp('Mary Read');
});
afterAll(async () => {
  await t.close();
  await catcher.close();
});

/** Mails to Anne received so far, parsed. */
const inbox = async (): Promise<ParsedMail[]> =>
  Promise.all(catcher.received.filter((m) => m.to.includes(ANNE)).map((m) => simpleParser(m.raw)));
const sweep = async (when: Date) => {
  clock = when;
  return t.app.sweep(when);
};
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const rest = (method: string, path: string, token: string) =>
  t.app.rest({ method, path, query: { token }, headers: {}, address: '127.0.0.1' });
/** The raw List-Unsubscribe header as it arrived (unfolded): `<https://...>`. */
const unsubscribeUrl = (m: ParsedMail) => {
  const line = m.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n[ \t]+/g, ' ');
  return /^List-Unsubscribe: <(\S+)>$/i.exec(line)![1];
};

async function botGame(token: string): Promise<string> {
  const g = await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, token);
  expect(g.errors).toBeUndefined();
  const id = g.data.createGame.id as string;
  expect(
    (await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { status } }`, { g: id }, token)).errors,
  ).toBeUndefined();
  return id;
}

describe('e-mail reminders', () => {
  it('are for accounts only, with bounded choices', async () => {
    expect(codeOf(await t.gql(SET, { i: { email: 'mary@example.test', enabled: true } }, guest.token))).toBe(
      'ACCOUNT_REQUIRED',
    );
    expect(codeOf(await t.gql(READ, {}, guest.token))).toBe('ACCOUNT_REQUIRED');
    expect(codeOf(await t.gql(SET, { i: { email: ANNE, enabled: true, delayHours: 5 } }, anne))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(SET, { i: { email: 'Anne <anne@example.test>', enabled: true } }, anne))).toBe(
      'BAD_USER_INPUT',
    );
    expect(codeOf(await t.gql(SET, { i: { enabled: true } }, anne))).toBe('BAD_USER_INPUT');
    expect((await t.gql(READ, {}, anne)).data.reminderSettings).toEqual({
      email: null,
      confirmed: false,
      enabled: false,
      delayHours: REMINDERS.defaultDelayHours,
      dailyDigest: false,
    });
  });

  it('an address is confirmed through its link before anything else is sent to it', async () => {
    const set = await t.gql(SET, { i: { email: ANNE, enabled: true, delayHours: 4 } }, anne);
    expect(set.data.setReminders).toMatchObject({ email: ANNE, confirmed: false, enabled: true, dailyLimit: 10 });
    expect((await sweep(T0)).mailed).toBe(1);
    expect((await sweep(T0)).mailed).toBe(0); // one confirmation per address
    const [mail] = await inbox();
    expect(mail.subject).toMatch(/confirm/);
    const link = /(https:\/\/api\.example\.test\/reminders\/confirm\?token=\S+)/.exec(mail.text!)![1];
    expect((await rest('POST', '/unsubscribe', tokenOf(link))).status).toBe(403); // a confirm token is no unsubscribe token
    const page = await rest('GET', '/reminders/confirm', tokenOf(link));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect((await t.gql(READ, {}, anne)).data.reminderSettings.confirmed).toBe(false); // a GET changes nothing
    expect((await rest('POST', '/reminders/confirm', tokenOf(link))).status).toBe(200);
    expect((await t.gql(READ, {}, anne)).data.reminderSettings.confirmed).toBe(true);
  });

  it('one reminder per waiting turn, with the game link and RFC 8058 headers, however often the sweep runs', async () => {
    const game = await botGame(anne);
    expect((await sweep(at(4 * HOUR - 1000))).mailed).toBe(0);
    const runs = await Promise.all([sweep(at(4 * HOUR)), sweep(at(4 * HOUR)), sweep(at(4 * HOUR))]);
    expect(runs.reduce((n, r) => n + r.mailed, 0)).toBe(1);
    expect((await sweep(at(5 * HOUR))).mailed).toBe(0);
    const mails = await inbox();
    expect(mails).toHaveLength(2);
    const reminder = mails[1];
    expect(reminder.subject).toBe('Libertalia: your turn has waited 4 hours');
    expect(reminder.text).toContain(`https://play.example.test/#/game/${game}`);
    expect(unsubscribeUrl(reminder)).toMatch(/^https:\/\/api\.example\.test\/unsubscribe\?token=[\w.-]+$/);
    expect(reminder.headerLines.find((h) => h.key === 'list-unsubscribe-post')!.line).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
  });

  it(`at most ${REMINDERS.mailsPerDay} mails a player a day; the rest go the next day, once`, async () => {
    for (let i = 0; i < 12; i++) {
      clock = at(5 * HOUR);
      await botGame(anne);
    }
    expect((await sweep(at(9 * HOUR))).mailed).toBe(8); // 2 sent already today
    expect((await sweep(at(10 * HOUR))).mailed).toBe(0);
    expect(await inbox()).toHaveLength(REMINDERS.mailsPerDay); // all on 1 March
    expect((await sweep(at(16.5 * HOUR))).mailed).toBe(4); // 00:30 the next day
    expect((await sweep(at(17 * HOUR))).mailed).toBe(0);
    const links = (await inbox()).slice(1).map((m) => /#\/game\/(\S+)/.exec(m.text!)![1]);
    expect(new Set(links).size).toBe(13); // every waiting game reminded exactly once
  });

  it('the daily digest lists every game waiting, once a day', async () => {
    expect((await t.gql(SET, { i: { enabled: true, dailyDigest: true } }, anne)).data.setReminders.confirmed).toBe(
      true,
    );
    expect((await sweep(at(17.5 * HOUR))).mailed).toBe(1);
    expect((await sweep(at(18 * HOUR))).mailed).toBe(0);
    const digest = (await inbox()).at(-1)!;
    expect(digest.subject).toBe('Libertalia: 13 games waiting for you');
    expect(digest.text!.match(/https:\/\/play\.example\.test\/#\/game\//g)).toHaveLength(13);
    expect(unsubscribeUrl(digest)).toMatch(/^https:\/\/api\.example\.test\/unsubscribe\?token=/);
  });

  it('one-click unsubscribe works; a forged token is refused and changes nothing', async () => {
    const url = unsubscribeUrl((await inbox()).at(-1)!);
    const token = tokenOf(url);
    const forged = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}A`;
    expect((await rest('POST', '/unsubscribe', forged)).status).toBe(403);
    expect(
      (await rest('POST', '/unsubscribe', `${Buffer.from('unsubscribe').toString('base64url')}.x.x.x`)).status,
    ).toBe(403);
    expect((await t.gql(READ, {}, anne)).data.reminderSettings.enabled).toBe(true);
    expect((await rest('GET', '/unsubscribe', token)).status).toBe(200);
    expect((await t.gql(READ, {}, anne)).data.reminderSettings.enabled).toBe(true);
    const done = await rest('POST', '/unsubscribe', token);
    expect(done.status).toBe(200);
    expect(done.body).toContain('Reminders are off');
    expect((await t.gql(READ, {}, anne)).data.reminderSettings.enabled).toBe(false);
    expect((await sweep(at(40 * HOUR))).mailed).toBe(0);
  });
});
