// The Community port on both adapters: ratings and stats written on their version and once per
// game among the newest it remembers (APPLIED_KEPT, COUNTED_KEPT), the rated-game marker that
// holds, the leaderboard best first and the histories newest first, paged by cursors of the
// shape the API checks, pages never overlapping or skipping an entry.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  APPLIED_KEPT,
  COUNTED_KEPT,
  type PlayedRecord,
  type RatedGameMarker,
  type RatingHistoryRecord,
  type RatingRecord,
  type StatsRecord,
  type Store,
} from '../../../functions/store/index.js';
import { ADAPTERS } from './adapters.js';
import { allPages, uid } from './ids.js';

const AT = '2024-01-01T00:00:00.000Z';

const rating = (playerId: string, over: Partial<RatingRecord> = {}): RatingRecord => ({
  playerId,
  edition: 'classic',
  mu: 25,
  sigma: 8,
  games: 1,
  wins: 0,
  applied: ['g1'],
  v: 1,
  updatedAt: AT,
  ordinal: 1,
  ...over,
});

const stats = (playerId: string, over: Partial<StatsRecord> = {}): StatsRecord => ({
  playerId,
  edition: 'classic',
  played: 1,
  won: 0,
  characters: { '3': 1 },
  counted: ['g1'],
  v: 1,
  ...over,
});

const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString();

