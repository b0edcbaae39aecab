import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';
import { LinkInput, Project, ProjectStatus, TagInput } from '../schemas/project.ts';

export const editProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'PATCH',
    path: '/api/projects/{slug}',
    protect: true,
    tags: ['projects'],
    summary: "Edit some of a project's fields",
    description:
      'Any subset of `name, nameEn, description, descriptionEn, content, contentEn, status, tags, links`, validated ' +
      'as in `POST /api/projects`; `null` clears an optional field (nameEn, descriptionEn, content, contentEn); ' +
      '`tags` and `links`, when given, replace the list (in the order given). Fields left out stay as they are. A ' +
      'lock does not hold back an edit (locks hold back crawlers). Send `If-Match` with the `ETag` of ' +
      '`GET /api/projects/{slug}`: 412 `Precondition Failed` when the project changed since (read it again, then ' +
      'decide). The answer is the project as endpoint 2 shows it, with its new `ETag`, and the revision stored ' +
      '(via "edit"; null when nothing changed). 404 for an unknown project; 409 when a link\'s url key belongs to ' +
      'another project (one detail per link, naming it), or for a merged slug.',
  },
  errors: ['NOT_FOUND', 'CONFLICT', 'PRECONDITION_FAILED'],
  examples: {
    request: { slug: ex.QWEN_SLUG, nameEn: 'Qwen', status: 'ACTIVE' },
    response: { success: true, data: ex.QWEN_PROJECT, revision: 6 },
  },
};

/** An optional field that `null` clears. */
const clearable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const EditProjectInput = z.object({
  slug: text(),
  name: text({ min: 1, max: 200 }).optional(),
  nameEn: clearable(text({ min: 1, max: 200 })),
  description: text({ min: 10, max: 500 }).optional(),
  descriptionEn: clearable(text({ min: 10, max: 500 })),
  content: clearable(text({ max: 10000 })),
  contentEn: clearable(text({ max: 10000 })),
  status: ProjectStatus.optional(),
  tags: z.array(TagInput).min(1).max(10).optional(),
  links: z.array(LinkInput).min(1).max(10).optional(),
});
export type EditProjectInput = z.infer<typeof EditProjectInput>;

export const EditProjectOutput = z.object({
  success: z.literal(true),
  data: Project,
  revision: count()
    .nullable()
    .meta({ description: 'The revision this edit stored (via "edit"); null when nothing changed' }),
});
