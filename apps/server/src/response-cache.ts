/**
 * The serialised answers of reads of the read model (GET /api/projects, /api/tags,
 * /api/projects/{slug}), kept while the model does not change: each entry holds the model
 * version it was computed at and is used only at that version, the way a search engine's
 * request cache is dropped at each index refresh. A repeated query then costs a lookup instead
 * of matching, validating and serialising again. Bounded in bytes, least recently used first.
 */
export interface CachedAnswer {
  version: number;
  body: Buffer;
  etag: string;
  link: string | undefined;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;

  constructor(private readonly budget = 32 * 1024 * 1024) {}

  get(key: string, version: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= size(key, entry);
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedAnswer): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= size(key, old);
    }
    const bytes = size(key, entry);
    if (bytes > this.budget / 16) return;
    this.entries.set(key, entry);
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(k);
      this.bytes -= size(k, e);
    }
  }
}

const size = (key: string, e: CachedAnswer) => 2 * key.length + e.body.length + 200;
