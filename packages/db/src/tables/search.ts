import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

/**
 * Curated results (docs/search.md#curated-results-pins): one row, replaced whole by PUT
 * /api/search/pins (migration 2026_11_28_001220_search_pins).
 */
export interface SearchPinsTable {
  id: Generated<number>;
  /** Each pin: its normalised query, the slugs shown first, the slugs never shown. */
  pins: ColumnType<{ query: string; first: string[]; hide: string[] }[], string, string>;
  /** Bumped by every replace: processes re-read the pins when it moves. */
  version: Generated<string>;
  updated_at: Timestamp;
}

/**
 * Search synonyms (docs/search.md#search-as-a-search-engine): one row, replaced whole by PUT
 * /api/search/synonyms.
 */
export interface SearchSynonymsTable {
  id: Generated<number>;
  /** The sets, each a list of terms as given. */
  sets: ColumnType<string[][], string, string>;
  /** Bumped by every replace: processes re-read the sets when it moves. */
  version: Generated<string>;
  updated_at: Timestamp;
}
