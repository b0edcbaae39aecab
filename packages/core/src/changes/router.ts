import { router } from '../trpc.ts';
import { listChanges } from './list-changes.ts';

export const changesRouter = router({
  list: listChanges,
});
