export type LinkType = 'WEBSITE' | 'CODEHOST' | 'MODELHUB' | 'PAPER';
export type ProjectStatus = 'ACTIVE' | 'ARCHIVED';
export type MatchField =
  | 'name'
  | 'nameEn'
  | 'slug'
  | 'pinyin'
  | 'initials'
  | 'tags'
  | 'description'
  | 'descriptionEn';

export interface IndexedTag {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  /** The slugs of the tags merged into this one: a filter by one of them filters by this tag. */
  aliases?: string[] | undefined;
}

export interface IndexedProject {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  description: string;
  descriptionEn: string | null;
  status: ProjectStatus;
  source: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds. */
  updatedAt: number;
  /** The project's tags, in its order. */
  tagIds: string[];
  /** The types of its links (duplicates allowed). */
  linkTypes: LinkType[];
  /** The URLs of its links: their owners relate projects (owners.ts); absent: none. */
  linkUrls?: string[];
}

export type ProjectSort = 'relevance' | 'updated' | 'created' | 'name';
export type FacetName = 'tags' | 'status' | 'linkTypes';

/** A cursor: the key and id of the previous page's last hit. */
export interface After {
  key: number | string;
  id: string;
}

export interface ProjectQuery {
  /** Raw query text (1–200 characters); undefined: no search. */
  q?: string;
  /** Typo tolerance (docs/search.md#search-as-a-search-engine); default true. */
  typos?: boolean;
  /** Undefined: every status. */
  status?: ProjectStatus;
  tagSlugs: string[];
  tagMode: 'all' | 'any';
  /** The project has a link of every type given. */
  linkTypes: LinkType[];
  /** Exact. */
  source?: string;
  /** Epoch milliseconds; projects updated strictly later. */
  updatedAfter?: number;
  sort: ProjectSort;
  order: 'asc' | 'desc';
  /** 1–100. */
  limit: number;
  after?: After;
  /** A walk's later pages leave out projects with updatedAt > asOf. */
  asOf?: number;
  facets: FacetName[];
}

export interface ProjectHit {
  id: string;
  /** What a cursor needs to resume after this hit: the score, updatedAt/createdAt ms or the name sort key. */
  key: number | string;
  match?: { field: MatchField; score: number; typos: 0 | 1 | 2 };
}

export interface TagFacet {
  slug: string;
  name: string;
  nameEn: string | null;
  count: number;
}

export interface ValueFacet {
  value: string;
  count: number;
}

export interface ProjectFacets {
  tags?: TagFacet[];
  status?: ValueFacet[];
  linkTypes?: ValueFacet[];
}

export interface ProjectHits {
  /** At most limit + 1 (the extra one only tells there is a next page). */
  hits: ProjectHit[];
  /** Exact. */
  total: number;
  facets?: ProjectFacets;
}

export interface TagQuery {
  q?: string;
  sort: 'count' | 'name';
  limit: number;
  after?: After;
}

export interface TagHit {
  id: string;
  key: number | string;
  projectCount: number;
}
