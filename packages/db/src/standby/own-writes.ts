/**
 * This process's own transactions that wrote projects, until the standby it reads shows them
 * (docs/operating.md#read-your-writes): reads of those projects, and every read not of
 * particular projects, go to the primary meanwhile. A transaction that changed what many
 * projects show (a tag renamed or merged: 'all') sends every read to the primary until then.
 */
export class OwnWrites {
  /** xid of the request's newest transaction → its projects, and when it was noted. */
  private readonly byXid = new Map<bigint, { ids: readonly string[] | 'all'; at: number }>();
  private readonly byId = new Map<string, number>();
  /** Transactions noted with 'all'. */
  private all = 0;

  get size(): number {
    return this.byXid.size;
  }

  add(xids: readonly string[], projectIds: readonly string[] | 'all'): void {
    let newest = 0n;
    for (const x of xids) if (BigInt(x) > newest) newest = BigInt(x);
    if (newest === 0n || this.byXid.has(newest)) return;
    if (projectIds === 'all') {
      this.byXid.set(newest, { ids: 'all', at: Date.now() });
      this.all++;
      return;
    }
    const ids = [...new Set(projectIds)];
    this.byXid.set(newest, { ids, at: Date.now() });
    for (const id of ids) this.byId.set(id, (this.byId.get(id) ?? 0) + 1);
  }

  touches(ids: readonly string[]): boolean {
    return this.byXid.size > 0 && (this.all > 0 || ids.some((id) => this.byId.has(id)));
  }

  /** Forgets the transactions `seen` says the reads no longer need the primary for. */
  forget(seen: (xid: bigint, at: number) => boolean): void {
    for (const [xid, { ids, at }] of this.byXid) {
      if (!seen(xid, at)) continue;
      this.byXid.delete(xid);
      if (ids === 'all') {
        this.all--;
        continue;
      }
      for (const id of ids) {
        const n = (this.byId.get(id) ?? 1) - 1;
        if (n <= 0) this.byId.delete(id);
        else this.byId.set(id, n);
      }
    }
  }
}
