import {
  type Database,
  type IndexedProjectRow,
  type IndexedTagRow,
  type Kysely,
  readModelSnapshot,
  type Snapshot,
} from '@directory/db';
import { SearchIndex } from '@directory/search';
import { standingOf } from '../domain/standing.ts';
import type { DetailCache } from './detail-cache.ts';

/** The rows with their standing (docs/search.md#signals-and-standing), as the index takes them. */
function withStanding(projects: IndexedProjectRow[]): IndexedProjectRow[] {
  for (const p of projects) p.standing = standingOf(p);
  return projects;
}

/**
 * What the read model answers from: the search index (which knows each project's slug too),
 * and the newest `updatedAt` (a later page of a walk leaves out projects written after its
 * first). Built from one snapshot (`buildContents`), then changed project by project (`applyRows`).
 */
export interface Contents {
  index: SearchIndex;
  maxUpdated: number;
}

export interface BuiltContents extends Contents {
  snapshot: Snapshot;
  synonyms: Awaited<ReturnType<typeof readModelSnapshot>>['synonyms'];
}

/**
 * Every tag and project of one REPEATABLE READ snapshot, and the snapshot's bounds (xmin,
 * xmax, in-progress xids): the feed is then read from xmin on, and a change whose transaction
 * the snapshot saw is skipped.
 */
export async function buildContents(db: Kysely<Database>): Promise<BuiltContents> {
  const index = new SearchIndex();
  let maxUpdated = 0;
  const { snapshot, synonyms } = await readModelSnapshot(
    db,
    (tags) => index.putTags(tags),
    (projects) => {
      index.put(withStanding(projects), true);
      for (const p of projects) if (p.updatedAt > maxUpdated) maxUpdated = p.updatedAt;
    },
  );
  index.setSynonyms(synonyms.sets);
  // the documents of every batch into the sorted orders at once (one sort), before any query
  index.prepare();
  return { index, maxUpdated, snapshot, synonyms };
}

/**
 * Puts the projects and tags as they are now into the contents; every id of `ids` not among
 * `projects` is gone and is removed. The cached details of each are invalidated.
 */
export function applyRows(
  contents: Contents,
  details: DetailCache,
  ids: string[],
  projects: IndexedProjectRow[],
  tags: IndexedTagRow[],
) {
  const { index } = contents;
  putTags(index, details, tags);
  const found = new Set<string>();
  for (const p of projects) {
    found.add(p.id);
    if (p.updatedAt > contents.maxUpdated) contents.maxUpdated = p.updatedAt;
    details.invalidate(p.id);
  }
  index.put(withStanding(projects));
  const gone = ids.filter((id) => !found.has(id));
  for (const id of gone) details.invalidate(id);
  index.remove(gone);
}

/**
 * Puts projects as this process's own write wrote them (no read): their tags are added when
 * the model lacks them, or lacks their English name. A write only ever fills an English name in;
 * a rename (or merge) reaches the model as its tag.updated change, which re-reads the tag
 * (applyCuratedTags): a written row may be older than that, so it never replaces a tag's names.
 */
export function applyWrittenRows(
  contents: Contents,
  details: DetailCache,
  projects: IndexedProjectRow[],
  tags: IndexedTagRow[],
) {
  const { index } = contents;
  const newer = tags.filter((t) => {
    const old = index.tag(t.id);
    return !old || (old.nameEn === null && t.nameEn !== null);
  });
  applyRows(
    contents,
    details,
    projects.map((p) => p.id),
    projects,
    newer,
  );
}

/**
 * Tags a rename or merge changed (docs/curation.md#tags), as re-read: a merged tag leaves the
 * model (its slug is then one of its target's `aliases`), the others are put as they are now.
 */
export function applyCuratedTags(
  contents: Contents,
  details: DetailCache,
  curated: { tags: IndexedTagRow[]; aliases: string[] },
) {
  const gone = curated.aliases.filter((id) => contents.index.tag(id) !== undefined);
  if (gone.length > 0) contents.index.removeTags(gone);
  // Every time, even when the model has the names already (its own write applied them): details
  // read since then from a standby that had not replayed the rename may hold the old names, and
  // the feed brings the change again only once the standby has it (docs/operating.md#read-your-writes).
  if (gone.length > 0 || curated.tags.length > 0) details.clear();
  putTags(contents.index, details, curated.tags);
}

const sameAliases = (a: string[] | undefined, b: string[] | undefined) =>
  (a ?? []).join(' ') === (b ?? []).join(' ');

function putTags(index: SearchIndex, details: DetailCache, tags: IndexedTagRow[]) {
  const changed = tags.filter((t) => {
    const old = index.tag(t.id);
    return (
      !old ||
      old.name !== t.name ||
      old.nameEn !== t.nameEn ||
      old.slug !== t.slug ||
      (t.aliases !== undefined && !sameAliases(old.aliases, t.aliases))
    );
  });
  if (changed.length === 0) return;
  // a tag's English name shows in every project that has it: their cached details go
  if (changed.some((t) => index.tag(t.id) !== undefined)) details.clear();
  index.putTags(changed);
}
