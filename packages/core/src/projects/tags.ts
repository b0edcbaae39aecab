import {
  type Database,
  fillTagNamesEn,
  findTagsByName,
  findTakenTagSlugs,
  insertTags,
  type Kysely,
} from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import type { ProjectInput } from '../schemas/project.ts';
import { fallbackSlug, firstFreeSlug, slugify, slugSource } from '../slug.ts';

type TagInput = ProjectInput['tags'][number];

/** The same name twice in one input counts once, at its first position. */
export function distinctTags(tags: TagInput[]): TagInput[] {
  const byName = new Map<string, TagInput>();
  for (const tag of tags) if (!byName.has(tag.name)) byName.set(tag.name, tag);
  return [...byName.values()];
}

const ATTEMPTS = 5;

/**
 * The ids of the tags named in an input, in input order (DECISIONS "Slugs", endpoint 1):
 * a stored tag with the name is reused (its missing nameEn filled in); a new one gets the
 * slug of its nameEn or name, numbered -2, -3, … when taken. Tags created concurrently by
 * another transaction are skipped on insert and picked up by the next attempt.
 */
export async function resolveTagIds(db: Kysely<Database>, tags: TagInput[]): Promise<string[]> {
  const wanted = distinctTags(tags);
  const ids = new Map<string, string>();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pending = wanted.filter((t) => !ids.has(t.name));
    const stored = await findTagsByName(
      db,
      pending.map((t) => t.name),
    );
    const storedByName = new Map(stored.map((t) => [t.name, t]));
    await fillTagNamesEn(
      db,
      pending.flatMap((t) =>
        t.nameEn !== undefined && storedByName.get(t.name)?.name_en === null
          ? [{ name: t.name, nameEn: t.nameEn }]
          : [],
      ),
    );
    for (const t of stored) ids.set(t.name, t.id);

    const missing = pending.filter((t) => !ids.has(t.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
    if (missing.length === 0) break;
    const drafts = missing.map((t) => ({
      id: createId(),
      name: t.name,
      name_en: t.nameEn ?? null,
      base: slugify(slugSource(t)),
    }));
    const taken = new Set(
      await findTakenTagSlugs(db, [...new Set(drafts.map((d) => d.base).filter(Boolean))]),
    );
    const rows = drafts.map(({ base, ...row }) => {
      const slug = base ? firstFreeSlug(base, taken) : fallbackSlug('tag', row.id);
      taken.add(slug);
      return { ...row, slug };
    });
    const inserted = new Set(await insertTags(db, rows));
    for (const row of rows) if (inserted.has(row.name)) ids.set(row.name, row.id);
  }
  return wanted.map((t) => {
    const id = ids.get(t.name);
    if (id === undefined) throw new Error('Could not create tags: too many concurrent conflicts');
    return id;
  });
}
