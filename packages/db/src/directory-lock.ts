import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DirectoryLock {
  release(): void;
}

/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it.
 * An exclusive lock file (created with O_EXCL) holds the directory for this process; a lock
 * left by a process that no longer runs (kill -9) is taken over.
 */
export function acquireDirectoryLock(dir: string): DirectoryLock {
  const path = join(dir, 'directory-server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        rmSync(path, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
        throw new Error(
          `The embedded database in ${dir} is in use by another process (pid ${holder}). ` +
            'PGlite allows one process per data directory: stop that process, use another ' +
            'pglite:<dir>, or point DATABASE_URL at a PostgreSQL server to run several processes.',
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database directory ${dir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
