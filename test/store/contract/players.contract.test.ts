// The Players port and the operations on players (scans, name keys), on both adapters:
// sign-up once, updates and the token version, refresh rotation, identities, unique names whose
// guest claims lapse, fixed-window counters and bounded sets exact under concurrent writers.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlayerRecord, Store } from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';
import { allPages, uid } from './ids.js';

const AT = '2024-01-01T00:00:00.000Z';
const NOW = 1_800_000_000;

describe.each(ADAPTERS)('players on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });
  const player = async (over: Partial<PlayerRecord> = {}): Promise<PlayerRecord> => {
    const p = { id: uid('p'), name: 'Anne Bonny', createdAt: AT, ...over };
    expect(await store.players.insertPlayer(p)).toBe(true);
    return p;
  };

  describe('records', () => {
    it('signs a player up once and reads back a copy', async () => {
      const p = { id: uid('p'), name: 'Anne Bonny', createdAt: AT };
      expect(await store.players.insertPlayer(p)).toBe(true);
      expect(await store.players.insertPlayer({ ...p, name: 'other' })).toBe(false);
      p.name = 'changed by the caller';
      const read = await store.players.getPlayer(p.id);
      expect(read).toEqual({ ...p, name: 'Anne Bonny' });
      read!.name = 'changed again';
      expect((await store.players.getPlayer(p.id))!.name).toBe('Anne Bonny');
      expect(await store.players.getPlayer('nobody')).toBeNull();
    });

    it('updates the fields given (undefined ones untouched), bumps the token version, and answers null for nobody', async () => {
      const p = await player({ kind: 'guest' });
      const a = await store.players.updatePlayer(p.id, { name: 'Mary Read', kind: undefined });
      expect(a).toEqual({ ...p, name: 'Mary Read' });
      const b = await store.players.updatePlayer(p.id, { revokedAt: NOW }, { bumpTokenVersion: true });
      expect(b).toEqual({ ...p, name: 'Mary Read', revokedAt: NOW, tokenVersion: 1 });
      const c = await store.players.updatePlayer(p.id, {}, { bumpTokenVersion: true });
      expect(c!.tokenVersion).toBe(2);
      expect(await store.players.getPlayer(p.id)).toEqual(c);
      expect(await store.players.updatePlayer('nobody', { name: 'x' })).toBeNull();
      expect(await store.players.getPlayer('nobody')).toBeNull(); // not created by the update
    });

    it('rotates the refresh token once per token: ok, then reused; revoked once the version moved on', async () => {
      const p = await player();
      expect(await store.players.rotateRefresh(p.id, 0, null, 'j1')).toBe('ok');
      expect(await store.players.rotateRefresh(p.id, 0, null, 'j2')).toBe('reused');
      const racers = await Promise.all(['a', 'b', 'c'].map((j) => store.players.rotateRefresh(p.id, 0, 'j1', j)));
      expect(racers.filter((r) => r === 'ok')).toHaveLength(1);
      expect(racers.filter((r) => r === 'reused')).toHaveLength(2);
      const won = ['a', 'b', 'c'][racers.indexOf('ok')];
      expect((await store.players.getPlayer(p.id))!.refreshJti).toBe(won);
      await store.players.updatePlayer(p.id, {}, { bumpTokenVersion: true });
      expect(await store.players.rotateRefresh(p.id, 0, won, 'next')).toBe('revoked');
      expect(await store.players.rotateRefresh(p.id, 1, won, 'next')).toBe('ok');
      expect(await store.players.rotateRefresh('nobody', 0, null, 'x')).toBe('unknown');
    });
  });

  describe('identities and names', () => {
    it('ties an identity to one player once', async () => {
      const subject = uid('sub');
      expect(await store.players.getIdentity('https://issuer.test', subject)).toBeNull();
      expect(await store.players.putIdentity('https://issuer.test', subject, 'p1', AT)).toBe(true);
      expect(await store.players.putIdentity('https://issuer.test', subject, 'p2', AT)).toBe(false);
      expect(await store.players.getIdentity('https://issuer.test', subject)).toBe('p1');
      expect(await store.players.getIdentity('site:other', subject)).toBeNull();
    });

    it('a name is held by one player; the holder may claim it again; only the holder releases it', async () => {
      const name = uid('name');
      expect(await store.players.claimName(name, 'anne', { now: NOW })).toBe(true);
      expect(await store.players.claimName(name, 'mary', { now: NOW })).toBe(false);
      expect(await store.players.claimName(name, 'anne', { now: NOW })).toBe(true);
      expect(await store.players.getNameClaim(name)).toEqual({ nameKey: name, playerId: 'anne' });
      expect(await store.players.releaseName(name, 'mary')).toBe(false);
      expect(await store.players.releaseName(name, 'anne')).toBe(true);
      expect(await store.players.releaseName(name, 'anne')).toBe(false);
      expect(await store.players.getNameClaim(name)).toBeNull();
      expect(await store.players.claimName(name, 'mary', { now: NOW })).toBe(true);
    });

    it('of many players claiming one name at once, exactly one wins', async () => {
      const name = uid('race');
      const who = Array.from({ length: 10 }, (_, i) => `racer${i}`);
      const won = await Promise.all(who.map((p) => store.players.claimName(name, p, { now: NOW })));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await store.players.getNameClaim(name))!.playerId).toBe(who[won.indexOf(true)]);
    });

    it("a guest's claim lapses after its expiresAt (then it is free, though still read back); renewing moves the lapse", async () => {
      const name = uid('guest');
      expect(await store.players.claimName(name, 'guest', { now: NOW, expiresAt: NOW + 100 })).toBe(true);
      expect(await store.players.claimName(name, 'other', { now: NOW + 100 })).toBe(false); // at the time: still held
      expect(await store.players.renewName(name, 'other', NOW + 500)).toBe(false);
      expect(await store.players.renewName(name, 'guest', NOW + 500)).toBe(true);
      expect(await store.players.claimName(name, 'other', { now: NOW + 200 })).toBe(false);
      expect(await store.players.getNameClaim(name)).toEqual({
        nameKey: name,
        playerId: 'guest',
        expiresAt: NOW + 500,
      });
      // Lapsed: nothing deleted it, but another player may take it (permanently).
      expect(await store.players.claimName(name, 'other', { now: NOW + 501 })).toBe(true);
      expect(await store.players.getNameClaim(name)).toEqual({ nameKey: name, playerId: 'other' });
      expect(await store.players.renewName(name, 'other', NOW + 900)).toBe(false); // a permanent claim has no lapse
      expect(await store.players.renewName(uid('none'), 'other', NOW)).toBe(false);
    });

    it('a lapsed claim is still answered by getNameClaim and released by its holder', async () => {
      const name = uid('lapsed');
      await store.players.claimName(name, 'guest', { now: NOW, expiresAt: NOW - 1 });
      expect(await store.players.getNameClaim(name)).toEqual({ nameKey: name, playerId: 'guest', expiresAt: NOW - 1 });
      expect(await store.players.releaseName(name, 'guest')).toBe(true);
    });
  });

  describe('counters and sets on the player', () => {
    it('a bounded set admits exactly max members under concurrent adds', async () => {
      const p = await player({ name: 'Set Keeper' });
      const added = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.players.addToPlayerSet(p.id, 'held', `m${i}`, 4)),
      );
      expect(added.filter(Boolean)).toHaveLength(4);
      const held = await store.players.listPlayerSet(p.id, 'held');
      expect(held.sort()).toEqual(added.flatMap((ok, i) => (ok ? [`m${i}`] : [])).sort());
      expect(await store.players.addToPlayerSet(p.id, 'held', held[0], 4)).toBe(true); // already there: no change
      await store.players.removeFromPlayerSet(p.id, 'held', held[0]);
      await store.players.removeFromPlayerSet(p.id, 'held', held[0]); // idempotent
      expect(await store.players.listPlayerSet(p.id, 'held')).toHaveLength(3);
      expect(await store.players.addToPlayerSet(p.id, 'held', 'again', 4)).toBe(true);
      expect(await store.players.addToPlayerSet(p.id, 'held', 'over', 4)).toBe(false);
      expect(await store.players.addToPlayerSet(p.id, 'held', 'uncapped')).toBe(true);
      expect(await store.players.addToPlayerSet('nobody', 'held', 'x', 4)).toBe(false);
      expect(await store.players.listPlayerSet('nobody', 'held')).toEqual([]);
      expect(await store.players.getPlayer(p.id)).toEqual(p); // the profile is unchanged
    });

    it('a set emptied by removals takes members again up to max; sets are apart from each other', async () => {
      const p = await player();
      await store.players.addToPlayerSet(p.id, 'a', 'x', 1);
      expect(await store.players.addToPlayerSet(p.id, 'b', 'y', 1)).toBe(true);
      await store.players.removeFromPlayerSet(p.id, 'a', 'x');
      expect(await store.players.listPlayerSet(p.id, 'a')).toEqual([]);
      expect(await store.players.addToPlayerSet(p.id, 'a', 'z', 1)).toBe(true);
      expect(await store.players.addToPlayerSet(p.id, 'a', 'w', 1)).toBe(false);
      expect(await store.players.listPlayerSet(p.id, 'b')).toEqual(['y']);
      await store.players.removeFromPlayerSet('nobody', 'a', 'x'); // no player: nothing to do
    });

    it('a counter counts concurrent first uses of a window exactly', async () => {
      const p = await player({ name: 'Counter' });
      const ok = await Promise.all(
        Array.from({ length: 10 }, () => store.players.countOnPlayer(p.id, 'made', '2024-01-01T10', 6)),
      );
      expect(ok.filter(Boolean)).toHaveLength(6);
      expect(await store.players.countOnPlayer(p.id, 'made', '2024-01-01T10', 6)).toBe(false); // at max
      expect(await store.players.countOnPlayer(p.id, 'made', '2024-01-01T11', 6)).toBe(true); // a new window
      expect(await store.players.countOnPlayer(p.id, 'other', '2024-01-01T11', 1)).toBe(true); // its own count
      expect(await store.players.countOnPlayer(p.id, 'other', '2024-01-01T11', 1)).toBe(false);
    });

    it('a counter at max 1 admits one of racing first uses; max 0 admits none; no player, no count', async () => {
      const p = await player();
      const ok = await Promise.all(Array.from({ length: 6 }, () => store.players.countOnPlayer(p.id, 'one', 'w', 1)));
      expect(ok.filter(Boolean)).toHaveLength(1);
      expect(await store.players.countOnPlayer(p.id, 'zero', 'w', 0)).toBe(false);
      expect(await store.players.countOnPlayer(p.id, 'zero', 'w', 0)).toBe(false);
      expect(await store.players.countOnPlayer('nobody', 'one', 'w', 5)).toBe(false);
      expect(await store.players.getPlayer('nobody')).toBeNull();
    });
  });

  describe('maintenance', () => {
    it('scans every player and every name claim in pages (none over the limit), and sets a name key only if unchanged', async () => {
      const fresh = await adapter.make();
      const ids = Array.from({ length: 7 }, (_, i) => `scan${i}`);
      for (const id of ids) await fresh.players.insertPlayer({ id, name: `Name ${id}`, createdAt: AT });
      for (const id of ids.slice(0, 5)) await fresh.players.claimName(`key-${id}`, id, { now: NOW });
      await fresh.players.addToPlayerSet('scan0', 'held', 'g1'); // not a player of its own
      const players = await allPages(3, async (c) => {
        const p = await fresh.ops.scanPlayers(3, c);
        return { items: p.players, cursor: p.cursor };
      });
      expect(players.items.map((p) => p.id).sort()).toEqual(ids);
      expect(players.items.find((p) => p.id === 'scan3')).toEqual({ id: 'scan3', name: 'Name scan3', createdAt: AT });
      const claims = await allPages(2, async (c) => {
        const p = await fresh.ops.scanNameClaims(2, c);
        return { items: p.claims, cursor: p.cursor };
      });
      expect(claims.items.sort((a, b) => a.nameKey.localeCompare(b.nameKey))).toEqual(
        ids.slice(0, 5).map((id) => ({ nameKey: `key-${id}`, playerId: id })),
      );
      expect(await fresh.ops.setNameKey('scan0', 'Name scan0', null, 'k1')).toBe(true);
      expect(await fresh.ops.setNameKey('scan0', 'Name scan0', null, 'k2')).toBe(false); // the key moved on
      expect(await fresh.ops.setNameKey('scan0', 'Name scan0', 'k1', 'k2')).toBe(true);
      expect(await fresh.ops.setNameKey('scan0', 'Renamed', 'k2', 'k3')).toBe(false); // the name changed
      expect(await fresh.ops.setNameKey('nobody', 'x', null, 'k')).toBe(false);
      expect((await fresh.players.getPlayer('scan0'))!.nameKey).toBe('k2');
    });
  });
});
