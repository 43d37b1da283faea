// One process at a time on the embedded database (PGlite in DATA_DIR): the server and the careplane
// commands that open it take this lock file, and refuse clearly while a live process holds it.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'careplane.lock';

export interface LockOwner {
  pid: number;
  purpose: string;
  startedAt: string;
}

export class EmbeddedDatabaseBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by ${owner.purpose} (process ${owner.pid}, since ${owner.startedAt}). ` +
        'Only one process may open it: stop that process first, or use PostgreSQL (DATABASE_URL) to share one database.',
    );
    this.name = 'EmbeddedDatabaseBusy';
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number') return undefined;
    return {
      pid: owner.pid,
      purpose: String(owner.purpose ?? 'another process'),
      startedAt: String(owner.startedAt ?? 'unknown'),
    };
  } catch {
    return undefined;
  }
}

/** The live holder of the lock, if any (a lock left by a dead process does not count). */
export function embeddedDatabaseOwner(dataDir: string): LockOwner | undefined {
  const owner = readOwner(path.join(dataDir, LOCK_FILE));
  return owner && alive(owner.pid) ? owner : undefined;
}

/** Takes the lock or throws EmbeddedDatabaseBusy; a lock of a process that is gone is taken over. */
export function lockEmbeddedDatabase(dataDir: string, purpose: string): { release: () => void } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, purpose, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          if (readOwner(file)?.pid === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readOwner(file);
      if (holder && alive(holder.pid)) throw new EmbeddedDatabaseBusy(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
