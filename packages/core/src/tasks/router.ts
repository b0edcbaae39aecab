import { router } from '../trpc.ts';
import { checkTaskDuplicates } from './check-task-duplicates.ts';
import { completeTask } from './complete-task.ts';
import { createTasks } from './create-tasks.ts';
import { findTasks } from './find-tasks.ts';
import { getTask } from './get-task.ts';
import { updateTaskStatus } from './update-task-status.ts';

export const tasksRouter = router({
  create: createTasks,
  list: findTasks,
  get: getTask,
  updateStatus: updateTaskStatus,
  complete: completeTask,
  checkDuplicates: checkTaskDuplicates,
});
