/**
 * Per project, the newest change id the read model has applied (apply.ts, "Versions"):
 * a change at or below it is skipped, its project already re-read at least as new.
 *
 * Bounded by the feed, not by time: an entry is kept while a change it would skip may still
 * arrive, and no longer. A change of the project at or below the entry's version was numbered
 * before the entry's change (a writer holds the project's row lock when its change is
 * numbered), so its transaction had its xid before the entry was set, and that xid is below the
 * xmax of any snapshot taken later. So entries are kept in generations: `passed` (a complete
 * read of the feed, after its applies) closes the generation being filled; the first read
 * begun after that gives the closed generation its bound, that read's xmax; once the horizon
 * (a complete read's xmin: every transaction below it read and applied) reaches the bound, no
 * change the generation would skip can come from the feed again, and the generation is
 * dropped. An own write's row (apply.ts applyOwn) whose transaction is below the horizon
 * is not applied: the follower has re-read its project already, at least as new. So the map
 * holds the projects changed since the last two or three reads of the feed (a read every
 * second when idle, at once under writes), more only while an old transaction holds the
 * horizon back.
 */
export class AppliedVersions {
  private current = new Map<string, number>();
  /** Closed generations, oldest first; `until`: the xmax of the first read begun after closing. */
  private closed: { versions: Map<string, number>; until: bigint | undefined }[] = [];

  /** Whether the project's change `version` (or a newer one) has been applied. */
  has(id: string, version: number): boolean {
    return this.known(id) >= version;
  }

  private known(id: string): number {
    let v = this.current.get(id) ?? -1;
    for (const g of this.closed) v = Math.max(v, g.versions.get(id) ?? -1);
    return v;
  }

  /** Records that the project was applied at `version` (kept only if newer than what is known). */
  set(id: string, version: number): void {
    if (this.has(id, version)) return;
    this.current.set(id, version);
  }

  /**
   * A complete read of the feed (every change below `xmin` read, and applied), whose snapshot
   * had `xmin` and `xmax`: generations closed before it began get `xmax` as their bound, those
   * whose bound the horizon `xmin` reached are dropped, and the one being filled is closed.
   */
  passed(xmin: bigint, xmax: bigint): void {
    for (const g of this.closed) g.until ??= xmax;
    while (this.closed[0]?.until !== undefined && this.closed[0].until <= xmin) this.closed.shift();
    if (this.current.size > 0) {
      this.closed.push({ versions: this.current, until: undefined });
      this.current = new Map();
    }
  }

  /** Projects remembered (for /metrics and tests). */
  get size(): number {
    let n = this.current.size;
    for (const g of this.closed) n += g.versions.size;
    return n;
  }
}
