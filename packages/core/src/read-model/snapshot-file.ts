import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { DatabaseInstance } from '@directory/db';
import { readState, SearchIndex, snapshotFingerprint, writeState } from '@directory/search';
import { BUFFER, FileSink, FileSource } from './snapshot-buffers.ts';

/*
 * The read model's snapshot on local disk (docs/search.md, "Restarts: the model's snapshot"):
 * the index (and with it the slugs) as it was at a position of the change feed, so that a process
 * starting again reads them in seconds and follows the feed from there, instead of reading
 * every project from the database and building the index again.
 *
 * The file: MAGIC, a JSON header (what it is, whose, at which position), then the state
 * (@directory/search persist.ts), then the SHA-256 of all before it. It is written to a new temporary
 * file (opened exclusively: never through a link planted in its place), synced and renamed over the
 * last one, so a reader finds a whole file or the previous one, never half of one; a file whose
 * checksum does not hold is neither loaded nor kept by the next save. The directory is 0700 and the
 * files 0600, whatever the umask (docs/operating.md#restarts-the-read-models-snapshot).
 */

const MAGIC = Buffer.from('DIRMODL1', 'latin1');
/**
 * Bumped when what the read model keeps beside the index changes meaning (2: the slugs are the
 * index's; 3: each project's standing, docs/search.md#signals-and-standing; 4: the checksum).
 */
export const SNAPSHOT_FORMAT = 4;
const CHECKSUM_BYTES = 32;
export const SNAPSHOT_FILE = 'read-model.snapshot';

export interface SnapshotHeader {
  format: number;
  /** The engine's fingerprint (snapshot-probe.ts). */
  engine: string;
  database: string;
  cluster: string;
  /** The model's horizon (position.ts): every transaction below it is in the state. */
  horizon: string;
  synonymsVersion: string;
  maxUpdated: number;
  projects: number;
  savedAt: string;
}

/** What is written after the header: read back into a fresh instance of this class. */
export class ModelState {
  constructor(public index: SearchIndex) {}
}

/** Why a snapshot is not loaded; undefined when it may be. */
export function rejectionOf(
  header: SnapshotHeader,
  db: DatabaseInstance,
  engine: string,
): string | undefined {
  if (header.format !== SNAPSHOT_FORMAT)
    return `it has format ${header.format}, this server ${SNAPSHOT_FORMAT}`;
  if (header.engine !== engine) return 'it was written by another version of the search engine';
  if (header.database !== db.id || header.cluster !== db.cluster) return 'it is of another database';
  if (BigInt(header.horizon) > db.xmax)
    return 'its position is ahead of the database (restored from an older copy?)';
  return undefined;
}

function readHeader(source: FileSource): SnapshotHeader {
  const magic = new Uint8Array(MAGIC.byteLength);
  source.read(magic);
  if (!MAGIC.equals(magic)) throw new Error('not a snapshot of the read model');
  const length = new Uint8Array(4);
  source.read(length);
  const json = Buffer.allocUnsafe(Buffer.from(length).readUInt32LE(0));
  source.read(json);
  return JSON.parse(json.toString('utf8')) as SnapshotHeader;
}

/**
 * Whether the file's checksum holds: its last 32 bytes are the SHA-256 of all before them. A
 * generator: it yields after each MiB read, so that a caller may give the event loop turns.
 */
function* checksumHolds(fd: number): Generator<void, boolean> {
  const size = fstatSync(fd).size;
  const body = size - CHECKSUM_BYTES;
  if (body < MAGIC.byteLength + 4) return false;
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(BUFFER);
  for (let at = 0; at < body; ) {
    const n = readSync(fd, buffer, 0, Math.min(BUFFER, body - at), at);
    if (n <= 0) return false;
    hash.update(buffer.subarray(0, n));
    at += n;
    yield;
  }
  const sum = Buffer.alloc(CHECKSUM_BYTES);
  return readSync(fd, sum, 0, CHECKSUM_BYTES, body) === CHECKSUM_BYTES && hash.digest().equals(sum);
}

