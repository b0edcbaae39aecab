import {
  type Database,
  fillTagNamesEn,
  findTagsByName,
  findTakenTagSlugs,
  insertTags,
  type Kysely,
  type StoredTag,
  type TagDetail,
  type TagLookup,
} from '@directory/db';
import { createId } from '../domain/ids.ts';
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

const lookupOf = (tag: TagInput): TagLookup => ({ name: tag.name, nameEn: tag.nameEn ?? null });

/** The tags resolveTags looks up first, in its order: what an upsert reads with its locks. */
export const tagLookupsOf = (tags: TagInput[]): TagLookup[] => distinctTags(tags).map(lookupOf);

/**
 * A project's tags in the order its input names them, each once: two names may resolve to one
 * tag (a merged tag's name and its target's: docs/curation.md#tags).
 */
export function projectTagsOf<T extends { id: string }>(tags: TagInput[], resolved: Map<string, T>): T[] {
  const byId = new Map<string, T>();
  for (const tag of tags) {
    const found = resolved.get(tag.name)!;
    if (!byId.has(found.id)) byId.set(found.id, found);
  }
  return [...byId.values()];
}

/**
 * Every tag named in the inputs, by name (docs/api.md#slugs-identity-ids-and-order), as endpoint 2 shows it
 * (id, name, nameEn after the fill, slug), so that an upsert builds its revision bodies without
 * reading them back: a stored tag with the name is reused (its missing nameEn filled in), a
 * merged tag named by its name or nameEn gives the tag it was merged into
 * (docs/curation.md#tags); a new one gets the slug of its nameEn or name, numbered -2, -3, …
 * when taken. Tags created concurrently by another transaction are skipped on insert and picked
 * up by the next attempt. `firstLookup`: the stored
 * tags among tagLookupsOf(tags) when the caller already read them (lockKeysAndFindTags).
 */
export async function resolveTags(
  db: Kysely<Database>,
  tags: TagInput[],
  firstLookup?: StoredTag[],
): Promise<Map<string, TagDetail>> {
  const wanted = distinctTags(tags);
  // out[i] is wanted[i] as stored; everything is matched by position or by id, never by a
  // string read back from the database.
  const out: (TagDetail | undefined)[] = wanted.map(() => undefined);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pending = wanted.flatMap((tag, i) => (out[i] === undefined ? [{ tag, i }] : []));
    if (pending.length === 0) break;
    const stored =
      attempt === 0 && firstLookup
        ? firstLookup
        : await findTagsByName(
            db,
            pending.map((p) => lookupOf(p.tag)),
          );
    const fills: { id: string; nameEn: string }[] = [];
    for (const found of stored) {
      const { tag, i } = pending[found.index]!;
      // a merged tag stands for its target: its names are the target's, never filled from the input
      const fill = found.alias_name === null && found.name_en === null && tag.nameEn !== undefined;
      const name = found.alias_name ?? tag.name;
      out[i] = { id: found.id, name, nameEn: fill ? tag.nameEn! : found.name_en, slug: found.slug };
      if (fill) fills.push({ id: found.id, nameEn: tag.nameEn! });
    }
    await fillTagNamesEn(db, fills);

    const missing = pending.filter(({ i }) => out[i] === undefined);
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
    const draftOf = new Map(drafts.map((d) => [d.id, d]));
    for (const row of rows)
      if (inserted.has(row.id))
        out[draftOf.get(row.id)!.i] = { id: row.id, name: row.name, nameEn: row.name_en, slug: row.slug };
  }
  return new Map(
    wanted.map((tag, i) => {
      const resolved = out[i];
      if (resolved === undefined) throw new Error('Could not create tags: too many concurrent conflicts');
      return [tag.name, resolved];
    }),
  );
}
