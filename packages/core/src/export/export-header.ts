/**
 * The first line of an NDJSON export (docs/api.md#export-get-apiexport), as a plain type: the SDK's
 * types carry no zod. export.types.ts checks its schema against it.
 */
export interface ExportHeader {
  type: 'export';
  version: 1;
  /** When the snapshot was taken. */
  asOf: string;
  /** The change feed position of the snapshot: follow GET /api/changes?after=<cursor>. */
  cursor: string;
  /** How many project lines follow. */
  count: number;
}
