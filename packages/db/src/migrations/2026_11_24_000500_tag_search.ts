import { type Kysely, sql } from 'kysely';
import { backfillTagSearchText } from '../backfill/search-columns.ts';

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

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tags drop column search_text`.execute(db);
}
