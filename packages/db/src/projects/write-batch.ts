import { type Kysely, sql } from 'kysely';
import { type NewRevision, revisionsInsert } from '../history/write.ts';
import type { Database } from '../tables.ts';
import type { LinksAndTagsDiff } from './diff.ts';
import { linksAndTagsWrites } from './links-and-tags.ts';
import { FIELD_COLUMNS, FIELD_SET, FIELD_VALUES, fieldArrays, type ProjectWrite } from './write.ts';

type Db = Kysely<Database>;

/** A project as the batch wrote it: its id and its times as the read model takes them (epoch ms). */
export interface WrittenTimes {
  id: string;
  createdAt: number;
  updatedAt: number;
}

/** Thrown when a project changed between the upsert's read of it and its write: the transaction is tried again. */
export class ProjectChangedMeanwhile extends Error {
  /** serialization_failure: core's inTransaction runs the whole transaction again. */
  readonly code = '40001';
  constructor() {
    super('A project changed between its read and its write');
  }
}

/**
 * One run of an upsert batch in one statement: the new projects inserted, the stored
 * ones updated, their links and tag associations brought to the submitted lists (the diff of
 * diff.ts: deletes before inserts, so a url can move), and a revision stored per project whose
 * body differs from its latest (an `updated` one with the latest's hash is left out).
 *
 * An update applies only to the row version its upsert read (`version`, the row's xmin, read
 * with the links and tags the diff was made from): a project that another transaction wrote
 * since (every write of a project's links, tags or lock also writes its row) is left alone, and
 * ProjectChangedMeanwhile makes the caller's transaction start again from a fresh read. So the
 * diff, the lock and the revision's number are those of the row this statement writes: no other
 * writer can have stored a revision of it since it was read. Returns each written project's times.
 */
export async function writeProjectBatch(
  db: Db,
  batch: {
    inserts: (ProjectWrite & { slug: string })[];
    updates: (ProjectWrite & { version: string })[];
    links: LinksAndTagsDiff;
    revisions: readonly NewRevision[];
  },
): Promise<WrittenTimes[]> {
  const { inserts, updates, links: d, revisions } = batch;
  const { rows } = await sql<WrittenTimes & { updated: number }>`
    with
      inserted as (
        insert into projects (id, slug, ${FIELD_COLUMNS}, created_at, updated_at)
        select u.id, u.slug, ${FIELD_VALUES}, u.at, u.at
        from (
          select *, now() + u.position * interval '1 microsecond' as at
          from unnest(
            ${inserts.map((r) => r.id)}::text[], ${inserts.map((r) => r.slug)}::text[], ${fieldArrays(inserts)},
            ${inserts.map((r) => r.position)}::int[]
          ) as u(id, slug, ${FIELD_COLUMNS}, position)
        ) u
        returning id, created_at, updated_at
      ),
      updated as (
        update projects p set ${FIELD_SET}, updated_at = now() + u.position * interval '1 microsecond'
        from unnest(
          ${updates.map((r) => r.id)}::text[], ${updates.map((r) => r.version)}::text[], ${fieldArrays(updates)},
          ${updates.map((r) => r.position)}::int[]
        ) as u(id, version, ${FIELD_COLUMNS}, position)
        where p.id = u.id and p.xmin = u.version::xid
        returning p.id, p.created_at, p.updated_at
      ),
      ${linksAndTagsWrites(d)},
      revisions as (${revisionsInsert(revisions)}),
      written as (select * from inserted union all select * from updated)
    select w.id, (extract(epoch from w.created_at) * 1000)::float8 as "createdAt",
      (extract(epoch from w.updated_at) * 1000)::float8 as "updatedAt",
      (select count(*) from updated)::int as updated
    from written w
    where (select count(*) from inserted_tags) >= 0 and (select count(*) from inserted_links) >= 0
      and (select count(*) from updated_tags) >= 0 and (select count(*) from revisions) >= 0
  `.execute(db);
  if ((rows[0]?.updated ?? 0) < updates.length) throw new ProjectChangedMeanwhile();
  return rows.map(({ id, createdAt, updatedAt }) => ({ id, createdAt, updatedAt }));
}
