import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

// The synonym sets (docs/search.md#search-as-a-search-engine): the read model applies them, GET/PUT
// /api/search/synonyms read and replace them.

export interface Synonyms {
  sets: string[][];
  version: string;
}

export async function readSynonyms(db: Db): Promise<Synonyms> {
  const { rows } =
    await sql<Synonyms>`select sets, version::text as version from search_synonyms where id = 1`.execute(db);
  return rows[0] ?? { sets: [], version: '0' };
}

export async function readSynonymsVersion(db: Db): Promise<string> {
  const { rows } = await sql<{
    version: string;
  }>`select version::text as version from search_synonyms where id = 1`.execute(db);
  return rows[0]?.version ?? '0';
}

/**
 * Replaces every set, and wakes every process's feed follower (the change feed's channel) so
 * that it re-reads them now rather than at its next look.
 */
export async function writeSynonyms(db: Db, sets: string[][], channel: string): Promise<Synonyms> {
  const { rows } = await sql<Synonyms>`
    with u as (
      update search_synonyms set sets = ${JSON.stringify(sets)}::jsonb, version = version + 1, updated_at = now()
      where id = 1 returning sets, version
    )
    select u.sets, u.version::text as version, pg_notify(${channel}::text, '') from u
  `.execute(db);
  const row = rows[0]!;
  return { sets: row.sets, version: row.version };
}
