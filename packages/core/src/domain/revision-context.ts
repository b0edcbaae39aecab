import type { RevisionVia } from '@directory/db';

/** What the revisions of one write record beside the project: the path it took and who asked. */
export interface RevisionContext {
  via: RevisionVia;
  actor: string | null;
  /** The task whose completion wrote the project (via "complete"). */
  taskId?: string | null | undefined;
  /**
   * false: store no revisions. Only the benchmark's baseline (bench/history.ts, "with revisions
   * against without") sets it; no request can.
   */
  record?: false | undefined;
}
