import type { RouterInputs, RouterOutputs } from '@directory/core';
import { request } from '../../../lib/api-client.ts';

export type TaskDuplicates = RouterOutputs['tasks']['checkDuplicates'];

export const checkTaskDuplicates = (urls: string[]) =>
  request((client) => client.tasks.checkDuplicates({ urls }), { key: true });

export const createTasks = (input: RouterInputs['tasks']['create']) =>
  request((client) => client.tasks.create(input), { key: true });
