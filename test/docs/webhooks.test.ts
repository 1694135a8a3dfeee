// docs/webhooks.md's verification example runs: the marked block is written to a module and
// checks deliveries signed by the service's own signing code (accepts a good one, refuses a
// changed body, a changed timestamp, an old timestamp and another secret).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signV2 } from '../../functions/api/notify/webhooks.js';
import { blocks, readPage } from './pages.js';

describe('docs/webhooks.md', () => {
  it('the verification example accepts what the service signs and refuses the rest', async () => {
    const md = readPage('docs/webhooks.md');
    const marker = '<!-- webhooks-test: verify -->';
    const at = md.split('\n').findIndex((l) => l.trim() === marker) + 2; // the fence's line, 1-based
    const block = blocks(md).find((b) => b.line === at);
    expect(block?.lang).toBe('js');
    const dir = mkdtempSync(join(tmpdir(), 'docs-webhooks-'));
    try {
      writeFileSync(join(dir, 'verify.mjs'), block!.code);
      const { verifyDelivery } = await import(pathToFileURL(join(dir, 'verify.mjs')).href);
      const secret = 'a-registration-secret';
      const body = JSON.stringify({ deliveryId: 'd1', playerId: 'p1', webhookId: 'w1', kind: 'yourTurn' });
      const now = Date.parse('2031-06-01T12:00:00Z');
      const t = String(now / 1000);
      const header = signV2(secret, t, body);
      expect(verifyDelivery(secret, body, header, now)).toMatchObject({ playerId: 'p1', webhookId: 'w1' });
      expect(verifyDelivery(secret, body.replace('p1', 'p2'), header, now)).toBeInstanceOf(Error);
      expect(verifyDelivery(secret, body, header.replace(`t=${t}`, `t=${Number(t) + 1}`), now)).toBeInstanceOf(Error);
      expect(verifyDelivery(secret, body, header, now + 301_000)).toBeInstanceOf(Error);
      expect(verifyDelivery('another-secret', body, header, now)).toBeInstanceOf(Error);
      expect(verifyDelivery(secret, body, undefined, now)).toBeInstanceOf(Error);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
