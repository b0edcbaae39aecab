import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';
import { recordMerge } from './merge-record.ts';

type Db = Kysely<Database>;

/**
 * The advisory lock of the tag vocabulary (docs/curation.md#tags): a rename or merge holds it
 * exclusively for its transaction, every write of project_tags shared (its trigger, and an
 * upsert's first statement): no project keeps a tag merged meanwhile.
 */
export const TAG_VOCABULARY = 7_272_740_010;

export interface TagRow {
  id: string;
  /** Null only for a merged tag (an alias) whose name the tag it went into took. */
  name: string | null;
  name_en: string | null;
  slug: string;
  alias_of: string | null;
}

/** Takes the tag vocabulary's lock exclusively until the transaction ends. */
export async function lockTagVocabulary(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(${TAG_VOCABULARY}::bigint)`.execute(db);
}

/** The tag with this slug (an alias too), if any. */
export async function findTagBySlug(db: Db, slug: string): Promise<TagRow | undefined> {
  return db
    .selectFrom('tags')
    .select(['id', 'name', 'name_en', 'slug', 'alias_of'])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export async function findTagById(db: Db, id: string): Promise<TagRow | undefined> {
  return db
    .selectFrom('tags')
    .select(['id', 'name', 'name_en', 'slug', 'alias_of'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The slugs of the tags merged into this one, in slug order. */
export async function aliasSlugsOf(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tags')
    .select('slug')
    .where('alias_of', '=', id)
    .orderBy('slug')
    .execute();
  return rows.map((r) => r.slug);
}

/**
 * Another tag (alias or not, but not one merged into `except`) whose name or nameEn is `text`, if
 * any: the name a rename of `except` may not take.
 */
export async function findTagNamed(db: Db, text: string, except: string): Promise<TagRow | undefined> {
  return db
    .selectFrom('tags')
    .select(['id', 'name', 'name_en', 'slug', 'alias_of'])
    .where((eb) => eb.or([eb('name', '=', text), eb('name_en', '=', text)]))
    .where('id', '<>', except)
    .where((eb) => eb.or([eb('alias_of', 'is', null), eb('alias_of', '<>', except)]))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Sets a tag's names; one tag.updated change. A tag merged into this one that has the new name
 * gives it up (its name becomes null): a write naming it finds this tag by it now.
 */
export async function renameTag(db: Db, id: string, names: { name: string; nameEn: string | null }) {
  await db
    .updateTable('tags')
    .set({ name: null })
    .where('alias_of', '=', id)
    .where('name', '=', names.name)
    .execute();
  await db
    .updateTable('tags')
    .set({ name: names.name, name_en: names.nameEn })
    .where('id', '=', id)
    .execute();
  await insertTagChanges(db, [id]);
}

/** One `tag.updated` change per tag (the feed: the read models and subscribers). */
export async function insertTagChanges(db: Db, ids: string[]) {
  await sql`
    insert into changes (type, tag_id, slug)
    select 'tag.updated', t.id, t.slug from tags t where t.id = any(${ids}::text[]) order by t.id
  `.execute(db);
}

/**
 * Merges tag `from` into `into` (both live tags; the caller holds the vocabulary lock): every
 * project of `from` gets `into` in its place (a project that has both keeps one, at the first of
 * their places; its tags are then numbered again from 0), is stamped updated (its change in the
 * feed) and locked until the transaction ends; `from` and every alias of it become aliases of
 * `into`. Set-based: a handful of statements whatever the number of projects. Returns the ids of
 * the projects changed, in id order.
 */
export async function mergeTag(db: Db, from: string, into: string): Promise<string[]> {
  const { rows: projects } = await sql<{ id: string }>`
    select p.id from projects p
    where p.id in (select pt.project_id from project_tags pt where pt.tag_id = ${from})
    order by p.id for update
  `.execute(db);
  const ids = projects.map((p) => p.id);
  await recordMerge(db, from, into, ids);
  if (ids.length > 0) {
    const { rows: pairs } = await sql<{ project_id: string }>`
      with pairs as (
        select b.project_id, least(b.position, c.position) as pos
        from project_tags b join project_tags c on c.project_id = b.project_id and c.tag_id = ${into}
        where b.tag_id = ${from}
      ),
      gone as (
        delete from project_tags pt using pairs where pt.project_id = pairs.project_id and pt.tag_id = ${from}
      )
      update project_tags pt set position = pairs.pos from pairs
      where pt.project_id = pairs.project_id and pt.tag_id = ${into}
      returning pt.project_id
    `.execute(db);
    if (pairs.length > 0)
      await sql`
        update project_tags pt set position = r.n
        from (
          select project_id, tag_id, (row_number() over (partition by project_id order by position, tag_id) - 1)::int as n
          from project_tags where project_id = any(${pairs.map((b) => b.project_id)}::text[])
        ) r
        where pt.project_id = r.project_id and pt.tag_id = r.tag_id and pt.position <> r.n
      `.execute(db);
    await sql`update project_tags set tag_id = ${into} where tag_id = ${from}`.execute(db);
    await sql`update projects set updated_at = now() where id = any(${ids}::text[])`.execute(db);
  }
  const { rows: aliased } = await sql<{ id: string }>`
    update tags set alias_of = ${into} where id = ${from} or alias_of = ${from} returning id
  `.execute(db);
  await insertTagChanges(db, [...aliased.map((a) => a.id), into]);
  return ids;
}