/**
 * The header of the snapshot in `dir` when the file is whole (its checksum holds), else undefined
 * (none, unreadable, damaged or cut short). A generator, as checksumHolds.
 */
export function* verifySnapshot(dir: string): Generator<void, SnapshotHeader | undefined> {
  let fd: number | undefined;
  try {
    fd = openSync(join(dir, SNAPSHOT_FILE), 'r');
    const header = readHeader(new FileSource(fd));
    return (yield* checksumHolds(fd)) ? header : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads the snapshot in `dir` when `accept` (given its header) returns no reason against it:
 * `{state, header}`, or `{reason}` when there is none, it is refused or cannot be read.
 */
export function loadSnapshot(
  dir: string,
  accept: (header: SnapshotHeader) => string | undefined,
): { state: ModelState; header: SnapshotHeader } | { reason: string } {
  let fd: number;
  try {
    fd = openSync(join(dir, SNAPSHOT_FILE), 'r');
  } catch {
    return { reason: 'there is none' };
  }
  try {
    const source = new FileSource(fd);
    const header = readHeader(source);
    const reason = accept(header);
    if (reason) return { reason };
    const checks = checksumHolds(fd);
    let step = checks.next();
    while (!step.done) step = checks.next();
    if (!step.value) return { reason: 'it fails its checksum (damaged or cut short)' };
    const state = new ModelState(new SearchIndex());
    readState(source.read, state);
    return { state, header };
  } catch (err) {
    return { reason: `it cannot be read: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
}

/** Whether a process of this pid is running (a pid of another user's process counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of writes that never finished: a process killed while it wrote
 * (SIGKILL, out of memory, a stop shorter than the write) leaves one, named for its pid, that no
 * later process would remove (docs/operating.md#restarts-the-read-models-snapshot).
 */
function removeAbandoned(dir: string) {
  const prefix = `${SNAPSHOT_FILE}.`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length, -'.tmp'.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid))
      rmSync(join(dir, name), { force: true });
  }
}

/**
 * A new file of this process's own, 0600: opened exclusively (O_CREAT | O_EXCL), which never follows a
 * link. Whatever is at that name (a file a killed process of this pid left, a planted link) is
 * unlinked first — the link itself, never what it points to.
 */
function openNew(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    rmSync(path, { force: true });
    fd = openSync(path, 'wx', 0o600);
  }
  fchmodSync(fd, 0o600);
  return fd;
}

/**
 * Writes the state to `dir` (a temporary file, then renamed over the last snapshot). A
 * generator: it yields between fields, so that the caller may give the event loop turns.
 * Returns the bytes written.
 */
export function* saveSnapshot(
  dir: string,
  header: Omit<SnapshotHeader, 'format' | 'engine'>,
  state: ModelState,
): Generator<void, number> {
  const engine = snapshotFingerprint();
  if ('error' in engine) throw new Error(engine.error);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  removeAbandoned(dir);
  const temporary = join(dir, `${SNAPSHOT_FILE}.${process.pid}.tmp`);
  const fd = openNew(temporary);
  let closed = false;
  try {
    const sink = new FileSink(fd);
    const json = Buffer.from(
      JSON.stringify({ format: SNAPSHOT_FORMAT, engine: engine.fingerprint, ...header }),
    );
    const length = Buffer.allocUnsafe(4);
    length.writeUInt32LE(json.byteLength, 0);
    sink.write(MAGIC);
    sink.write(length);
    sink.write(json);
    yield* writeState(sink.write, state);
    sink.flush();
    writeSync(fd, sink.hash.digest());
    fsyncSync(fd);
    closeSync(fd);
    closed = true;
    renameSync(temporary, join(dir, SNAPSHOT_FILE));
    return sink.bytes;
  } finally {
    // a failure, or a caller that stopped the generator: no temporary file is left behind
    if (!closed) closeSync(fd);
    rmSync(temporary, { force: true });
  }
}
