import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  beginSnapshot,
  countExport,
  type Database,
  type ExportFilter,
  exportAliases,
  exportIds,
  findProjectDetailsByIds,
  type Kysely,
  readSnapshotFacts,
  tagIdsOfSlugs,
} from '@directory/db';
import { encodeCursor, feedCursor } from '../domain/cursor.ts';
import { exportPosition } from '../domain/export-cursor.ts';
import { AppError, issueDetails } from '../errors.ts';
import { iso } from '../schemas/common.ts';
import { toProject } from '../schemas/project.ts';
import { type ExportedProject, type ExportHeader, ExportInput } from './export.types.ts';

/** Projects read per query: a keyset page of ids, then their details, inside the one snapshot. */
export const EXPORT_CHUNK = 1_000;
/** How long an export tries for a snapshot with a cursor (docs/changes-and-webhooks.md#export-then-follow). */
const RETAKE_FOR_MS = 5_000;
const RETAKE_FIRST_MS = 5;
const RETAKE_MAX_MS = 200;

/** Seconds a refused export is told to wait (Retry-After). */
export const EXPORT_RETRY_AFTER_S = 5;

export const exportRunning = () =>
  new AppError('RATE_LIMITED', [
    `export: An export with this key is already running (one at a time per key); retry after ${EXPORT_RETRY_AFTER_S} s`,
  ]);
const noSeparatingSnapshot = () =>
  new AppError('UNAVAILABLE', [
    'export: Long transactions kept the export from a snapshot that the change feed can follow; retry after Retry-After seconds',
  ]);

/** What an export's caller knows of it: who it is for (a key's lineage, `(bootstrap)`), and what it asked. */
export interface ExportRequest {
  keyId: string;
  input: ExportInput;
}

/** An export as of one snapshot: its header, then its projects in id order. */
export interface ExportRun {
  header: ExportHeader;
  /** Chunks of projects in id order; the snapshot ends when they end, or when the walk is left. */
  chunks(): AsyncGenerator<ExportedProject[], void, void>;
  /** Ends the snapshot if it is still open (rollback: the export writes nothing). Safe to call again. */
  end(): Promise<void>;
}

/** A query string as the export's input: 400 in the envelope, naming each parameter, when it is not one. */
export function readExportInput(query: Record<string, unknown>): ExportInput {
  const parsed = ExportInput.safeParse(query);
  if (!parsed.success) throw new AppError('VALIDATION', issueDetails(parsed.error.issues, [], 'query'));
  return parsed.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens the export's snapshot: REPEATABLE READ, this key's export lock (429 when it is held),
 * and a cursor that separates the snapshot from the changes after it, retaking the snapshot
 * while none does (exportPosition), for 5 s at most (then 503).
 */
export async function openExport(db: Kysely<Database>, request: ExportRequest): Promise<ExportRun> {
  const { input } = request;
  const deadline = Date.now() + RETAKE_FOR_MS;
  let wait = RETAKE_FIRST_MS;
  for (;;) {
    const trx = await beginSnapshot(db);
    let open = true;
    const end = async () => {
      if (!open) return;
      open = false;
      await trx.rollback().execute();
    };
    try {
      const { locked, facts } = await readSnapshotFacts(trx, request.keyId);
      if (!locked) throw exportRunning();
      const position = exportPosition(facts);
      if (position.kind === 'retake') {
        await end();
        if (Date.now() + wait > deadline) throw noSeparatingSnapshot();
        await sleep(wait);
        wait = Math.min(RETAKE_MAX_MS, wait * 2);
        continue;
      }
      const tagIds = input.tag && input.tag.length > 0 ? await tagIdsOfSlugs(trx, input.tag) : [];
      const filter: ExportFilter = {
        status: input.status === 'ALL' ? undefined : input.status,
        tagIds: tagIds ?? [],
        // the list compares in milliseconds (its read model keeps milliseconds)
        updatedAfter:
          input.updatedAfter === undefined
            ? undefined
            : new Date(Date.parse(input.updatedAfter)).toISOString(),
        after: input.after,
      };
      // a tag slug that names no tag: nothing matches, as in the list
      const none = tagIds === undefined;
      const count = none ? 0 : await countExport(trx, filter);
      const header: ExportHeader = {
        type: 'export',
        version: 1,
        asOf: iso(facts.asOf),
        cursor: encodeCursor(feedCursor, position.at),
        count,
      };
      return {
        header,
        end,
        async *chunks() {
          try {
            let after = filter.after;
            while (!none && open) {
              const ids = await exportIds(trx, { ...filter, after }, EXPORT_CHUNK);
              if (ids.length === 0) break;
              const byId = new Map((await findProjectDetailsByIds(trx, ids)).map((r) => [r.id, r]));
              const aliases = await exportAliases(trx, ids);
              yield ids.flatMap((id) => {
                const row = byId.get(id);
                return row ? [{ ...toProject(row), aliases: aliases.get(id) ?? [] }] : [];
              });
              if (ids.length < EXPORT_CHUNK) break;
              after = ids[ids.length - 1];
              // other requests get the event loop between chunks
              await nextTurn();
            }
          } finally {
            await end();
          }
        },
      };
    } catch (err) {
      await end().catch(() => {});
      throw err;
    }
  }
}

/**
 * One export at a time per key in this process (on PGlite, the only process: its one connection
 * makes the database's advisory lock the same session's for every request), held for the whole
 * response, while the database's lock (readSnapshotFacts) holds across processes for the snapshot.
 */
export class ExportSlots {
  private readonly held = new Set<string>();
  /** True and taken when free; false when this key's export is running. */
  take(keyId: string): boolean {
    if (this.held.has(keyId)) return false;
    this.held.add(keyId);
    return true;
  }
  give(keyId: string): void {
    this.held.delete(keyId);
  }
}
