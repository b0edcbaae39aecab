/**
 * Per project, the newest change id the read model has applied (read-model.ts, "Versions"):
 * a change at or below it is skipped, its project already re-read at least as new.
 *
 * Bounded by age: entries live in two generations, and the older one is dropped when the
 * newer is `generationMs` old, so the map holds the projects changed in the last one to two
 * generations, not every project written since the process started. Forgetting an entry is
 * safe for changes from the feed (their project is re-read as it is now: work, not a wrong
 * answer). What the entry still guards after a generation is an own write's row applied after a
 * newer one of the same project, which needs its request to have waited a generation between
 * its commit and its apply; the default of 60 s is far past any request's time limit.
 */
export class AppliedVersions {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  private since: number;

  constructor(
    private readonly generationMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  /** Whether the project's change `version` (or a newer one) has been applied. */
  has(id: string, version: number): boolean {
    return (this.current.get(id) ?? this.previous.get(id) ?? -1) >= version;
  }

  /** Records that the project was applied at `version` (kept only if newer than what is known). */
  set(id: string, version: number): void {
    if (this.has(id, version)) return;
    const now = this.now();
    if (now - this.since >= this.generationMs) {
      this.previous = this.current;
      this.current = new Map();
      this.since = now;
    }
    this.current.set(id, version);
  }

  /** Projects remembered (for /metrics and tests). */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}
