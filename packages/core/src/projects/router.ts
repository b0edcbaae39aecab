import { router } from '../trpc.ts';
import { checkProjectDuplicates } from './check-project-duplicates.ts';
import { deleteProject } from './delete-project.ts';
import { findDuplicates } from './find-duplicates.ts';
import { findProjects } from './find-projects.ts';
import { getProject } from './get-project.ts';
import { getProjectByUrl } from './get-project-by-url.ts';
import { mergeProject } from './merge-project.ts';
import { upsertProjects } from './upsert-projects.ts';

export const projectsRouter = router({
  upsert: upsertProjects,
  find: findProjects,
  get: getProject,
  delete: deleteProject,
  checkDuplicates: checkProjectDuplicates,
  byUrl: getProjectByUrl,
  merge: mergeProject,
  duplicates: findDuplicates,
});
