import {
  type Database,
  fillTagNamesEn,
  findTagsByName,
  findTakenTagSlugs,
  insertTags,
  type Kysely,
} from '@directory/db';
import { createId } from '@paralleldrive/cuid2';
import { fallbackSlug, firstFreeSlug, slugify, slugSource } from '../domain/slug.ts';
import type { ProjectInput } from '../schemas/project.ts';

type TagInput = ProjectInput['tags'][number];

/**
 * Each name once, at its first position; its nameEn is the first one given. Two items of a
 * batch naming one tag resolve it together, as if one after the other: the first creates it,
 * and a later nameEn fills in one the tag lacks.
 */
function distinctTags(tags: TagInput[]): TagInput[] {
  const byName = new Map<string, TagInput>();
  for (const tag of tags) {
    const seen = byName.get(tag.name);
    if (!seen) byName.set(tag.name, tag);
    else if (seen.nameEn === undefined && tag.nameEn !== undefined)
      byName.set(tag.name, { ...seen, nameEn: tag.nameEn });
  }
  return [...byName.values()];
}

const ATTEMPTS = 5;

/**
 * The id of every tag named in the inputs, by name (DECISIONS "Slugs", endpoint 1):
 * a stored tag with the name is reused (its missing nameEn filled in); a new one gets the
 * slug of its nameEn or name, numbered -2, -3, … when taken. Tags created concurrently by
 * another transaction are skipped on insert and picked up by the next attempt.
 */
export async function resolveTagIds(db: Kysely<Database>, tags: TagInput[]): Promise<Map<string, string>> {
  const wanted = distinctTags(tags);
  // ids[i] is the id of wanted[i]; everything is matched by position or by id, never by a
  // string read back from the database.
  const ids: (string | undefined)[] = wanted.map(() => undefined);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pending = wanted.flatMap((tag, i) => (ids[i] === undefined ? [{ tag, i }] : []));
    if (pending.length === 0) break;
    const stored = await findTagsByName(
      db,
      pending.map((p) => p.tag.name),
    );
    const fills: { id: string; nameEn: string }[] = [];
    for (const found of stored) {
      const { tag, i } = pending[found.index]!;
      ids[i] = found.id;
      if (found.name_en === null && tag.nameEn !== undefined)
        fills.push({ id: found.id, nameEn: tag.nameEn });
    }
    await fillTagNamesEn(db, fills);

    const missing = pending.filter(({ i }) => ids[i] === undefined);
    if (missing.length === 0) break;
    // Slugs are numbered in first-mention order; rows are inserted in name order, so that two
    // transactions creating the same tags wait on each other in the same order.
    const drafts = missing.map(({ tag, i }) => ({ i, id: createId(), tag, base: slugify(slugSource(tag)) }));
    const taken = new Set(
      await findTakenTagSlugs(db, [...new Set(drafts.map((d) => d.base).filter(Boolean))]),
    );
    const rows = drafts.map(({ id, tag, base }) => {
      const slug = base ? firstFreeSlug(base, taken) : fallbackSlug('tag', id);
      taken.add(slug);
      return { id, name: tag.name, name_en: tag.nameEn ?? null, slug };
    });
    rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const inserted = new Set(await insertTags(db, rows));
    for (const d of drafts) if (inserted.has(d.id)) ids[d.i] = d.id;
  }
  return new Map(
    wanted.map((tag, i) => {
      const id = ids[i];
      if (id === undefined) throw new Error('Could not create tags: too many concurrent conflicts');
      return [tag.name, id];
    }),
  );
}
