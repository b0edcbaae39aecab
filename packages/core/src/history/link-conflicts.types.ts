import { z } from 'zod';

/**
 * Revert's and restore's `links` (docs/curation.md#revert-and-restore-links-fail--skip): what to do with
 * links another project owns now.
 */
export const LinkConflictsInput = z
  .enum(['fail', 'skip'])
  .default('fail')
  .meta({
    description:
      'A link whose url key another project owns now: "fail" (the default) answers 409 with one detail per such ' +
      'link, naming its url and the owner; "skip" leaves those links with their owner and lists them in `skipped`',
  });

export const SkippedLinks = z
  .array(z.object({ url: z.string(), slug: z.string().meta({ description: 'The project that owns it' }) }))
  .meta({ description: 'The links left with the project that owns them now (with `links: "skip"`)' });
