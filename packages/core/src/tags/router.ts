import { router } from '../trpc.ts';
import { findTags } from './find-tags.ts';
import { mergeTag } from './merge-tag.ts';
import { renameTag } from './rename-tag.ts';
import { unmergeTag } from './unmerge-tag.ts';

export const tagsRouter = router({
  find: findTags,
  rename: renameTag,
  merge: mergeTag,
  unmerge: unmergeTag,
});
