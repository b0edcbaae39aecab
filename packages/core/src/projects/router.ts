import { router } from '../trpc.ts';
import { checkProjectDuplicates } from './check-project-duplicates.ts';
import { deleteProject } from './delete-project.ts';
import { findProjects } from './find-projects.ts';
import { getProject } from './get-project.ts';
import { upsertProjects } from './upsert-projects.ts';

export const projectsRouter = router({
  upsert: upsertProjects,
  find: findProjects,
  get: getProject,
  delete: deleteProject,
  checkDuplicates: checkProjectDuplicates,
});
