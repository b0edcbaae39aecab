import { type Database, findAliasTarget, type Kysely } from '@directory/db';
import { AppError } from '../errors.ts';

/** `Project "<alias>" was merged into "<target>"`: the detail every answer about an alias gives. */
const mergedInto = (alias: string, target: string) => `Project "${alias}" was merged into "${target}"`;

/**
 * What a slug that names no project answers (docs/curation.md#same-project-other-spelling): an alias's
 * reads move permanently (301, `Location: /api/projects/<target>`), its writes conflict (409 naming the
 * target); an unknown slug is the caller's `notFound`. Called only after the project lookup
 * missed, so reads of live projects never pay for it.
 */
export async function missingProject(
  db: Kysely<Database>,
  slug: string,
  use: 'read' | 'write',
  notFound: AppError,
): Promise<AppError> {
  const target = await findAliasTarget(db, slug);
  if (!target) return notFound;
  if (use === 'write') {
    return new AppError('CONFLICT', [`${mergedInto(slug, target.slug)}; use "${target.slug}"`]);
  }
  return new AppError('MOVED', [mergedInto(slug, target.slug)], {
    location: `/api/projects/${encodeURIComponent(target.slug)}`,
  });
}
