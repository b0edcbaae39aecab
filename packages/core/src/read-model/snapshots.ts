import { type Database, type Kysely, readDatabaseInstance } from '@directory/db';
import { snapshotFingerprint } from '@directory/search';
import {
  loadSnapshot,
  type ModelState,
  rejectionOf,
  type SnapshotHeader,
  saveSnapshot,
  verifySnapshot,
} from './snapshot-file.ts';
import { nextPass } from './turns.ts';

/*
 * When the read model reads and writes its snapshot (docs/search.md, "Restarts: the model's
 * snapshot"): at start, the snapshot of READ_MODEL_SNAPSHOT_DIR is loaded when it is of this
 * database, of this engine and reachable by the feed (the read model then follows the feed
 * from its position before it answers); it is written every READ_MODEL_SNAPSHOT_INTERVAL_S
 * when the model changed, and when the server stops.
 */

export interface SnapshotSettings {
  dir: string;
  /** How often a changed model is written again; 0: only when the server stops. */
  intervalMs: number;
  /** A line for the log: what was loaded, written or refused, and why; `warn` for a failed write. */
  log?: (message: string, fields: Record<string, unknown>, level?: 'info' | 'warn') => void;
}

/** What the model gives to be written: read when the write begins, inside `exclusive`. */
export interface SnapshotSubject {
  state: ModelState;
  horizon: bigint;
  synonymsVersion: string;
  maxUpdated: number;
  projects: number;
}

/** The longest the event loop is held by a snapshot being written before it gets a turn. */
const SLICE_MS = 20;

/** Runs `steps` to its end, giving the event loop a turn every SLICE_MS. */
async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let slice = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - slice > SLICE_MS) {
      await nextPass();
      slice = performance.now();
    }
  }
}

export class Snapshots {
  private writing: Promise<void> | undefined;

  constructor(
    private readonly settings: SnapshotSettings,
    private readonly db: Kysely<Database>,
  ) {}

  private log(message: string, fields: Record<string, unknown> = {}, level: 'info' | 'warn' = 'info') {
    this.settings.log?.(message, { dir: this.settings.dir, ...fields }, level);
  }

  get intervalMs(): number {
    return this.settings.intervalMs;
  }

  /** The snapshot to start from, or undefined (the reason logged). */
  async load(): Promise<{ state: ModelState; header: SnapshotHeader } | undefined> {
    const engine = snapshotFingerprint();
    if ('error' in engine) {
      this.log('read model snapshots are off', { reason: engine.error });
      return undefined;
    }
    const started = performance.now();
    const instance = await readDatabaseInstance(this.db);
    const loaded = loadSnapshot(this.settings.dir, (h) => rejectionOf(h, instance, engine.fingerprint));
    if ('reason' in loaded) {
      this.log('read model snapshot not used; building from the database', { reason: loaded.reason });
      return undefined;
    }
    const seconds = Math.round(performance.now() - started) / 1000;
    this.log('read model snapshot loaded', {
      projects: loaded.header.projects,
      savedAt: loaded.header.savedAt,
      seconds,
    });
    return loaded;
  }

  /**
   * Writes a snapshot of what `subject` gives, inside `exclusive` (no apply changes the model
   * meanwhile), giving the event loop a turn every SLICE_MS. Skipped when the snapshot on disk
   * is of this database and engine at this position or later (another process wrote it).
   */
  save(
    exclusive: (fn: () => Promise<void>) => Promise<void>,
    subject: () => SnapshotSubject,
  ): Promise<boolean> {
    // a save under way took its subject before this call: this one has not been written
    if (this.writing) return this.writing.then(() => false);
    let saved = false;
    this.writing = exclusive(async () => {
      const s = subject();
      const engine = snapshotFingerprint();
      if ('error' in engine) return;
      const instance = await readDatabaseInstance(this.db);
      // a snapshot on disk that fails its checksum is written over, whatever its header says
      const onDisk = await inSlices(verifySnapshot(this.settings.dir));
      if (
        onDisk &&
        !rejectionOf(onDisk, { ...instance, xmax: BigInt(onDisk.horizon) }, engine.fingerprint) &&
        BigInt(onDisk.horizon) >= s.horizon &&
        onDisk.synonymsVersion === s.synonymsVersion
      ) {
        saved = true;
        return;
      }
      const started = performance.now();
      s.state.index.prepare();
      const header = {
        database: instance.id,
        cluster: instance.cluster,
        horizon: String(s.horizon),
        synonymsVersion: s.synonymsVersion,
        maxUpdated: s.maxUpdated,
        projects: s.projects,
        savedAt: new Date().toISOString(),
      };
      const bytes = await inSlices(saveSnapshot(this.settings.dir, header, s.state));
      const seconds = Math.round(performance.now() - started) / 1000;
      this.log('read model snapshot written', { projects: s.projects, bytes, seconds });
      saved = true;
    })
      .catch((err: unknown) =>
        this.log('cannot write the read model snapshot', { error: (err as Error).message }, 'warn'),
      )
      .finally(() => {
        this.writing = undefined;
      });
    return this.writing.then(() => saved);
  }
}
