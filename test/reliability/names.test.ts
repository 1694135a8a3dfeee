// Issue 23, finding 6: a guest or a second account could look exactly like an existing account
// or a bot (U+3164 HANGUL FILLER, Armenian օ/ո, Cyrillic һ, Latin ɑ, small capitals ʙ/ᴏ,
// Cherokee Ᏼ), and a site user could take an account's name. Each spelling replayed against a
// held name by a guest, a second account and a site user: CONFLICT (or BAD_USER_INPUT for a
// filler), and the store unchanged (no player, no name item).
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCOPES } from '../../functions/api/accounts/auth.js';
import { codeOf, testApp } from '../setup/app.js';
import { testIssuer } from '../setup/tokens.js';

let t: Awaited<ReturnType<typeof testApp>>;
let idp: Awaited<ReturnType<typeof testIssuer>>;
beforeAll(async () => {
  idp = await testIssuer('https://names.example.test', 'libertalia');
  t = await testApp({ issuers: [idp.config] });
});
afterAll(() => t.close());

const REGISTER = `mutation($n: String!) { register(name: $n) { playerId } }`;
const SIGN_UP = `mutation($n: String!) { signUp(name: $n) { playerId } }`;
const ACT_AS = `mutation($u: String!, $n: String) { actAs(user: $u, name: $n) { playerId } }`;
const count = async () => (await t.client.send(new ScanCommand({ TableName: t.tableName, Select: 'COUNT' }))).Count;

it("look-alikes of an account's name are refused to guests, second accounts and site users; nothing is written", async () => {
  expect((await t.gql(REGISTER, { n: 'Anne Bonny' }, await idp.token({ sub: 'anne' }))).errors).toBeUndefined();
  expect((await t.gql(REGISTER, { n: 'Bob Hook' }, await idp.token({ sub: 'bob' }))).errors).toBeUndefined();
  const second = await idp.token({ sub: 'copycat' });
  const site = await idp.token({
    sub: 'site-x',
    client_id: 'site-x',
    scope: `${SCOPES.createGames} ${SCOPES.actForUsers}`,
  });
  const before = await count();
  const spellings: [string, string][] = [
    ['Anne\u3164Bonny', 'BAD_USER_INPUT'], // HANGUL FILLER for the space
    ['Anne Bonny\u3164', 'BAD_USER_INPUT'], // ... or at the end
    ['Anne B\u0585nny', 'CONFLICT'], // Armenian օ
    ['Anne Bo\u0578ny', 'CONFLICT'], // Armenian ո
    ['\u0251nne Bonny', 'CONFLICT'], // Latin ɑ
    ['Bob \u04bbook', 'CONFLICT'], // Cyrillic һ
    ['\u0299ob Hook', 'CONFLICT'], // small capital ʙ
    ['B\u1d0fb Hook', 'CONFLICT'], // small capital ᴏ
    ['\u13f4ob Hook', 'CONFLICT'], // Cherokee Ᏼ
    ['Anne Bonny', 'CONFLICT'], // the name itself: a site user may not take an account's name
  ];
  for (const [n, code] of spellings) {
    expect(codeOf(await t.gql(SIGN_UP, { n })), `guest ${n}`).toBe(code);
    expect(codeOf(await t.gql(REGISTER, { n }, second)), `account ${n}`).toBe(code);
    expect(codeOf(await t.gql(ACT_AS, { u: `user-${n}`, n }, site)), `site user ${n}`).toBe(code);
  }
  for (const n of ['\u0299ot Kidd', 'B\u1d0ft', '\u13f4ot'])
    expect(codeOf(await t.gql(SIGN_UP, { n })), n).toBe('BAD_USER_INPUT'); // bots' look-alikes
  expect(await count()).toBe(before);
  // an honest different name still works for each kind
  expect(codeOf(await t.gql(REGISTER, { n: 'Mary Read' }, second))).toBeUndefined();
  expect(codeOf(await t.gql(ACT_AS, { u: 'calico', n: 'Calico Jack' }, site))).toBeUndefined();
  expect(codeOf(await t.gql(SIGN_UP, { n: 'Ned Low' }))).toBeUndefined();
});
