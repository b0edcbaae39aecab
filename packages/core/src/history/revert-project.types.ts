import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, MAX_INT, text } from '../schemas/common.ts';
import { Project } from '../schemas/project.ts';
import { LinkConflictsInput, SkippedLinks } from './link-conflicts.types.ts';

export const revertProjectMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'POST',
    path: '/api/projects/{slug}/revert',
    protect: true,
    tags: ['history'],
    summary: "Make a project that revision's content again",
    description:
      "The project's fields, status, source, tags and links become exactly those of revision `revision` (links under " +
      'their recorded ids), in one transaction that stores a new revision (via "revert"; none when the project ' +
      'already is that content). Its slug, creation time and lock stay as they are; a lock does not stop a revert. ' +
      '`revision` in the answer is the new revision number (null when nothing changed). 404 for an unknown project ' +
      'or revision; 409 when a link of that revision now belongs to another project (one detail per link, naming its ' +
      'url and owner) unless `links` is "skip", or for a merged slug.',
  },
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: {
    request: { slug: ex.QWEN_SLUG, revision: 1 },
    response: { success: true, data: ex.QWEN_PROJECT, revision: 4, skipped: [] },
  },
};

export const RevertProjectInput = z.object({
  slug: text(),
  revision: z.int().min(1).max(MAX_INT).meta({ description: 'The revision whose content the project takes' }),
  links: LinkConflictsInput,
});

export const RevertProjectOutput = z.object({
  success: z.literal(true),
  data: Project,
  revision: count()
    .nullable()
    .meta({ description: 'The revision this revert stored; null when nothing changed' }),
  skipped: SkippedLinks,
});
