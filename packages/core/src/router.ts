import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { changesRouter } from './changes/router.ts';
import { keysRouter } from './keys/router.ts';
import { projectsRouter } from './projects/router.ts';
import { restoreRouter } from './restore/router.ts';
import { searchRouter } from './search/router.ts';
import { tagsRouter } from './tags/router.ts';
import { tasksRouter } from './tasks/router.ts';
import { router } from './trpc.ts';
import { webhooksRouter } from './webhooks/router.ts';

export const appRouter = router({
  projects: projectsRouter,
  tasks: tasksRouter,
  changes: changesRouter,
  webhooks: webhooksRouter,
  tags: tagsRouter,
  search: searchRouter,
  keys: keysRouter,
  restore: restoreRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
