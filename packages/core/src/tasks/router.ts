import { router } from '../trpc.ts';
import { checkTaskDuplicates } from './check-task-duplicates.ts';
import { claimTasks } from './claim-tasks.ts';
import { completeTask } from './complete-task.ts';
import { createTasks } from './create-tasks.ts';
import { findTasks } from './find-tasks.ts';
import { getQueueStats } from './get-queue-stats.ts';
import { getTask } from './get-task.ts';
import { heartbeatTask } from './heartbeat-task.ts';
import { releaseTask } from './release-task.ts';
import { updateTaskStatus } from './update-task-status.ts';

export const tasksRouter = router({
  create: createTasks,
  list: findTasks,
  get: getTask,
  updateStatus: updateTaskStatus,
  complete: completeTask,
  checkDuplicates: checkTaskDuplicates,
  claim: claimTasks,
  heartbeat: heartbeatTask,
  release: releaseTask,
  stats: getQueueStats,
});
