import { type Kysely, sql } from 'kysely';
import { tagSearchColumns } from '../search-terms.ts';

// A project matches a word through its tags at query time, by the tags' own search text
// (tags.search_text: the tokens of name and nameEn), not by a copy of that text written into
// each project (projects.search_tags). The copy went stale when a tag's English name was
// given after projects were tagged: those projects were not found by it until rewritten.
// projects.search_tags and the tag grams in projects.search_grams are still written (the
// grams let the index find a tag word too); the ranking no longer reads search_tags.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tags add column search_text text not null default ' '`.execute(db);
  await backfillTagSearchText(db);
}

/** Computes every tag's search_text. Exported for the benchmark, whose seed writes tags with SQL. */
export async function backfillTagSearchText(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: string; name: string; name_en: string | null; slug: string }>`
    select id, name, name_en, slug from tags
  `.execute(db);
  if (rows.length === 0) return;
  const texts = rows.map(
    (t) => tagSearchColumns({ name: t.name, nameEn: t.name_en, slug: t.slug }).search_text,
  );
  await sql`
    update tags t set search_text = u.search_text
    from unnest(${rows.map((t) => t.id)}::text[], ${texts}::text[]) as u(id, search_text)
    where t.id = u.id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tags drop column search_text`.execute(db);
}
