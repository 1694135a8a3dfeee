// The CORS policy's headers (functions/api/http/cors.ts) for a configured list of origins: the
// API allows any origin today ('*'), but if the list is ever narrowed, an origin off the list must
// not be echoed back (echoing whatever `Origin` says would allow every site again).
import { describe, expect, it } from 'vitest';
import { CORS, corsHeaders, preflightHeaders } from '../../../functions/api/http/cors.js';

const LIST = ['https://play.example', 'https://site.example'];

describe('CORS headers for a list of allowed origins', () => {
  it('echo an origin on the list, with Vary: Origin', () => {
    const h = corsHeaders('https://site.example', LIST);
    expect(h['access-control-allow-origin']).toBe('https://site.example');
    expect(h.vary).toBe('Origin');
    expect(h['access-control-expose-headers']?.split(',')).toEqual([...CORS.exposeHeaders]);
  });

  it('allow no origin off the list (look-alike hosts, other schemes and ports, "null"), still saying Vary: Origin', () => {
    for (const origin of [
      'https://evil.example',
      'https://site.example.evil.example',
      'http://site.example',
      'https://site.example:8443',
      'null',
    ]) {
      const h = corsHeaders(origin, LIST);
      expect(h['access-control-allow-origin'], origin).toBeUndefined();
      expect(h['access-control-expose-headers'], origin).toBeUndefined();
      expect(h.vary, origin).toBe('Origin');
    }
    expect(preflightHeaders('https://evil.example', LIST)['access-control-allow-origin']).toBeUndefined();
  });

  it('say Vary: Origin on a same-origin answer too (a cache must not serve it cross-origin)', () => {
    expect(corsHeaders(undefined, LIST)).toEqual({ vary: 'Origin' });
  });

  it('with "*" (the policy today): "*" for any origin, nothing for same-origin calls', () => {
    expect(CORS.allowOrigins).toEqual(['*']);
    expect(corsHeaders('https://evil.example')['access-control-allow-origin']).toBe('*');
    expect(corsHeaders(undefined)).toEqual({});
    expect(preflightHeaders('https://evil.example')['access-control-allow-origin']).toBe('*');
  });
});
