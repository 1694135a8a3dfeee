// The local OpenID Provider's store on both adapters: entries read back as written, never after
// their expiry (even while still held), found by uid, and gone with their grant or account.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OidcStore } from '../../../functions/store/index.js';
import { OIDC_ADAPTERS } from './adapters.js';

/** Moves the clock `seconds` on for the store's reads (Date only: timers and I/O run as usual). */
const later = (seconds: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + seconds * 1000);
};

describe.each(OIDC_ADAPTERS)('the provider store on $name', (adapter) => {
  let store: OidcStore;
  beforeAll(async () => {
    store = await adapter.make();
  });
  afterEach(() => vi.useRealTimers());

  it('an entry is read back until it expires, and not after (even if the table still holds it)', async () => {
    await store.put('Interaction', 'i1', { uid: 'u1', kind: 'Interaction' }, 60);
    expect((await store.get('Interaction', 'i1'))?.payload).toEqual({ uid: 'u1', kind: 'Interaction' });
    later(61);
    expect(await store.get('Interaction', 'i1')).toBeNull();
    vi.useRealTimers();
    // Deleted at that read: nothing comes back when the clock is right again either.
    expect(await store.get('Interaction', 'i1')).toBeNull();
  });

  it('an entry lives at least a second, and is read back as JSON (a copy: the caller cannot change it)', async () => {
    const payload = { nested: { list: [1, 2] }, at: new Date(0), gone: undefined };
    await store.put('Session', 'short', payload, 0.2);
    payload.nested.list.push(3);
    const read = await store.get('Session', 'short');
    expect(read).toEqual({ payload: { nested: { list: [1, 2] }, at: '1970-01-01T00:00:00.000Z' } });
    (read!.payload.nested as { list: number[] }).list.push(4);
    expect((await store.get('Session', 'short'))!.payload.nested).toEqual({ list: [1, 2] });
    later(2);
    expect(await store.get('Session', 'short')).toBeNull();
  });

  it('a session is found by its uid until it expires; a consumed code says so; put again, it is fresh', async () => {
    await store.put('Session', 's1', { uid: 'su1', accountId: 'anne@example.test' }, 600);
    expect((await store.getByUid('su1'))?.payload).toMatchObject({ accountId: 'anne@example.test' });
    expect(await store.getByUid('nobody')).toBeNull();
    await store.put('AuthorizationCode', 'c1', { grantId: 'g0' }, 60);
    expect((await store.get('AuthorizationCode', 'c1'))?.consumed).toBeUndefined();
    await store.consume('AuthorizationCode', 'c1');
    expect((await store.get('AuthorizationCode', 'c1'))?.consumed).toBeGreaterThan(0);
    await store.consume('AuthorizationCode', 'none'); // nothing to consume: no entry made
    expect(await store.get('AuthorizationCode', 'none')).toBeNull();
    await store.put('AuthorizationCode', 'c1', { grantId: 'g0' }, 60);
    expect((await store.get('AuthorizationCode', 'c1'))?.consumed).toBeUndefined();
    later(601);
    expect(await store.getByUid('su1')).toBeNull();
  });

  it('a deleted entry is gone, its uid finds nothing', async () => {
    await store.put('Session', 's9', { uid: 'su9' }, 600);
    await store.delete('Session', 's9');
    await store.delete('Session', 's9'); // idempotent
    expect(await store.get('Session', 's9')).toBeNull();
    expect(await store.getByUid('su9')).toBeNull();
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
    expect(await store.get('Grant', 'g2')).not.toBeNull();
    await store.revokeGrant('g2');
    expect(await store.get('RefreshToken', 'r2')).toBeNull();
    expect(await store.get('Grant', 'g2')).not.toBeNull(); // the grant's own entry is the account's to end
    await store.revokeGrant('g2'); // nothing left: no error
    await store.revokeAccount('nobody@example.test');
  });
});
