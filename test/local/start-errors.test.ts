// `npm start` fails in one clear line when it cannot start: the port is taken, or the data
// folder is open in another local server. Nothing is left behind (the lock is released).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { lockDataDir, StartError } from '../../functions/local/lock.js';
import { startLocal } from '../../functions/local/server.js';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'libertalia-start-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a port in use is a one-line StartError that names the port and the fix', async () => {
  const squatter = createServer();
  await new Promise<void>((ok) => squatter.listen(0, '127.0.0.1', ok));
  const { port } = squatter.address() as { port: number };
  const dataDir = folder();
  try {
    const started = startLocal({
      port,
      dataDir,
      oidc: false,
      tableName: `port-${randomUUID().slice(0, 8)}`,
      sweepIntervalMs: 0,
    });
    const error = await started.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartError);
    const message = (error as StartError).message;
    expect(message).toContain(`port ${port}`);
    expect(message).toContain('already in use');
    expect(message).toContain('PORT=');
    expect(message).not.toContain('\n');
    // the failed start released the data folder: the next start may take it
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
  } finally {
    await new Promise<void>((ok) => squatter.close(() => ok()));
  }
});

it('a data folder open in another local server is a one-line StartError naming the owner', () => {
  const dataDir = folder();
  const release = lockDataDir(dataDir);
  try {
    expect(() => lockDataDir(dataDir)).toThrow(StartError);
    try {
      lockDataDir(dataDir);
    } catch (e) {
      const message = (e as Error).message;
      expect(message).toContain(`pid ${process.pid}`);
      expect(message).toContain('DATA_DIR=');
      expect(message).not.toContain('\n');
    }
  } finally {
    release();
  }
  // released: it can be taken again
  lockDataDir(dataDir)();
});

it('a second npm start on the same folder stops before touching the store', async () => {
  const dataDir = folder();
  const release = lockDataDir(dataDir);
  try {
    const error = await startLocal({ port: 0, dataDir, sweepIntervalMs: 0, oidc: false }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartError);
    expect((error as Error).message).toContain('already open by another local server');
  } finally {
    release();
  }
});

it('a lock left by a process that is gone (a crash) is taken over', () => {
  const dataDir = folder();
  // a pid no process has: above the kernel's maximum
  writeFileSync(join(dataDir, 'server.lock'), '4194305');
  const release = lockDataDir(dataDir);
  release();
  expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
});
