// Issue 23, finding 6: a guest or a second account could look exactly like an existing account
// or a bot (U+3164 HANGUL FILLER, Armenian օ/ո, Cyrillic һ, Latin ɑ, small capitals ʙ/ᴏ,
// Cherokee Ᏼ), and a site user could take an account's name. Each spelling replayed against a
// held name by a guest, a second account and a site user: CONFLICT (or BAD_USER_INPUT for a
// filler), and the store unchanged (no player, no name item).
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../functions/api/accounts/auth.js';
import { nameKey } from '../../functions/api/accounts/names.js';
import { codeOf, type GqlResult, type DynamoTestApp, testApp } from '../setup/app.js';
import { testIssuer } from '../setup/tokens.js';

let t: DynamoTestApp;
let idp: Awaited<ReturnType<typeof testIssuer>>;
beforeAll(async () => {
  idp = await testIssuer('https://names.example.test', 'libertalia');
  t = await testApp({ store: 'dynamodb', issuers: [idp.config] });
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

// Round 2: guests were not unique among themselves, nor "B1ll" a look-alike of "Bill". Every kind
// of player now claims its name's skeleton the same way (one NAME# item, one conditional put).
describe('one namespace for guests, accounts and site users', () => {
  const NAME_ITEM = (key: string) => ({ TableName: t.tableName, Key: { PK: `NAME#${key}`, SK: 'NAME' } });
  const nameItem = async (n: string) => (await t.client.send(new GetCommand(NAME_ITEM(nameKey(n))))).Item;
  const taken = (r: GqlResult) => {
    expect(codeOf(r)).toBe('CONFLICT');
    expect(r.errors![0].extensions!.reason).toBe('NAME_TAKEN');
  };

  it("a guest's name is refused to a second guest, an account and a site user, look-alikes and digit swaps too", async () => {
    const first = await t.gql(SIGN_UP, { n: 'Guest Bill' });
    expect(codeOf(first)).toBeUndefined();
    const site = await idp.token({ sub: 'site-g', client_id: 'site-g', scope: `${SCOPES.actForUsers}` });
    const before = await count();
    for (const n of ['Guest Bill', 'guest bill', 'GUEST BILL', 'Guest B1ll', 'Guest B|ll']) {
      taken(await t.gql(SIGN_UP, { n }));
      taken(await t.gql(REGISTER, { n }, await idp.token({ sub: `acct-${n}` })));
      taken(await t.gql(ACT_AS, { u: `u-${n}`, n }, site));
    }
    expect(await count()).toBe(before);
    expect((await nameItem('Guest Bill'))?.playerId).toBe(first.data.signUp.playerId);
  });

  it("an account's or a site user's name is refused to a guest (digit swaps: 0 for O, 1 for l)", async () => {
    expect(codeOf(await t.gql(REGISTER, { n: 'Olly Lowe' }, await idp.token({ sub: 'olly' })))).toBeUndefined();
    const site = await idp.token({ sub: 'site-h', client_id: 'site-h', scope: `${SCOPES.actForUsers}` });
    expect(codeOf(await t.gql(ACT_AS, { u: 'walt', n: 'Walt Mill' }, site))).toBeUndefined();
    const before = await count();
    for (const n of ['0lly L0we', 'O1ly Lowe', 'Wa1t Mi11', 'WALT MILL', 'Wa|t Mi||'])
      taken(await t.gql(SIGN_UP, { n }));
    expect(await count()).toBe(before);
  });

  it('guests racing for look-alike names: exactly one wins, the others are NAME_TAKEN', async () => {
    const spellings = ['Racing Ann', 'Racing Ann', 'RACING ANN', 'Rac1ng Ann', 'Racing \u0410nn', 'Racing Ann'];
    const answers = await Promise.all(spellings.map((n) => t.gql(SIGN_UP, { n })));
    const winners = answers.filter((r) => !r.errors);
    expect(winners).toHaveLength(1);
    for (const r of answers.filter((a) => a.errors)) taken(r);
    expect((await nameItem('Racing Ann'))?.playerId).toBe(winners[0].data.signUp.playerId);
  });

  it('a guest that signs out lets its name go at once; one that renames frees the old name', async () => {
    const g = (await t.gql(`mutation { signUp(name: "Leaving Lou") { token } }`)).data.signUp;
    expect(codeOf(await t.gql('mutation { signOut }', {}, g.token))).toBeUndefined();
    expect(await nameItem('Leaving Lou')).toBeUndefined();
    expect(codeOf(await t.gql(SIGN_UP, { n: 'Leaving Lou' }))).toBeUndefined();
    const r = (await t.gql(`mutation { signUp(name: "Renaming Ray") { token } }`)).data.signUp;
    expect(codeOf(await t.gql(`mutation { rename(name: "Renamed Ray") { name } }`, {}, r.token))).toBeUndefined();
    taken(await t.gql(SIGN_UP, { n: 'Renamed Ray' }));
    expect(codeOf(await t.gql(SIGN_UP, { n: 'Renaming Ray' }))).toBeUndefined();
  });
});

describe("a guest's claim lapses with its last refresh token; linking it to an account keeps it", () => {
  const DAY = 24 * 3600 * 1000;
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let c: DynamoTestApp;
  beforeAll(async () => {
    c = await testApp({ store: 'dynamodb', now: () => new Date(clock), issuers: [idp.config] });
  });
  afterAll(() => c.close());
  const signUp = (n: string) => c.gql(`mutation($n: String!) { signUp(name: $n) { token refreshToken } }`, { n });

  it('60 days after its last sign-up or refresh the name is free; a refresh moves that on; a linked guest holds it for good', async () => {
    expect(codeOf(await signUp('Idle Ida'))).toBeUndefined();
    const active = (await signUp('Active Al')).data.signUp;
    const linked = (await signUp('Linked Lea')).data.signUp;
    const account = await idp.token({ sub: 'lea-account', client_id: 'web' });
    expect(
      codeOf(await c.gql(`mutation($g: String!) { linkGuest(guestToken: $g) { kind } }`, { g: linked.token }, account)),
    ).toBeUndefined();
    clock += 50 * DAY;
    const refreshed = await c.gql(`mutation($r: String!) { refreshSession(refreshToken: $r) { token } }`, {
      r: active.refreshToken,
    });
    expect(codeOf(refreshed)).toBeUndefined();
    expect(codeOf(await signUp('Idle Ida'))).toBe('CONFLICT'); // still within its 60 days
    clock += 11 * DAY; // 61 days after the sign-ups, 11 after Al's refresh
    expect(codeOf(await signUp('Idle Ida'))).toBeUndefined(); // lapsed: its refresh token has expired too
    expect(codeOf(await signUp('Active Al'))).toBe('CONFLICT');
    expect(codeOf(await signUp('Linked Lea'))).toBe('CONFLICT');
  });
});
