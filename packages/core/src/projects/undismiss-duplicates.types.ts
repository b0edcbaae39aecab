import type { Meta } from '../meta.ts';
import { dismissalExamples } from './dismiss-duplicates.types.ts';

/** The same body and answer as the dismissal it undoes. */
export {
  DismissDuplicatesInput as UndismissDuplicatesInput,
  DismissDuplicatesOutput as UndismissDuplicatesOutput,
} from './dismiss-duplicates.types.ts';

export const undismissDuplicatesMeta: Meta = {
  scope: 'curate',
  openapi: {
    method: 'DELETE',
    path: '/api/projects/duplicates/dismiss',
    protect: true,
    tags: ['projects'],
    summary: 'Undo a dismissal: the projects may form duplicate groups again',
    description:
      'The body is that of `POST /api/projects/duplicates/dismiss`: the dismissals of every pair of these projects ' +
      'are removed, and `pairs` says how many there were. 404 for an unknown slug; 409 for a merged slug.',
  },
  bodyInput: true,
  errors: ['NOT_FOUND', 'CONFLICT'],
  examples: dismissalExamples,
};
