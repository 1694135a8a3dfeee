// The local OpenID Provider's entries in the service table (functions/store/oidc.ts): read back
// as written, never after their expiry, found by uid, and gone with their grant or account.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDynamoOidcStore, type OidcStore } from '../../functions/store/index.js';
import { freshTable } from '../setup/db.js';

let store: OidcStore;
beforeAll(async () => {
  store = createDynamoOidcStore(await freshTable('oidc'));
});
afterEach(() => vi.useRealTimers());

describe('the provider store', () => {
  it('an entry is read back until it expires, and not after (even if the table still holds it)', async () => {
    await store.put('Interaction', 'i1', { uid: 'u1', kind: 'Interaction' }, 60);
    expect((await store.get('Interaction', 'i1'))?.payload).toEqual({ uid: 'u1', kind: 'Interaction' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await store.get('Interaction', 'i1')).toBeNull();
    vi.useRealTimers();
    // Deleted at that read: nothing comes back when the clock is right again either.
    expect(await store.get('Interaction', 'i1')).toBeNull();
  });

  it('a session is found by its uid; a consumed code says so', async () => {
    await store.put('Session', 's1', { uid: 'su1', accountId: 'anne@example.test' }, 600);
    expect((await store.getByUid('su1'))?.payload).toMatchObject({ accountId: 'anne@example.test' });
    await store.put('AuthorizationCode', 'c1', { grantId: 'g0' }, 60);
    await store.consume('AuthorizationCode', 'c1');
    expect((await store.get('AuthorizationCode', 'c1'))?.consumed).toBeGreaterThan(0);
  });

  it("revoking a grant deletes its tokens; revoking an account deletes its grants, their tokens and its sessions, not another account's", async () => {
    await store.put('Grant', 'g1', { accountId: 'mary@example.test' }, 600);
    await store.put('RefreshToken', 'r1', { grantId: 'g1', accountId: 'mary@example.test' }, 600);
    await store.put('Session', 's2', { uid: 'su2', accountId: 'mary@example.test' }, 600);
    await store.put('Grant', 'g2', { accountId: 'jack@example.test' }, 600);
    await store.put('RefreshToken', 'r2', { grantId: 'g2', accountId: 'jack@example.test' }, 600);
    await store.revokeAccount('mary@example.test');
    for (const [m, id] of [
      ['Grant', 'g1'],
      ['RefreshToken', 'r1'],
      ['Session', 's2'],
    ])
      expect(await store.get(m, id)).toBeNull();
    expect(await store.getByUid('su2')).toBeNull();
    expect(await store.get('RefreshToken', 'r2')).not.toBeNull();
    await store.revokeGrant('g2');
    expect(await store.get('RefreshToken', 'r2')).toBeNull();
  });
});
