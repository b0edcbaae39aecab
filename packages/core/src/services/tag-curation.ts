import {
  aliasSlugsOf,
  type Database,
  findTagById,
  findTagBySlug,
  findTagMerge,
  findTagNamed,
  type Kysely,
  lockTagVocabulary,
  mergeTag as mergeTagRows,
  renameTag as renameTagRow,
  setMergeRevisions,
  type TagRow,
  unmergeTagRows,
} from '@directory/db';
import { AppError } from '../errors.ts';
import type { CuratedTag } from '../tags/tag.types.ts';
import { recordRevisions } from './revisions.ts';

// Renaming and merging tags (docs/curation.md#tags). Both hold the tag vocabulary's lock
// (TAG_VOCABULARY in packages/db/src/tags/curate.ts) until their transaction ends.

const notFound = (slug: string) => new AppError('NOT_FOUND', [`Tag "${slug}" not found`]);

async function tagOf(trx: Kysely<Database>, slug: string): Promise<TagRow> {
  const tag = await findTagBySlug(trx, slug);
  if (!tag) throw notFound(slug);
  return tag;
}

/** A tag that is not an alias, which always has a name (the tags_name_of_live check of the table). */
type LiveTag = TagRow & { alias_of: null; name: string };

function live(tag: TagRow): LiveTag {
  if (tag.alias_of !== null || tag.name === null) throw new Error(`tag ${tag.id} is not a live tag`);
  return tag as LiveTag;
}

async function curated(trx: Kysely<Database>, tag: LiveTag): Promise<CuratedTag> {
  return {
    id: tag.id,
    name: tag.name,
    nameEn: tag.name_en,
    slug: tag.slug,
    aliases: await aliasSlugsOf(trx, tag.id),
  };
}

/** The tag a merged one stands for (alias_of is always the final target). */
async function targetOf(trx: Kysely<Database>, tag: TagRow): Promise<LiveTag> {
  if (tag.alias_of === null) return live(tag);
  const target = await findTagById(trx, tag.alias_of);
  if (!target) throw new Error(`tag ${tag.id}: its target ${tag.alias_of} is missing`);
  return live(target);
}

export async function renameTag(
  trx: Kysely<Database>,
  slug: string,
  names: { name?: string | undefined; nameEn?: string | undefined },
): Promise<CuratedTag> {
  await lockTagVocabulary(trx);
  const found = await tagOf(trx, slug);
  if (found.alias_of !== null) {
    const target = await targetOf(trx, found);
    throw new AppError('CONFLICT', [`Tag "${slug}" was merged into "${target.slug}": rename that one`]);
  }
  const tag = live(found);
  const next = { name: names.name ?? tag.name, nameEn: names.nameEn ?? tag.name_en };
  for (const [field, value, old] of [
    ['name', next.name, tag.name],
    ['nameEn', next.nameEn, tag.name_en],
  ] as const) {
    if (value === null || value === old) continue;
    const other = await findTagNamed(trx, value, tag.id);
    if (other)
      throw new AppError('CONFLICT', [
        `${field}: tag "${other.slug}" is already named "${value}"; merge the two tags instead`,
      ]);
  }
  if (next.name !== tag.name || next.nameEn !== tag.name_en) await renameTagRow(trx, tag.id, next);
  return curated(trx, { ...tag, name: next.name, name_en: next.nameEn });
}

/** The revisions of a tag merge, this many projects per statement pair. */
const REVISION_CHUNK = 1000;

export async function mergeTag(
  trx: Kysely<Database>,
  slug: string,
  intoSlug: string,
  actor: string | null,
): Promise<{ tag: CuratedTag; merged: string; projectsChanged: number }> {
  await lockTagVocabulary(trx);
  const from = await tagOf(trx, slug);
  const into = await targetOf(trx, await tagOf(trx, intoSlug));
  if (from.alias_of !== null) {
    // the same merge again answers as the first did; another is a conflict
    if (from.alias_of === into.id)
      return { tag: await curated(trx, into), merged: from.slug, projectsChanged: 0 };
    const target = await targetOf(trx, from);
    throw new AppError('CONFLICT', [`Tag "${slug}" was already merged into "${target.slug}"`]);
  }
  if (into.id === from.id)
    throw new AppError('CONFLICT', [`Tag "${slug}" cannot be merged into itself or into one of its aliases`]);
  const ids = await mergeTagRows(trx, from.id, into.id);
  for (let i = 0; i < ids.length; i += REVISION_CHUNK) {
    const stored = await recordRevisions(
      trx,
      ids.slice(i, i + REVISION_CHUNK).map((projectId) => ({ projectId, action: 'updated' as const })),
      { via: 'tag-merge', actor },
    );
    // what an unmerge compares with (docs/decisions.md#what-changed-since-a-tag-merge-means)
    await setMergeRevisions(trx, from.id, stored);
  }
  return { tag: await curated(trx, into), merged: from.slug, projectsChanged: ids.length };
}

/** Why a project the merge moved keeps its tags, by slug (its id if it was deleted). */
export interface SkippedProject {
  slug: string;
  reason: string;
}

/**
 * Undoes the merge of the tag `slug` (docs/curation.md#undoing-a-merge): it is a tag of its own
 * again, with the names and aliases it had, and the projects the merge moved that nothing changed
 * since get their tags back as before the merge, one revision each (via "tag-unmerge").
 */
export async function unmergeTag(
  trx: Kysely<Database>,
  slug: string,
  actor: string | null,
): Promise<{ tag: CuratedTag; from: CuratedTag; projectsChanged: number; skipped: SkippedProject[] }> {
  await lockTagVocabulary(trx);
  const found = await tagOf(trx, slug);
  if (found.alias_of === null)
    throw new AppError('CONFLICT', [`Tag "${slug}" is not merged into another tag`]);
  const target = await targetOf(trx, found);
  const merge = await findTagMerge(trx, found.id);
  if (!merge)
    throw new AppError('CONFLICT', [
      `The merge of tag "${slug}" into "${target.slug}" was not recorded: it cannot be undone`,
    ]);
  if (found.name === null)
    throw new AppError('CONFLICT', [
      `Tag "${target.slug}" took the name of "${slug}" since the merge: rename it first, then undo the merge`,
    ]);
  for (const [field, value] of [
    ['name', found.name],
    ['nameEn', found.name_en],
  ] as const) {
    if (value === null) continue;
    const other = await findTagNamed(trx, value, found.id);
    if (other && other.alias_of === null)
      throw new AppError('CONFLICT', [
        `${field}: tag "${other.slug}" is named "${value}" now; rename it first`,
      ]);
  }
  const moved = await unmergeTagRows(trx, found.id, target.id, merge.aliases);
  const restored = moved.filter((m) => m.skip === null).map((m) => m.projectId);
  for (let i = 0; i < restored.length; i += REVISION_CHUNK)
    await recordRevisions(
      trx,
      restored.slice(i, i + REVISION_CHUNK).map((projectId) => ({ projectId, action: 'updated' as const })),
      { via: 'tag-unmerge', actor },
    );
  const tag = live({ ...found, alias_of: null });
  return {
    tag: await curated(trx, tag),
    from: await curated(trx, target),
    projectsChanged: restored.length,
    skipped: moved.flatMap((m) => (m.skip === null ? [] : [{ slug: m.slug ?? m.projectId, reason: m.skip }])),
  };
}
