import { z } from 'zod';
import * as ex from '../examples.ts';
import type { Meta } from '../meta.ts';
import { count, text } from '../schemas/common.ts';
import { Tag } from '../schemas/project.ts';
import { revisionNumber } from './get-revision.types.ts';

export const diffRevisionsMeta: Meta = {
  openapi: {
    method: 'GET',
    path: '/api/projects/{slug}/revisions/{revision}/diff',
    protect: false,
    tags: ['history'],
    summary: 'What changed between two revisions of a project',
    description:
      'From revision `against` (default: the one before `{revision}`) to `{revision}`: `changed` has each differing ' +
      'field (name, nameEn, description, descriptionEn, content, contentEn, status, source, slug, lock) with its ' +
      '`from` and `to`; `tags` and `links` list what was added and removed (a link is its type, url and title: a ' +
      'retitled link is one removed and one added). The diff of revision 1 without `against` is from nothing. ' +
      '`against` may be newer than `{revision}` (the diff then runs backwards). 404 when either revision does not ' +
      'exist (or was pruned). Public: no key.',
  },
  errors: ['NOT_FOUND', 'MOVED'],
  examples: {
    request: { slug: ex.QWEN_SLUG, revision: 3, against: 1 },
    response: {
      success: true,
      revision: 3,
      against: 1,
      changed: {
        nameEn: { from: 'Qwen', to: 'Qwen (Tongyi Qianwen)' },
        content: { from: ex.QWEN_INPUT.content, to: null },
      },
      tags: { added: [], removed: [ex.QWEN_PROJECT.tags[1]] },
      links: { added: [], removed: [ex.QWEN_PROJECT.links[2]] },
    },
  },
};

export const DiffRevisionsInput = z.object({
  slug: text(),
  revision: revisionNumber().meta({ description: 'The revision to show (the "to" side)' }),
  against: revisionNumber()
    .optional()
    .meta({ description: 'The revision to compare with (the "from" side); default the one before' }),
});

const Link = z.object({
  id: z.string(),
  type: z.string(),
  url: z.string(),
  title: z.string().nullable(),
});

export const DiffRevisionsOutput = z.object({
  success: z.literal(true),
  revision: count(),
  against: count().nullable().meta({ description: 'null: revision 1 compared with nothing' }),
  changed: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  tags: z.object({ added: z.array(Tag), removed: z.array(Tag) }),
  links: z.object({ added: z.array(Link), removed: z.array(Link) }),
});
