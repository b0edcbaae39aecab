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
  /** Its standing (docs/search.md#signals-and-standing): a non-negative integer; absent: 0. */
  standing?: number;
}

export type ProjectSort = 'relevance' | 'updated' | 'created' | 'name' | 'standing';
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
  /** Which words a search may leave out when no project matches them all (docs/search.md#matching-strategy); default 'last'. */
  matchingStrategy?: MatchingStrategy;
  /** Each hit's match tells each ranking rule's value (`match.rules`). */
  explain?: boolean;
}

export type MatchingStrategy = 'last' | 'frequency' | 'all';

/** What each ranking rule saw of a hit (`explain=1`, docs/search.md#explain). */
export interface RuleValues {
  /** The query's words the hit matches. */
  words: number;
  typo: 0 | 1 | 2;
  /** 1: the words adjacent and in order (the whole query is or starts a key), else 0. */
  proximity: number;
  /** The best field class matched: 3 name, 2 tag, 1 description; a synonym's a half below. */
  attribute: number;
  /** 4 the whole query equals a key, 3 through a synonym, 2 starts a key, 1 through a synonym, 0 none. */
  exactness: number;
  /** The share of the project's shorter name the query covers, 0–1 (two decimals). */
  coverage: number;
  standing: number;
}

export interface ProjectHit {
  id: string;
  /** What a cursor needs to resume after this hit: the score, updatedAt/createdAt ms or the name sort key. */
  key: number | string;
  match?: { field: MatchField; score: number; typos: 0 | 1 | 2; rules?: RuleValues };
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
  /** The query's words the matching strategy left out (absent when none). */
  dropped?: string[];
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