describe.each(ADAPTERS)('community on $name', (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.make();
  });

  describe('versioned writes', () => {
    it('a rating is created once, then written only at its version and not twice for one game', async () => {
      const p = uid('p');
      expect(await store.community.getRating(p, 'classic')).toBeNull();
      expect(await store.community.putRating(rating(p), 0, 'g1')).toBe(true);
      expect(await store.community.putRating(rating(p, { mu: 99 }), 0, 'g1')).toBe(false);
      expect(await store.community.getRating(p, 'classic')).toEqual(rating(p));
      const next = rating(p, { v: 2, applied: ['g1', 'g2'], games: 2 });
      expect(await store.community.putRating(next, 2, 'g2')).toBe(false); // not at that version
      expect(await store.community.putRating({ ...next, applied: ['g1'] }, 1, 'g1')).toBe(false); // g1 applied
      expect(await store.community.putRating(next, 1, 'g2')).toBe(true);
      expect(await store.community.getRating(p, 'classic')).toEqual(next);
      expect(await store.community.putRating(rating(uid('p')), 1, 'g1')).toBe(false); // no item at version 1
      expect(await store.community.getRating(p, 'galecrest')).toBeNull();
    });

    it('of racing writers at one version exactly one wins', async () => {
      const p = uid('p');
      await store.community.putRating(rating(p), 0, 'g1');
      const writers = Array.from({ length: 6 }, (_, i) => rating(p, { v: 2, applied: ['g1', `r${i}`], mu: 20 + i }));
      const won = await Promise.all(writers.map((w, i) => store.community.putRating(w, 1, `r${i}`)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await store.community.getRating(p, 'classic')).toEqual(writers[won.indexOf(true)]);
      const p2 = uid('p');
      const firsts = [0, 1, 2, 3].map((i) => stats(p2, { played: i }));
      const made = await Promise.all(firsts.map((s) => store.community.putStats(s, 0, 'g1')));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await store.community.getStats(p2, 'classic')).toEqual(firsts[made.indexOf(true)]);
    });

    it(`a game is guarded while among the newest ${APPLIED_KEPT} applied (and ${COUNTED_KEPT} counted), not after`, async () => {
      const p = uid('p');
      const games = Array.from({ length: APPLIED_KEPT + 1 }, (_, i) => `old${i}`);
      const kept = games.slice(-APPLIED_KEPT); // as the API trims: the first game fell out
      await store.community.putRating(rating(p, { applied: kept }), 0, kept[kept.length - 1]);
      expect(await store.community.putRating(rating(p, { v: 2 }), 1, kept[0])).toBe(false);
      expect(await store.community.putRating(rating(p, { v: 2 }), 1, games[0])).toBe(true);
      const counted = Array.from({ length: COUNTED_KEPT }, (_, i) => `c${i}`);
      await store.community.putStats(stats(p, { counted }), 0, counted[0]);
      expect(await store.community.putStats(stats(p, { v: 2 }), 1, counted[COUNTED_KEPT - 1])).toBe(false);
      expect(await store.community.putStats(stats(p, { v: 2 }), 1, 'fresh')).toBe(true);
      expect((await store.community.getStats(p, 'classic'))!.v).toBe(2);
    });

    it('stats are written like ratings: created once, then at their version only, read back as written', async () => {
      const p = uid('p');
      expect(await store.community.getStats(p, 'classic')).toBeNull();
      const s = stats(p);
      expect(await store.community.putStats(s, 0, 'g1')).toBe(true);
      s.characters['3'] = 99; // the caller's object is not the stored one
      expect(await store.community.getStats(p, 'classic')).toEqual(stats(p));
      expect(await store.community.putStats(stats(p, { v: 2, counted: ['g1', 'g2'] }), 2, 'g2')).toBe(false);
      expect(await store.community.putStats(stats(p, { v: 2, counted: ['g1', 'g2'] }), 1, 'g2')).toBe(true);
      expect((await store.community.getStats(p, 'classic'))!.counted).toEqual(['g1', 'g2']);
    });

    it('a rating deleted starts again from nothing', async () => {
      const p = uid('p');
      await store.community.putRating(rating(p), 0, 'g1');
      await store.community.deleteRating(p, 'classic');
      await store.community.deleteRating(p, 'classic'); // idempotent
      expect(await store.community.getRating(p, 'classic')).toBeNull();
      expect(await store.community.putRating(rating(p, { mu: 30 }), 0, 'g1')).toBe(true);
    });
  });

  describe('rated-game markers', () => {
    const marker = (gameId: string, over: Partial<RatedGameMarker> = {}): RatedGameMarker => ({
      gameId,
      edition: 'classic',
      players: ['a', 'b'],
      ranking: [1, 0],
      before: [
        { mu: 25, sigma: 8 },
        { mu: 26, sigma: 7 },
      ],
      endedAt: AT,
      ...over,
    });

    it('the first claim holds; every later or racing claim answers it; a deleted marker is claimed anew', async () => {
      const g = uid('g');
      expect(await store.community.claimRatedGame(marker(g))).toEqual(marker(g));
      expect(await store.community.claimRatedGame(marker(g, { ranking: [0, 1] }))).toEqual(marker(g));
      const g2 = uid('g');
      const racers = Array.from({ length: 5 }, (_, i) => marker(g2, { players: [`x${i}`, 'y'] }));
      const answers = await Promise.all(racers.map((m) => store.community.claimRatedGame(m)));
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(racers.map((r) => JSON.stringify(r))).toContain(JSON.stringify(answers[0]));
      await store.community.deleteRatedGame(g);
      expect(await store.community.claimRatedGame(marker(g, { ranking: [0, 1] }))).toEqual(
        marker(g, { ranking: [0, 1] }),
      );
    });
  });

  describe('paged lists', () => {
    it('lists the leaderboard best first (ties by player id), in pages that neither overlap nor skip; other editions apart', async () => {
      const fresh = await adapter.make();
      const ordinals = [5, -3.5, 12, 0, 5, 7.25, -20, 12, 3, 1, 9, 5, 0.000001, 30, -1, 2, 4, 6, 8, 10, 11, 13, 14];
      const rated = ordinals.map((o, i) => rating(`lb${String(i).padStart(2, '0')}`, { ordinal: o, mu: o }));
      for (const r of rated) await fresh.community.putRating(r, 0, 'g1');
      await fresh.community.putRating(rating('lbx', { edition: 'galecrest', ordinal: 100 }), 0, 'g1');
      const best = [...rated].sort((a, b) => b.ordinal - a.ordinal || b.playerId.localeCompare(a.playerId));
      const cursors: string[] = [];
      const all = await allPages(5, async (c) => {
        const page = await fresh.community.listLeaderboard('classic', 5, c);
        if (page.cursor) cursors.push(page.cursor);
        return page;
      });
      expect(all.items).toEqual(best);
      expect(all.pages).toBe(5);
      for (const c of cursors) expect(c).toMatch(/^\d{10}#lb\d\d$/);
      expect((await fresh.community.listLeaderboard('classic', 23)).cursor).toBeNull();
      expect((await fresh.community.listLeaderboard('galecrest', 5)).items.map((r) => r.playerId)).toEqual(['lbx']);
      await fresh.community.deleteRating(best[0].playerId, 'classic');
      expect((await fresh.community.listLeaderboard('classic', 1)).items).toEqual([best[1]]);
      // A rating that changes moves on the board.
      const low = best[best.length - 1];
      await fresh.community.putRating({ ...low, v: 2, ordinal: 99, applied: ['g1', 'g9'] }, 1, 'g9');
      expect((await fresh.community.listLeaderboard('classic', 1)).items[0].playerId).toBe(low.playerId);
    });

    it("lists a player's rating history newest first, in pages of the size asked, each entry once; an entry written again stays one", async () => {
      const p = uid('p');
      const entries: RatingHistoryRecord[] = Array.from({ length: 7 }, (_, i) => ({
        gameId: `h${i}`,
        endedAt: day(i),
        place: 1 + (i % 3),
        players: 3,
        ordinal: i,
        mu: 25 + i,
        sigma: 8,
      }));
      for (const h of entries) await store.community.putRatingHistory(p, 'classic', h);
      await store.community.putRatingHistory(p, 'classic', entries[2]); // idempotent
      await store.community.putRatingHistory(p, 'galecrest', { ...entries[0], gameId: 'other' });
      for (const limit of [1, 2, 3, 6, 7, 8]) {
        const cursors: string[] = [];
        const all = await allPages(limit, async (c) => {
          const page = await store.community.listRatingHistory(p, 'classic', limit, c);
          expect(page.items.length === limit || page.cursor === null).toBe(true);
          if (page.cursor) cursors.push(page.cursor);
          return page;
        });
        expect(all.items).toEqual([...entries].reverse());
        expect(all.pages).toBe(Math.max(1, Math.ceil(entries.length / limit)));
        for (const c of cursors) expect(c).toMatch(/^RATED#classic#.+#h\d$/);
      }
      expect((await store.community.listRatingHistory(p, 'galecrest', 5)).items.map((h) => h.gameId)).toEqual([
        'other',
      ]);
      expect(await store.community.listRatingHistory(uid('nobody'), 'classic', 5)).toEqual({ items: [], cursor: null });
    });

    it("lists a player's finished games newest first, in pages of the size asked, each game once", async () => {
      const p = uid('p');
      const played: PlayedRecord[] = Array.from({ length: 5 }, (_, i) => ({
        gameId: `pg${i}`,
        edition: i % 2 ? 'galecrest' : 'classic',
        endedAt: day(10 - i),
        place: 1,
        players: 4,
        conceded: i === 3,
      }));
      for (const x of played) await store.community.putPlayed(p, x);
      await store.community.putPlayed(p, played[0]);
      await store.community.putRatingHistory(p, 'classic', { ...played[0], ordinal: 1, mu: 1, sigma: 1 });
      for (const limit of [1, 2, 4, 5]) {
        const cursors: string[] = [];
        const all = await allPages(limit, async (c) => {
          const page = await store.community.listPlayed(p, limit, c);
          expect(page.items.length === limit || page.cursor === null).toBe(true);
          if (page.cursor) cursors.push(page.cursor);
          return page;
        });
        expect(all.items).toEqual(played);
        for (const c of cursors) expect(c).toMatch(/^PLAYED#.+#pg\d$/);
      }
    });
  });
});
