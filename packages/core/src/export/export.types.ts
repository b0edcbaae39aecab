import { z } from 'zod';
import type { RequiredScope } from '../domain/scopes.ts';
import { StatusFilter, TagFilter, UpdatedAfterFilter } from '../projects/find-projects.types.ts';
import { optional, timestamp } from '../schemas/common.ts';
import type { Project } from '../schemas/project.ts';
import { queryObject } from '../schemas/query.ts';
import type { ExportHeader as ExportHeaderLine } from './export-header.ts';

/*
 * GET /api/export (docs/api.md#export-get-apiexport): the whole directory, or the list's filters of
 * it, as of one snapshot, streamed. Not a tRPC procedure (it streams); apps/server serves it
 * (export-route.ts) and the OpenAPI document describes it (openapi-export.ts), from these.
 */

export const EXPORT_PATH = '/api/export';
export const EXPORT_SCOPE = 'export' satisfies RequiredScope;
export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};

/** The response header that carries the export's change-feed cursor, in both formats. */
export const EXPORT_CURSOR_HEADER = 'X-Export-Cursor';

/** The list's filters (the same schemas: GET /api/projects), the format, and where to resume. */
export const ExportInput = queryObject({
  format: z.enum(EXPORT_FORMATS).default('ndjson').meta({ description: '`ndjson` (default) or `csv`' }),
  status: StatusFilter,
  tag: TagFilter,
  updatedAfter: UpdatedAfterFilter,
  after: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Invalid input: expected a project id' })
      .meta({ minLength: 1, maxLength: 64 }),
  ).meta({
    description:
      'Resume an interrupted export: the projects after this id (the last line received), from a new snapshot with its own cursor',
  }),
});
export type ExportInput = z.infer<typeof ExportInput>;

/**
 * A project line of an NDJSON export: the project as endpoint 2 answers it, and `aliases`, the
 * slugs that lead to it (of projects merged into it: endpoint 2 answers them 301), oldest first,
 * so that a restore keeps them (docs/operating.md#restore-from-an-export).
 */
export type ExportedProject = Project & { aliases: string[] };

/** The NDJSON export's first line. */
export const ExportHeader = z
  .object({
    type: z.literal('export'),
    version: z.literal(1),
    asOf: timestamp.meta({ description: 'When the snapshot was taken' }),
    cursor: z.string().meta({
      description:
        'The change feed position of the snapshot: GET /api/changes?after=<cursor> gives exactly the changes the export does not hold',
    }),
    count: z.int().min(0).meta({ description: 'How many project lines follow' }),
  })
  .meta({ description: 'The first line of an NDJSON export' });
// ExportHeader's type is written out in export-header.ts (the SDK's types carry no zod): checked here.
export type ExportHeader = ExportHeaderLine;
const _sameHeader: z.infer<typeof ExportHeader> extends ExportHeader
  ? ExportHeader extends z.infer<typeof ExportHeader>
    ? true
    : never
  : never = true;
void _sameHeader;

/** The CSV's columns, in order (its header row). tags and links: each joined by one space. */
export const CSV_COLUMNS = [
  'id',
  'slug',
  'name',
  'nameEn',
  'description',
  'descriptionEn',
  'status',
  'source',
  'createdAt',
  'updatedAt',
  'tags',
  'links',
  'stars',
  'downloads',
  'content',
  'contentEn',
] as const;
