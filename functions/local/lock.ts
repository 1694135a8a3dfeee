// One local server per data folder: LevelDB (dynalite) allows one process per folder, and a
// second `npm start` on the same folder used to die later with "Database is closed". A lock
// file with the owner's pid says so at once, in one line; a lock left by a process that is gone
// (a crash, kill -9) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An error `npm start` prints as one line (no stack) before exiting. */
export class StartError extends Error {
  override name = 'StartError';
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the data folder's lock; returns its release. StartError if a live process holds it. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new StartError(
          `the data folder ${dataDir} is already open by another local server (pid ${owner}): stop it, or start this one with DATA_DIR=<another folder> or --in-memory`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new StartError(`could not lock the data folder ${dataDir}`);
}
