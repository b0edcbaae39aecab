import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';
import { LinkConflictsInput, SkippedLinks } from './link-conflicts.types.ts';

export const restoreProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'POST',
    path: '/api/projects/deleted/{id}/restore',
    protect: true,
    tags: ['history'],
    summary: 'Bring a deleted project back, exactly as it was',
    description:
      'The project returns under its id, slug and creation time, with the fields, tags, links (under their ids) and ' +
      'lock it had when it was deleted; a new revision records it (action "created", via "restore"). Tasks that ' +
      'pointed at it are not re-pointed. 404 when no deleted project has this id (or its revisions were pruned); 409 ' +
      'when it is not deleted, when its slug is taken (by a project, or as the alias a merge left), or when one of ' +
      "its links' url keys now belongs to another project (one detail per link, naming it) unless `links` is " +
      '"skip". A project that was merged is not restored: 409 `Project "<slug>" was merged into "<target>"` with ' +
      '`location` (the target).',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { id: ex.QWEN_ID, links: 'skip' },
    response: { success: true, data: ex.QWEN_PROJECT, revision: 5, skipped: [] },
  },
};

export const RestoreProjectInput = z.object({ id: text({ min: 1, max: 200 }), links: LinkConflictsInput });

export const RestoreProjectOutput = z.object({
  success: z.literal(true),
  data: Project,
  revision: count().meta({ description: 'The revision the restore stored' }),
  skipped: SkippedLinks,
});
