import { router } from '../trpc.ts';
import { getRestore } from './get-restore.ts';
import { restoreBatch } from './restore-batch.ts';

export const restoreRouter = router({
  status: getRestore,
  batch: restoreBatch,
});
