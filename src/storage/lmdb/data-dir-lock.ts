import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UnavailableError } from '../errors.js';

const LOCK_FILE = 'orch-store.lock';

/** Ownership of a data directory by one open store; release it on close. */
export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data directory for this store instance: the LMDB backend assigns revisions in
 * process (see RevisionWriter), so a second writer on the same directory must be refused. The
 * lock file holds the owner's pid and a per-instance token; a file left by a dead process (a
 * crash) is taken over. Throws UnavailableError when a live owner holds it.
 */
export function lockDataDir(dir: string): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const token = `${process.pid} ${Date.now()}-${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(path);
      if (owner !== undefined && isAlive(owner)) {
        const who = owner === process.pid ? 'another store instance in this process' : `process ${owner}`;
        throw new UnavailableError(`the data directory ${dir} is in use by ${who}`);
      }
      rmSync(path, { force: true });
      continue;
    }
    writeSync(fd, token);
    closeSync(fd);
    return {
      release() {
        // Only remove the file while it is still ours.
        try {
          if (readFileSync(path, 'utf8') === token) rmSync(path, { force: true });
        } catch {
          // Already gone.
        }
      },
    };
  }
  throw new UnavailableError(`could not take the lock of the data directory ${dir}`);
}

function readOwner(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').split(' ')[0], 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
