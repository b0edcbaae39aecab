import { diffRevisions } from '../history/diff-revisions.ts';
import { getRevision } from '../history/get-revision.ts';
import { listDeleted } from '../history/list-deleted.ts';
import { listRevisions } from '../history/list-revisions.ts';
import { lockProject } from '../history/lock-project.ts';
import { restoreProject } from '../history/restore-project.ts';
import { revertProject } from '../history/revert-project.ts';
import { unlockProject } from '../history/unlock-project.ts';
import { router } from '../trpc.ts';
import { checkProjectDuplicates } from './check-project-duplicates.ts';
import { deleteProject } from './delete-project.ts';
import { dismissDuplicates } from './dismiss-duplicates.ts';
import { editProject } from './edit-project.ts';
import { findDuplicates } from './find-duplicates.ts';
import { findProjects } from './find-projects.ts';
import { findRelatedProjects } from './find-related-projects.ts';
import { getProject } from './get-project.ts';
import { getProjectByUrl } from './get-project-by-url.ts';
import { mergeProject } from './merge-project.ts';
import { undismissDuplicates } from './undismiss-duplicates.ts';
import { upsertProjects } from './upsert-projects.ts';

export const projectsRouter = router({
  upsert: upsertProjects,
  find: findProjects,
  get: getProject,
  related: findRelatedProjects,
  edit: editProject,
  delete: deleteProject,
  checkDuplicates: checkProjectDuplicates,
  byUrl: getProjectByUrl,
  merge: mergeProject,
  duplicates: findDuplicates,
  dismissDuplicates,
  undismissDuplicates,
  // history (docs/curation.md#history-revert-locks-and-restore)
  revisions: listRevisions,
  revision: getRevision,
  diff: diffRevisions,
  revert: revertProject,
  deleted: listDeleted,
  restore: restoreProject,
  lock: lockProject,
  unlock: unlockProject,
});
