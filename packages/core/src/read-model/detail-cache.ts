import type { LinkDetail, TagDetail } from '@directory/db';

/**
 * A project in the API's shape (endpoint 2), as the read model keeps it. A plain interface,
 * not the zod schema's type: the SDK's declarations reach this file through the router's
 * context and must not need zod.
 */
export interface ProjectBody {
  id: string;
  name: string;
  nameEn: string | null;
  slug: string;
  description: string;
  descriptionEn: string | null;
  content: string | null;
  contentEn: string | null;
  status: 'ACTIVE' | 'ARCHIVED';
  source: string | null;
  createdAt: string;
  updatedAt: string;
  tags: TagDetail[];
  links: LinkDetail[];
  /** Stars and downloads (docs/search.md#signals-and-standing); null when never sent. */
  signals?: { stars: number | null; downloads: number | null };
}

type Project = ProjectBody;

/**
 * A project as the detail cache gives it: its body (endpoint 2's data) and, once a list has
 * shown it, its list item's JSON, which `listPrefix` renders the first time and keeps here. A
 * newer version of the project is a new CachedProject, so the kept JSON is that of this body:
 * rendered once per project version, and handed to whoever builds a list as part of the value
 * (projects/list-item.ts), not looked up anywhere else.
 */
export class CachedProject {
  private listJson: Buffer | undefined;

  constructor(readonly body: ProjectBody) {}

  /** The list item's JSON without its closing brace: `render`ed the first time, then kept. */
  listPrefix(render: (body: ProjectBody) => Buffer): Buffer {
    this.listJson ??= render(this.body);
    return this.listJson;
  }
}

/**
 * The projects of recent pages and GETs in the API's shape, within a byte budget
 * (READ_CACHE_MB): least recently used out first. An evicted or invalidated project is read
 * back by its id (the read model reads every miss of a page in one statement).
 *
 * A read from the database can race an invalidation of the same project (a newer write
 * applied while the read was on its way): `fill` is given the epoch the read started at and
 * drops the row when the project was invalidated since, so the cache never keeps an older
 * version than the model has applied.
 */
export class DetailCache {
  private readonly entries = new Map<string, { project: CachedProject; bytes: number }>();
  private bytes = 0;
  private epoch = 0;
  /** Invalidations since the oldest read in flight: id → epoch. */
  private readonly invalidated = new Map<string, number>();
  private inFlight = 0;

  constructor(private readonly budget: number) {}

  get size(): { projects: number; bytes: number } {
    return { projects: this.entries.size, bytes: this.bytes };
  }

  get(id: string): CachedProject | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    // most recently used last
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.project;
  }

  /** A read of misses begins: its rows are filled with the epoch returned. */
  begin(): number {
    this.inFlight++;
    return this.epoch;
  }

  end(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.invalidated.clear();
  }

  /**
   * A project read from the database by a read that began at epoch `since`: kept unless it
   * was invalidated (or the cache cleared) since, or exceeds the budget alone. Returned either
   * way, for the read that asked for it.
   */
  fill(body: Project, since: number): CachedProject {
    const project = new CachedProject(body);
    if (since < this.clearedAt) return project;
    const at = this.invalidated.get(body.id);
    if (at !== undefined && at > since) return project;
    const bytes = approximateBytes(body);
    if (bytes > this.budget) return project;
    this.remove(body.id);
    this.entries.set(body.id, { project, bytes });
    this.bytes += bytes;
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(id);
      this.bytes -= entry.bytes;
    }
    return project;
  }

  invalidate(id: string): void {
    this.remove(id);
    if (this.inFlight > 0) this.invalidated.set(id, ++this.epoch);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    // every read in flight began before this: none of its rows may be kept
    this.clearedAt = ++this.epoch;
  }

  /** The epoch of the last clear(): reads that began before it fill nothing. */
  private clearedAt = 0;

  private remove(id: string) {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}

const strBytes = (s: string | null | undefined) => (s ? 2 * s.length + 16 : 0);

/** What a project costs in memory, roughly: its strings at two bytes a character plus object overhead. */
export function approximateBytes(p: Project): number {
  let n = 400;
  n += strBytes(p.name) + strBytes(p.nameEn) + strBytes(p.slug) + strBytes(p.description);
  n += strBytes(p.descriptionEn) + strBytes(p.source);
  for (const l of p.links) n += 120 + strBytes(l.url) + strBytes(l.title);
  n += 48 * p.tags.length;
  // …and once more for its list item's JSON, kept with it once a page has shown it
  // (CachedProject.listPrefix); content is not in a list item
  return 2 * n + strBytes(p.content) + strBytes(p.contentEn);
}
