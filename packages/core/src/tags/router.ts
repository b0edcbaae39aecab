import { router } from '../trpc.ts';
import { findTags } from './find-tags.ts';

export const tagsRouter = router({
  find: findTags,
});
