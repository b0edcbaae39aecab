import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database>;

// The curated results (docs/search.md#curated-results-pins): the read model applies them, GET/PUT
// /api/search/pins read and replace them. Kept as the synonyms are (synonyms.ts): one row.

/** A query's pins: its normalised text, the slugs shown first in order, the slugs never shown. */
export interface StoredPin {
  query: string;
  first: string[];
  hide: string[];
}

export interface Pins {
  pins: StoredPin[];
  version: string;
}

export async function readPins(db: Db): Promise<Pins> {
  const { rows } =
    await sql<Pins>`select pins, version::text as version from search_pins where id = 1`.execute(db);
  return rows[0] ?? { pins: [], version: '0' };
}

export async function readPinsVersion(db: Db): Promise<string> {
  const { rows } = await sql<{
    version: string;
  }>`select version::text as version from search_pins where id = 1`.execute(db);
  return rows[0]?.version ?? '0';
}

/**
 * Replaces every pin, and wakes every process's feed follower (the change feed's channel) so
 * that it re-reads them now rather than at its next look.
 */
export async function writePins(db: Db, pins: StoredPin[], channel: string): Promise<Pins> {
  const { rows } = await sql<Pins>`
    with u as (
      update search_pins set pins = ${JSON.stringify(pins)}::jsonb, version = version + 1, updated_at = now()
      where id = 1 returning pins, version
    )
    select u.pins, u.version::text as version, pg_notify(${channel}::text, '') from u
  `.execute(db);
  const row = rows[0]!;
  return { pins: row.pins, version: row.version };
}
