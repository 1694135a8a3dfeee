// The README's "Deploy to AWS" numbers are the ones the code and the stack use: the launch
// limits table (infra/limits.ts), the retention of finished games' logs, the lobby cache, the
// SDK's poll intervals and ping. Changing one without its README line fails `npm test`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOBBY_CACHE_MS } from '../../functions/api/lobby-cache.js';
import { RETENTION_DAYS } from '../../functions/api/retention.js';
import { API_THROTTLE, SWEEP_RESERVED_CONCURRENCY, TABLE_MAX_UNITS, TARGET_LIVE_GAMES, TARGET_REQUESTS_PER_SECOND } from '../../infra/limits.js';

const md = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const n = (x: number) => x.toLocaleString('en-US');
const limitsStart = md.indexOf('**Limits and how to raise them.**');
const limits = md.slice(limitsStart, md.indexOf('**Reads.**', limitsStart));
const row = (name: string) => {
  const line = limits.split('\n').find((l) => l.startsWith(`| ${name} |`));
  if (!line) throw new Error(`no README row "${name}"`);
  return line.split(' | ')[1];
};

describe('README "Deploy to AWS" says what the stack and the code do', () => {
  it('launch limits (infra/limits.ts)', () => {
    expect(limits).toContain(`**${n(TARGET_LIVE_GAMES)} live 4-player games at once**`);
    expect(limits).toContain(`**${Math.round(TARGET_REQUESTS_PER_SECOND)} requests/s**`);
    expect(row('HTTP API stage throttle (all routes)')).toBe(`rate ${n(API_THROTTLE.rateLimit)}/s, burst ${n(API_THROTTLE.burstLimit)}`);
    expect(row('Sweep reserved concurrency')).toBe(String(SWEEP_RESERVED_CONCURRENCY));
    expect(row('Table on-demand caps')).toBe(`${n(TABLE_MAX_UNITS.write)} WRU/s, ${n(TABLE_MAX_UNITS.read)} RRU/s`);
  });

  it('retention, lobby cache, SDK polling and ping', async () => {
    expect(md).toContain(`**\`RETENTION_DAYS\` = ${RETENTION_DAYS} days**`);
    expect(md).toContain(`\`LOBBY_CACHE_MS\` = ${LOBBY_CACHE_MS / 1000} s`);
    const sdk = await import('../../clients/typescript/src/watch.js').catch(() => null);
    // The SDK's generated module may not exist yet (git-ignored); its constants are also checked by test/clients/watch.test.ts.
    if (sdk) {
      expect(md).toContain(`${sdk.POLL_INTERVALS.yourTurnMs / 1000} s while it is the caller's turn or a bot is moving, ${sdk.POLL_INTERVALS.othersMs / 1000} s while others play, ${sdk.POLL_INTERVALS.correspondenceMs / 1000} s for games with`);
      expect(md).toContain(`{"action":"ping"} every ${sdk.PUSH_PING_MS / 60_000} minutes`);
    }
  });
});
