import { csvRecord } from '../domain/csv.ts';
import type { Project } from '../schemas/project.ts';
import { CSV_COLUMNS, type ExportedProject, type ExportHeader } from './export.types.ts';

/*
 * What an export writes (docs/api.md#export-get-apiexport). A project line is the project exactly
 * as endpoint 2 answers it (its `data`): the same row read (findProjectDetailsByIds) and the same
 * renderer (toProject), serialised as the REST adapter serialises it; then its `aliases`.
 */

/** The NDJSON header line: its fields in this order. */
export const headerLine = (h: ExportHeader): string =>
  `${JSON.stringify({ type: 'export', version: 1, asOf: h.asOf, cursor: h.cursor, count: h.count })}\n`;

/** One NDJSON project line. */
export const projectLine = (project: ExportedProject): string => `${JSON.stringify(project)}\n`;

/** The CSV's header row. */
export const csvHeaderRow = (): string => csvRecord(CSV_COLUMNS);

/** One CSV row: tag slugs and link URLs each joined by one space (neither can hold a space). */
export function csvRow(p: Project): string {
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | null> = {
    id: p.id,
    slug: p.slug,
    name: p.name,
    nameEn: p.nameEn,
    description: p.description,
    descriptionEn: p.descriptionEn,
    status: p.status,
    source: p.source,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    tags: p.tags.map((t) => t.slug).join(' '),
    links: p.links.map((l) => l.url).join(' '),
    stars: p.signals?.stars ?? null,
    downloads: p.signals?.downloads ?? null,
    content: p.content,
    contentEn: p.contentEn,
  };
  return csvRecord(CSV_COLUMNS.map((c) => values[c]));
}
