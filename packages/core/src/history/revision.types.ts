import type { RevisionSummaryRow } from '@directory/db';
import { z } from 'zod';
import * as ex from '../examples.ts';
import { count, timestamp } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';

/** A revision without its project (lists). */
export const RevisionSummary = z
  .object({
    projectId: z.string(),
    revision: count().meta({ description: '1, 2, … per project' }),
    at: timestamp,
    action: z.enum(['created', 'updated', 'deleted']),
    via: z.enum([
      'upsert',
      'complete',
      'merge',
      'revert',
      'restore',
      'delete',
      'lock',
      'edit',
      'tag-merge',
      'import-restore',
      'tag-unmerge',
    ]),
    source: z.string().nullable().meta({ description: "The project's `source` as this write left it" }),
    taskId: z
      .string()
      .nullable()
      .meta({ description: 'The task whose completion wrote it (via "complete")' }),
    actor: z.string().nullable().meta({
      description:
        'The `X-Directory-Actor` header of the request, else the name of the named key that made it',
    }),
    key: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .meta({ description: 'The named key that made it (its name then); null: the bootstrap key' }),
    slug: z.string(),
    name: z.string(),
    nameEn: z.string().nullable(),
    merged: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'A merge\'s revision of the project kept (via "merge", action "updated"): the slugs of the projects ' +
          'merged into it. Absent on every other revision',
      }),
    summary: z.string().nullable().meta({
      description: 'Why: the `X-Directory-Summary` header of the request that made it, else null',
    }),
    warnings: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'The warnings of the upsert or complete that made it (as its answer gave them: found by slug only while its ' +
          "CODEHOST/WEBSITE links differed from the stored project's). Absent on every other revision",
      }),
  })
  .meta({ id: 'RevisionSummary' });

export const Revision = RevisionSummary.extend({
  project: Project.meta({
    description: 'The project as endpoint 2 showed it after this write (for a delete: just before it)',
  }),
}).meta({ id: 'Revision' });

export function toRevisionSummary(row: RevisionSummaryRow): z.infer<typeof RevisionSummary> {
  return {
    projectId: row.project_id,
    revision: row.revision,
    at: row.at.toISOString(),
    action: row.action,
    via: row.via,
    source: row.source,
    taskId: row.task_id,
    actor: row.actor,
    key: row.key_id === null ? null : { id: row.key_id, name: row.key_name ?? '' },
    slug: row.slug,
    name: row.name,
    nameEn: row.name_en,
    ...(row.merged && { merged: row.merged }),
    summary: row.summary,
    ...(row.warnings && { warnings: row.warnings }),
  };
}

export const EXAMPLE_REVISION = {
  projectId: ex.QWEN_ID,
  revision: 2,
  at: '2026-11-25T09:30:12.345Z',
  action: 'updated',
  via: 'complete',
  source: 'crawler',
  taskId: ex.TASK_ID,
  actor: 'crawler-7',
  key: { id: 'k3v9q2m8x1c4b7n5z6', name: 'crawler-fleet' },
  slug: ex.QWEN_SLUG,
  name: ex.QWEN_INPUT.name,
  nameEn: ex.QWEN_INPUT.nameEn,
  summary: 'Filled in from the project page',
} as const;
