// The docs' AWS numbers are the ones the code and the stack use: the launch limits table of
// docs/aws.md (infra/limits.ts), the retention of finished games' logs and the lobby cache
// (docs/storage.md), the SDK's poll intervals and ping (docs/correspondence.md), and the four
// functions the stack deploys. Changing one without its docs line fails `npm test`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOBBY_CACHE_MS } from '../../functions/api/lobby/lobby-cache.js';
import { RETENTION_DAYS } from '../../functions/api/ops/retention.js';
import { outboxAgeMs } from '../../functions/api/notify/notices.js';
import {
  API_THROTTLE,
  SWEEP_RESERVED_CONCURRENCY,
  TABLE_MAX_UNITS,
  TARGET_LIVE_GAMES,
  TARGET_REQUESTS_PER_SECOND,
} from '../../infra/limits.js';
import { APP_CONTEXT, CONTEXT_SETTINGS } from '../../infra/context.js';
import { readPage, ROOT } from './pages.js';

const md = readPage('docs/aws.md');
const storage = readPage('docs/storage.md');
const correspondence = readPage('docs/correspondence.md');
const n = (x: number) => x.toLocaleString('en-US');
const limitsStart = md.indexOf('**Limits and how to raise them.**');
const limits = md.slice(limitsStart, md.indexOf('\n**', limitsStart + 5));
const row = (name: string) => {
  const line = limits.split('\n').find((l) => l.startsWith(`| ${name} |`));
  if (!line) throw new Error(`no docs/aws.md row "${name}"`);
  return line.split(' | ')[1];
};

describe('the docs say what the stack and the code do', () => {
  it('launch limits (infra/limits.ts)', () => {
    expect(limits).toContain(`**${n(TARGET_LIVE_GAMES)} live 4-player games at once**`);
    expect(limits).toContain(`**${Math.round(TARGET_REQUESTS_PER_SECOND)} requests/s**`);
    expect(row('HTTP API stage throttle (all routes)')).toBe(
      `rate ${n(API_THROTTLE.rateLimit)}/s, burst ${n(API_THROTTLE.burstLimit)}`,
    );
    expect(row('Sweep reserved concurrency')).toBe(String(SWEEP_RESERVED_CONCURRENCY));
    expect(row('Table on-demand caps')).toBe(`${n(TABLE_MAX_UNITS.write)} WRU/s, ${n(TABLE_MAX_UNITS.read)} RRU/s`);
  });

  it('every -c setting of infra/context.ts is in the table of docs/aws.md, and nothing else is', () => {
    const start = md.indexOf('### Every -c setting');
    const table = md.slice(start, md.indexOf('\n### ', start + 5));
    const firstColumns = table
      .split('\n')
      .filter((l) => l.startsWith('| `-c '))
      .map((l) => l.split(' | ')[0]);
    const documented = firstColumns.flatMap((c) => [...c.matchAll(/`-c (\w+)=/g)].map((m) => m[1])).sort();
    expect(documented).toEqual([...Object.keys(CONTEXT_SETTINGS), ...APP_CONTEXT].sort());
  });

  it('retention, lobby cache, SDK polling and ping', async () => {
    expect(storage).toContain(`**\`RETENTION_DAYS\` = ${RETENTION_DAYS} days**`);
    expect(storage).toContain(`\`LOBBY_CACHE_MS\` = ${LOBBY_CACHE_MS / 1000} s`);
    // The notice outbox's age before the sweep re-sends (storage.md, aws.md, the README's flow).
    const minutes = outboxAgeMs() / 60_000;
    expect(storage).toContain(`longer than ${minutes} minutes (\`resendOutboxes\``);
    expect(readPage('README.md')).toContain(`notices left in outboxes over ${minutes} minutes`);
    const sdk = await import('../../clients/typescript/src/watch.js').catch(() => null);
    // The SDK's generated module may not exist yet (git-ignored); its constants are also checked by test/clients/watch.test.ts.
    if (sdk) {
      expect(correspondence).toContain(
        `${sdk.POLL_INTERVALS.yourTurnMs / 1000} s while it is the caller's turn or a bot is moving, ${sdk.POLL_INTERVALS.othersMs / 1000} s while others play, ${sdk.POLL_INTERVALS.correspondenceMs / 1000} s for games with`,
      );
      expect(correspondence).toContain(`{"action":"ping"} every ${sdk.PUSH_PING_MS / 60_000} minutes`);
    }
  });
});

describe('the functions the stack deploys', () => {
  const infra = readdirSync(join(ROOT, 'infra'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(ROOT, 'infra', f), 'utf8'))
    .join('\n');
  const entries = [...infra.matchAll(/entry: '(functions\/handlers\/[\w-]+\.ts)'/g)].map((m) => m[1]);
  const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

  it('docs/aws.md counts them, and the README names each entry point', () => {
    expect(entries.length).toBe([...infra.matchAll(/new ServiceFunction\(/g)].length);
    expect(md).toContain(`**${words[entries.length]} Lambda functions**`);
    const readme = readPage('README.md');
    for (const entry of entries) expect(readme, entry).toContain(entry);
  });
});
