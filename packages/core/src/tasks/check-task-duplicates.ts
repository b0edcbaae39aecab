import { findUrlMatches, type TaskStatus } from '@directory/db';
import { urlKey } from '../domain/url-key.ts';
import { iso } from '../schemas/common.ts';
import { keyedProcedure } from '../trpc.ts';
import {
  CheckTaskDuplicatesInput,
  CheckTaskDuplicatesOutput,
  checkTaskDuplicatesMeta,
  type DuplicateReason,
} from './check-task-duplicates.types.ts';

/**
 * Decision order of endpoint 9: a task of any status first, then a project link, else new;
 * both by url key (docs/curation.md#same-project-other-spelling), `matchedUrl` being the stored spelling
 * that matched.
 */
const TASK_REASONS: Record<TaskStatus, DuplicateReason> = {
  PENDING: 'Task already pending',
  IN_PROGRESS: 'Task already in progress',
  COMPLETED: 'Task already completed',
  FAILED: 'Task already failed',
};

export const checkTaskDuplicates = keyedProcedure
  .meta(checkTaskDuplicatesMeta)
  .input(CheckTaskDuplicatesInput)
  .output(CheckTaskDuplicatesOutput)
  .mutation(async ({ ctx, input }) => {
    const matches = await findUrlMatches(ctx.db, input.urls.map(urlKey));
    const results = input.urls.map((url, i) => {
      const { task, project } = matches[i] ?? { task: null, project: null };
      if (task) {
        return {
          url,
          shouldCreate: false,
          reason: TASK_REASONS[task.status],
          matchedUrl: task.sourceUrl,
          existingTask: { ...task, createdAt: iso(task.createdAt) },
        };
      }
      if (project) {
        const { matchedUrl, ...existingProject } = project;
        return {
          url,
          shouldCreate: false,
          reason: 'Project already exists' as const,
          matchedUrl,
          existingProject,
        };
      }
      return { url, shouldCreate: true, reason: 'New URL' as const };
    });
    const shouldCreate = results.filter((r) => r.shouldCreate).length;
    return {
      success: true as const,
      results,
      stats: { total: results.length, shouldCreate, duplicate: results.length - shouldCreate },
    };
  });
