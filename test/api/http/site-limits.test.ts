// Limits for sites (issue 26): a site's client bucket is sized for all its users and set per
// client, the bucket that ran out is named, and every answer carries the rate-limit state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimiters, RATES, rateHeaders, siteRatesFromEnv } from '../../../functions/api/http/ratelimit.js';
import { ApiError } from '../../../functions/api/errors.js';
import { testApp } from '../../setup/app.js';

const site = { player: { id: 'p1' } as never, clientId: 'acme' };
const refused = (f: () => void): ApiError => {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('site buckets', () => {
  it("give a site many players' worth of reads, shared by its users, and name the bucket that ran out", () => {
    let now = 0;
    const limiters = createLimiters({}, () => now);
    // 30 users of one site, each reading its player burst: the site bucket (600) holds them all.
    for (let u = 0; u < 30; u++)
      limiters.read.check([`player:u${u}`, 'client:acme'], 'reads per player', RATES.read.burst);
    const e = refused(() => limiters.read.check(['player:u99', 'client:acme'], 'reads per player', 1));
    expect(e.code).toBe('RATE_LIMITED');
    expect(e.details.bucket).toBe('read:client');
    expect(e.message).toMatch(/per site \(client acme, all its users together\)/);
    // A single user over its own burst is named as the player's bucket.
    now = 10_000_000;
    limiters.read.check(['player:solo', 'client:acme'], 'reads per player', RATES.read.burst);
    expect(
      refused(() => limiters.read.check(['player:solo', 'client:acme'], 'reads per player', 1)).details.bucket,
    ).toBe('read:player');
  });

  it('takes per-client overrides (SITE_RATE_LIMITS) and refuses a bad one', () => {
    const sites = siteRatesFromEnv({
      SITE_RATE_LIMITS: JSON.stringify({ big: { read: { perSecond: 1000, burst: 5000 } } }),
    });
    const limiters = createLimiters({ sites }, () => 0);
    expect(limiters.read.rateOf('client:big')).toEqual({ perSecond: 1000, burst: 5000 });
    expect(limiters.read.rateOf('client:other')).toEqual(RATES.siteRead);
    expect(limiters.write.rateOf('client:big')).toEqual(RATES.siteWrite);
    expect(limiters.read.rateOf('player:x')).toEqual(RATES.read);
    expect(() => siteRatesFromEnv({ SITE_RATE_LIMITS: '{"x":{"read":{"perSecond":0,"burst":1}}}' })).toThrow(
      /perSecond > 0/,
    );
  });

  it('shows the tightest bucket in the headers', () => {
    const limiters = createLimiters({}, () => 0);
    limiters.read.check(['player:p1', 'client:acme'], 'reads per player', 15);
    expect(rateHeaders(limiters, site, 'read', 0)).toEqual({
      'x-ratelimit-limit': '20',
      'x-ratelimit-remaining': '5',
      'x-ratelimit-reset': '3',
      'x-ratelimit-resource': 'read:player',
    });
  });
});

describe('rate-limit state on every answer', () => {
  let t: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    t = await testApp({ rateLimits: {} });
  });
  afterAll(() => t.close());

  it('sends x-ratelimit-* headers and answers Query.rateLimit', async () => {
    const a = await t.signUp('Pacer');
    const contextValue = await t.app.context({ authorization: `Bearer ${a.token}` });
    const r = await t.app.apollo.executeOperation(
      { query: '{ rateLimit { bucket limit remaining perSecond resetAt } }' },
      { contextValue },
    );
    expect(r.http.headers.get('x-ratelimit-resource')).toBe('read:player');
    expect(Number(r.http.headers.get('x-ratelimit-limit'))).toBe(RATES.read.burst);
    expect(Number(r.http.headers.get('x-ratelimit-remaining'))).toBeLessThan(RATES.read.burst);
    const body =
      r.body.kind === 'single'
        ? (r.body.singleResult.data as {
            rateLimit: { bucket: string; limit: number; remaining: number; perSecond: number }[];
          })
        : null;
    expect(body!.rateLimit.map((b) => b.bucket)).toEqual(['read:player', 'write:player']);
    expect(body!.rateLimit[0]).toMatchObject({ limit: RATES.read.burst, perSecond: RATES.read.perSecond });
    const rest = await t.app.rest({
      method: 'GET',
      path: '/games/none/events',
      query: {},
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(rest.status).toBe(404);
    const ok = await t.app.rest({ method: 'GET', path: '/health', query: {}, headers: {} });
    expect(ok.status).toBe(200);
  });
});
